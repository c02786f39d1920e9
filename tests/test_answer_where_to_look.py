"""A leading phrase that says where to look ("Looking at the supplier scorecard, ...") is no part of its own.

"Looking at the scorecard, which haulier came out worst on reliability, and what did it score?" asks two things:
the row with the lowest score and its score. The opening phrase only names the table to read; taken as a first part
it hid the superlative, so the row with the lowest value was never picked, and a search for the phrase alone found
nothing new and ended the run. A folder written here is ingested into the default embedded index and asked through
the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.evidence import split_question
from tests.support.folders import Folder, ask, ingested, write_files

SCORECARD = """Haulier,Lane,Reliability score,Damage claims,Contact
Ferrow Transport,Leeds - Hull,4.4,1,Dana Ferrow
Kettle Logistics,Hull - York,3.1,4,Ivo Kettle
Marsh Lane Carriers,York - Leeds,4.8,0,Ruth Amble
Penhallow Freight,Hull - Goole,3.9,2,Ned Penhallow
"""
POLICY = """# Haulier review policy

Every haulier on the approved list is scored each quarter on reliability and on damage claims. A haulier that
scores below 3.5 on reliability for two quarters in a row is put on a written improvement plan.
"""
MINUTES = """# Transport meeting, 6 October 2026

The scorecard for the third quarter was discussed. Dana asked for the Leeds lane timings to be checked again.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("hauliers"), {
        "ops/haulier-scorecard.csv": SCORECARD, "ops/haulier-review-policy.md": POLICY,
        "ops/transport-meeting-2026-10-06.md": MINUTES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_phrase_naming_where_to_look_goes_with_the_question() -> None:
    parts = split_question("Looking at the haulier scorecard, which haulier came out worst on reliability, and what "
                           "did it score?")
    assert len(parts) == 2 and parts[0].startswith("Which haulier came out worst on reliability"), parts
    assert split_question("Going by the scorecard, who has the most damage claims?")[0].startswith("Who has"), (
        "a phrase naming the table is no question")


@pytest.mark.parametrize("question", [
    "Looking at the haulier scorecard, which haulier came out worst on reliability, and what did it score?",
    "Going by the scorecard, who came out worst on reliability, and with what score?",
])
def test_the_row_with_the_lowest_value_answers_after_a_phrase_naming_the_table(folder: Folder, question: str) -> None:
    answer = str(ask(folder, question)["answer"])
    assert not is_not_found(answer), answer
    first = answer.split(" [", 1)[0]  # the row that answers comes first, not the rows read beside it
    assert "Kettle Logistics" in first and "3.1" in first, answer
