"""Counts given one sentence after another for the members of a set the question names only by number.

"How many first-aid courses did the two depots run between them?" over "North Gate ran 14 first-aid courses over
the winter. Mill Lane managed 9, despite the snow.": 14 + 9, computed through run_python and cited. A folder written
here is ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.parallel import parallel_counts
from tests.support.folders import Folder, ask, ingested, write_files

TRAINING = """# Winter training round-up

Written by the training lead, 3 March 2026.

## Courses

North Gate ran 14 first-aid courses over the winter. Mill Lane managed 9, despite the snow in January.

Of those, 6 of the North Gate courses were refreshers for drivers.
"""
OTHER = """# Depot notes

Both depots kept their yards gritted through January. The Mill Lane depot has 22 parking bays for staff.
"""
QUESTION = "How many first-aid courses did the two depots run between them over the winter?"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("depots"), {
        "ops/training-round-up.md": TRAINING, "ops/depot-notes.md": OTHER})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def _passage(text: str) -> Passage:
    return Passage(ref="S1", title="Winter training round-up", text=text, rank=1, round=1)


def test_a_count_per_member_one_sentence_after_another() -> None:
    found = parallel_counts(QUESTION, [_passage(TRAINING)])
    assert [(v, text) for v, text, _, _ in found] == [(14.0, "14"), (9.0, "9")]
    # As many numbers as the question says: three depots are not two.
    assert parallel_counts(QUESTION.replace("the two", "all three"), [_passage(TRAINING)]) == []
    # A number followed by a word ("6 of the North Gate courses") is no member's count.
    only_first = TRAINING.replace("Mill Lane managed 9, despite", "Mill Lane ran 9 of them, despite")
    assert parallel_counts(QUESTION, [_passage(only_first)]) == []
    # No set named by number: nothing to add.
    assert parallel_counts("How many first-aid courses did North Gate run?", [_passage(TRAINING)]) == []


def test_the_counts_are_added_and_cited(folder: Folder) -> None:
    result = ask(folder, QUESTION)
    answer = str(result["answer"])
    assert "14 + 9 = 23" in answer, answer
    assert {c["source"] for c in result["citations"]} == {"ops/training-round-up.md"}
