"""A follow-up that points back and names a month: "Have we paid their September invoice yet?"

The month is a time, not a subject, so the question still leans on the thread (whoever "their" is); the
supplier's name may hold an ampersand ("Harrow & Fell Booksellers"); and of the supplier's invoice rows, the one
issued in the month named is quoted. A folder written here (a stock fund note naming the supplier, an invoice
table with three of its invoices) is ingested into the default embedded index and asked through the graph with
the built-in answer policy on one thread.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.api import run
from hopgraph.config import Context
from hopgraph.index.factory import close_backend, open_backend
from hopgraph.index.ingest import ingest_paths
from hopgraph.policies.answer.row_filter import named_months
from hopgraph.policies.text import entity_spans
from hopgraph.tools.rewrite_query import is_follow_up

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
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, list[str]]]:
    docs = tmp_path_factory.mktemp("books")
    (docs / "stock").mkdir()
    (docs / "finance").mkdir()
    (docs / "stock" / "book-fund-2026-27.md").write_text(FUND)
    with (docs / "finance" / "invoices-2026.csv").open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["invoice_no", "supplier", "description", "issued", "amount_gbp", "status"])
        out.writerows(INVOICES)
    index_dir = str(tmp_path_factory.mktemp("books-index"))
    backend = open_backend(index_dir=index_dir)
    try:
        for name in ("stock", "finance"):
            ingest_paths(backend, [docs / name], container=name, progress=False)
        yield backend, ["stock", "finance"]
    finally:
        close_backend(index_dir=index_dir)


def test_a_month_is_no_name_of_its_own() -> None:
    assert is_follow_up("Have we paid their September invoice yet?")
    assert is_follow_up("And in May?")
    # A name still makes a question stand on its own.
    assert not is_follow_up("Have we paid the Larkspur invoice yet?")
    assert named_months("their September invoice, and what may follow in May") == {9: 6, 5: 48}


def test_an_ampersand_joins_one_name() -> None:
    spans = [span for span, _ in entity_spans("The main supplier is Moss & Tide Booksellers, not Larkspur Audio.")]
    assert "Moss & Tide Booksellers" in spans
    assert "Tide Booksellers" not in spans


def test_the_follow_up_quotes_the_row_of_the_month_it_names(folder: tuple[Any, list[str]]) -> None:
    backend, containers = folder
    context = Context(mode="answer", model="builtin", backend=backend, containers=containers)
    saver = InMemorySaver()
    first = run("Who supplies our children's picture books?", context=context, thread_id="books", checkpointer=saver)
    assert "Moss & Tide Booksellers" in first["answer"]
    result = run("Have we paid their September invoice yet?", context=context, thread_id="books",
                 checkpointer=saver)
    answer = result["answer"]
    assert "MT-4512" in answer and "Outstanding" in answer, answer
    # Not the supplier's earlier invoices, nor another supplier's September one.
    assert "MT-4101" not in answer and "MT-4377" not in answer and "LA-0091" not in answer
