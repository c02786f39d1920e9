"""The column a question asks about when it shares no word with any header: the one clearly closest in meaning.

"How many grumbles did Northfield receive in the first half?" names no column of a table with ``admissions``,
``refunds``, ``complaints`` and ``staff_hours``; the sentence encoder places it nearest ``complaints``, so the sum
is made over that column. A question that is not clearly nearer one header than the others picks none. A folder
written here is ingested into the default embedded index and asked through the graph with the built-in answer
policy (run_python computes the sum).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.meaning import closest_label
from hopgraph.policies.answer.tables import asked_column
from tests.support.folders import Folder, ask, csv_text, ingested, write_files

COLUMNS = ["admissions", "refunds", "complaints", "staff_hours"]
ROWS = [
    ("Northfield Leisure Centre", "Q1", 18250, 41, 17, 2210),
    ("Northfield Leisure Centre", "Q2", 19640, 38, 23, 2305),
    ("Northfield Leisure Centre", "Q3", 21105, 52, 29, 2390),
    ("Southmead Leisure Centre", "Q1", 12410, 19, 11, 1604),
    ("Southmead Leisure Centre", "Q2", 13025, 22, 14, 1650),
    ("Southmead Leisure Centre", "Q3", 13870, 27, 9, 1702),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("leisure"), {
        "centres/leisure-centres-2026.csv": csv_text(["centre", "quarter", *COLUMNS], ROWS),
        "centres/opening-times.md": ("# Opening times\n\nNorthfield Leisure Centre opens at 06:30 on weekdays and "
                                     "08:00 at weekends. Southmead Leisure Centre opens at 07:00 every day.\n")})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_clearly_closest_header_is_picked_and_no_other() -> None:
    headers = ["admissions", "refunds", "complaints", "staff hours"]
    assert closest_label("How many grumbles did Northfield receive?", headers) == 2
    assert closest_label("How much money did Northfield give back to customers?", headers) == 1
    # Nearly as close to two headers: no pick.
    assert closest_label("How many visitors did the Northfield pool get?", headers) is None
    records = [dict(zip(["centre", "quarter", *COLUMNS], map(str, row), strict=True)) for row in ROWS]
    assert asked_column(records, "How many grumbles did Northfield receive?") == "complaints"
    # A header that shares a word with the question still decides by words.
    assert asked_column(records, "How many staff hours did Southmead log in Q1?") == "staff_hours"


def test_a_sum_over_the_column_the_question_means(folder: Folder) -> None:
    result = ask(folder, "How many grumbles did Northfield receive in total in the first half of the year?")
    answer = result["answer"]
    calls = [c["name"] for t in result.get("trace") or [] for c in t.get("tool_calls") or []]
    assert "run_python" in calls
    assert "17 + 23 = 40" in answer, answer
    assert "complaints" in answer
