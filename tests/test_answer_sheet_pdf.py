"""Questions over spreadsheets exported to PDF, answered from their rows: what is left of a budget, by how much one
was overrun, and "how many" over the count column rather than the money one.

"How much of the kitchen budget is left after June?" over the row "Cost centre: Kitchen; Budget 2027 GBP: 84,000;
Spent to June GBP: 51,250" is 84,000 − 51,250, computed with run_python from that row. A folder written here is
ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files, write_sheet_pdf

MINUTES = """# Estates meeting, 3 July 2027

The kitchen refit is on schedule. The grounds team hired extra help for the storm clean-up in May, which the
estates lead will explain at the next meeting. New chairs for the hall arrive in August.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("estates"), {"estates/minutes-2027-07.md": MINUTES})
    finance = docs / "finance"
    write_sheet_pdf(finance / "cost-centres-2027.xlsx.pdf", "cost-centres-2027.xlsx - Sheet: Cost centres",
                    ("Cost centre", "Budget 2027 GBP", "Spent to June GBP", "Lead"),
                    [("Kitchen", "84,000", "51,250", "Mara Quist"), ("Grounds", "40,000", "43,500", "Ivo Petrak"),
                     ("Library", "26,500", "12,900", "Ruth Ames")], (45, 40, 45, 50))
    write_sheet_pdf(finance / "orders-2027.xlsx.pdf", "orders-2027.xlsx - Sheet: Orders",
                    ("Order", "Supplier", "Item", "Units", "Value GBP"),
                    [("OR-311", "Halden Furniture", "Stacking chair", "120", "9,600"),
                     ("OR-318", "Brightwell Catering", "Combi oven", "2", "14,200"),
                     ("OR-326", "Halden Furniture", "Stacking chair", "80", "6,400")], (25, 55, 45, 25, 30))
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_what_is_left_of_a_budget(folder: Folder) -> None:
    answer = str(ask(folder, "How much of the kitchen budget is left after June?")["answer"])
    assert "= 32,750" in answer and "84,000" in answer and "51,250" in answer, answer
    assert "run_python" in answer, answer


def test_by_how_much_a_budget_was_overrun(folder: Folder) -> None:
    answer = str(ask(folder, "By how much is the Grounds cost centre over budget?")["answer"])
    assert "43,500 − 40,000 = 3,500" in answer, answer


def test_how_many_adds_up_the_count_column(folder: Folder) -> None:
    answer = str(ask(folder, "How many stacking chairs did we order from Halden altogether?")["answer"])
    assert "120 + 80 = 200" in answer, answer
    assert "16,000" not in answer, answer  # the two orders' value, not their units


def test_no_row_named_no_remainder(folder: Folder) -> None:
    answer = str(ask(folder, "How much of the swimming pool budget is left?")["answer"])
    assert "run_python" not in answer and "Calculated" not in answer, answer


def test_a_sheet_read_as_plain_lines_keeps_its_header_with_each_row() -> None:
    # An index written before PDF tables were read by column holds the sheet as lines of words and figures.
    from hopgraph.policies.answer.rows import table_rows

    text = ("budget.xlsx - Sheet: Cost centres\nCost centre Budget 2027 GBP Spent to June GBP Lead\n"
            "Kitchen 84,000 51,250 Mara Quist\nGrounds 40,000 43,500 Ivo Petrak")
    assert table_rows(text)[-2:] == [
        "Cost centre Budget 2027 GBP Spent to June GBP Lead | Kitchen 84,000 51,250 Mara Quist",
        "Cost centre Budget 2027 GBP Spent to June GBP Lead | Grounds 40,000 43,500 Ivo Petrak"]
