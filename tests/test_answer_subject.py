"""A "when / where / who / how many" question about a thing no found passage with such an answer speaks of.

"When is the refurbishment of the reading room due to be finished?" over notes that mention the refurbishment
without a date, and give a date for other work ("Finish the lobby repainting by the end of May"), has no
answer: the date belongs to another thing. A folder written here is ingested into the default embedded index
and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.asked import asked_subject
from hopgraph.policies.answer.compose import NOT_FOUND
from tests.support.folders import Folder, ask, ingested, write_files

PLANS = """# Harrow Street building plans

## Reading room

Tobias Wren showed drawings for the refurbishment of the reading room: new desks, brighter lighting and a
quiet corner. The board liked them and asked for prices before deciding anything.

## Next steps

1. Finish the lobby repainting by the end of May 2026.
2. Replace the entrance mat in June.
"""

HANDBOOK = """# Harrow Street visitor handbook

The building opens at 08:00 and closes at 18:00. Visitors sign in at the front desk. The lift serves all four
floors. Cycle racks are behind the car park.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("harrow"), {
        "estates/building-plans.md": PLANS, "estates/visitor-handbook.md": HANDBOOK})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_asked_subject_is_the_head_of_what_the_question_names() -> None:
    assert asked_subject("When is the refurbishment of the reading room due to be finished?") == {"refur"}
    assert asked_subject("How many loans did the mobile libraries make in June?") == {"loan"}
    assert asked_subject("Who is the manager of the branch?") == {"manag"}
    # A verb, a pronoun or a generic head names no thing.
    assert asked_subject("Who manages the Northgate depot?") == set()
    assert asked_subject("When did it open?") == set()
    assert asked_subject("When is the date of the review?") == set()


def test_a_date_for_another_thing_is_no_answer(folder: Folder) -> None:
    answer = str(ask(folder, "When is the refurbishment of the reading room due to be finished?")["answer"])
    assert answer.startswith(NOT_FOUND[:-1]), answer
    assert "estates" in answer
    assert "May" not in answer


def test_a_date_for_the_asked_thing_is_still_the_answer(folder: Folder) -> None:
    answer = str(ask(folder, "When is the lobby repainting due to be finished?")["answer"])
    assert "end of May 2026" in answer, answer
    assert answer.rstrip().endswith("[1].")
