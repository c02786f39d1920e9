"""A follow-up that points back and names a month: "Have we paid their September invoice yet?"

The month is a time, not a subject, so the question still leans on the thread (whoever "their" is); the
supplier's name may hold an ampersand ("Harrow & Fell Booksellers"); and of the supplier's invoice rows, the one
issued in the month named is quoted. A folder written here (a stock fund note naming the supplier, an invoice
table with three of its invoices) is ingested into the default embedded index and asked through the graph with
the built-in answer policy on one thread.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.policies.answer.row_filter import named_months
from hopgraph.policies.text import entity_spans
from hopgraph.tools.rewrite_query import is_follow_up
from tests.support.folders import Folder, ask, csv_text, ingested, write_files

FUND = """# Book fund 2026-27

## How the fund is split

| Area | Allocation | Main supplier |
|---|---|---|
| Adult fiction | £30,000 | Quill & Rowan Books |
| Children's picture books | £12,500 | Moss & Tide Booksellers |
| Audio books | £4,000 | Larkspur Audio |
"""

INVOICES = [
    ("MT-4101", "Moss & Tide Booksellers", "Picture books spring order", "2026-04-09", "2210.40", "Paid"),
    ("QR-2290", "Quill & Rowan Books", "Adult fiction order", "2026-06-15", "3120.00", "Paid"),
    ("MT-4377", "Moss & Tide Booksellers", "Picture books summer order", "2026-07-02", "1985.10", "Paid"),
    ("LA-0091", "Larkspur Audio", "Audio book licences", "2026-09-03", "760.00", "Paid"),
    ("MT-4512", "Moss & Tide Booksellers", "Picture books autumn order", "2026-09-18", "2644.25", "Outstanding"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("books"), {
        "stock/book-fund-2026-27.md": FUND,
        "finance/invoices-2026.csv": csv_text(["invoice_no", "supplier", "description", "issued", "amount_gbp",
                                               "status"], INVOICES)})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_month_is_no_name_of_its_own() -> None:
    assert is_follow_up("Have we paid their September invoice yet?")
    assert is_follow_up("And in May?")
    # Days in the plural ("on Sundays") name a time too.
    assert is_follow_up("And what time does it close on Sundays?")
    assert not is_follow_up("And what time does Stonegate close?")
    # A name still makes a question stand on its own.
    assert not is_follow_up("Have we paid the Larkspur invoice yet?")
    assert named_months("their September invoice, and what may follow in May") == {9: 6, 5: 48}


def test_an_ampersand_joins_one_name() -> None:
    spans = [span for span, _ in entity_spans("The main supplier is Moss & Tide Booksellers, not Larkspur Audio.")]
    assert "Moss & Tide Booksellers" in spans
    assert "Tide Booksellers" not in spans


def test_the_follow_up_quotes_the_row_of_the_month_it_names(folder: Folder) -> None:
    saver = InMemorySaver()
    first = ask(folder, "Who supplies our children's picture books?", thread_id="books", checkpointer=saver)
    assert "Moss & Tide Booksellers" in first["answer"]
    result = ask(folder, "Have we paid their September invoice yet?", thread_id="books", checkpointer=saver)
    answer = result["answer"]
    assert "MT-4512" in answer and "Outstanding" in answer, answer
    # Not the supplier's earlier invoices, nor another supplier's September one.
    assert "MT-4101" not in answer and "MT-4377" not in answer and "LA-0091" not in answer
