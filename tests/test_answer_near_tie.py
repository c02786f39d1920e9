"""A part of a question in several is not staked on a near tie: the runner-up is quoted with the best sentence.

"How often are door closers tested, and by whom?" over two wings' routines, written alike, has two sentences that
answer the first part equally well; the answer quotes both rather than whichever the ranking put first. When the
question names the wing, its own routine wins clearly and stands alone. A runner-up never takes the place of a
later part's answer. A folder written here is ingested into the
default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from tests.support.folders import Folder, ask, ingested, write_files

EAST = """# East wing fire doors

The east wing fire doors are the responsibility of the estates team. Door closers in the east wing are tested every
Monday by the caretaker on duty.
"""
WEST = """# West wing fire doors

The west wing fire doors are the responsibility of the facilities contractor. Door closers in the west wing are
tested every Thursday by the contractor's engineer.
"""

LOG = """# Reception records

The fire log book is kept at the main reception desk. Every test of alarms, lights and doors is written in it.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("doors"), {"ops/fire-doors-east.md": EAST,
                                                         "ops/fire-doors-west.md": WEST, "ops/fire-log.md": LOG})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_two_routines_that_answer_a_part_equally_are_both_quoted(folder: Folder) -> None:
    answer = str(ask(folder, "How often are door closers tested, and by whom?")["answer"])
    assert not is_not_found(answer) and "every Monday" in answer and "every Thursday" in answer, answer


def test_a_clear_winner_stands_alone(folder: Folder) -> None:
    question = ("What are the west wing fire doors the responsibility of, and how often are the door closers "
                "tested?")
    answer = str(ask(folder, question)["answer"])
    assert "facilities contractor" in answer and "every Thursday" in answer, answer
    assert "every Monday" not in answer, answer


def test_a_runner_up_leaves_room_for_the_later_parts(folder: Folder) -> None:
    question = ("How often are door closers tested, what are the fire doors the responsibility of, and what is "
                "written in the fire log book?")
    answer = str(ask(folder, question)["answer"])
    assert "every Monday" in answer and "every Thursday" in answer, answer
    assert "responsibility of" in answer and "fire log book" in answer, answer
