"""Arithmetic over tables that span several chunks, and rows a question names.

A folder written here (depot costs by quarter, a staff list, a note), ingested with the real loaders into the
default embedded index and asked through the graph with the built-in answer policy: the policy searches the table
again for the rows its first search did not bring, picks the rows by every cell the question names (sites,
quarters in words, a status), and computes with run_python. Also: the row a follow-up's subject names, and "not
found" for a thing whose head noun nothing speaks of.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hopgraph.api import run
from hopgraph.config import Context
from hopgraph.index.factory import close_backend, open_backend
from hopgraph.index.ingest import ingest_paths
from hopgraph.policies.answer.aggregate import asks_for_arithmetic, lookup_row, plan_aggregate
from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.rates import rate_times_quantity
from hopgraph.policies.answer.row_filter import named_quarters, named_rows

SITES = ["Harbour Road Depot", "North Gate Depot", "Mill Lane Depot", "Quayside Depot", "Old Station Depot"]
QUARTERS = ["Q1", "Q2", "Q3"]  # no row for Q4


def _cost(site: int, quarter: int, column: int) -> int:
    """Distinct amounts, so a sum names the rows it used."""
    return 1000 * (column + 1) + 37 * site + 211 * quarter + 3 * site * quarter


COLUMNS = ["staffing", "energy", "repairs", "cleaning"]
COSTS = {(s, q): {c: _cost(i, j, k) for k, c in enumerate(COLUMNS)}
         for i, s in enumerate(SITES) for j, q in enumerate(QUARTERS)}
STAFF = [("Petra Lindholm", "Fleet Coordinator", "Mill Lane Depot"),
         ("Anton Weir", "Depot Manager", "Harbour Road Depot"),
         ("Sunniva Holt", "Depot Manager", "North Gate Depot"),
         ("Bram Castell", "Workshop Supervisor", "Quayside Depot")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, list[str]]]:
    docs = tmp_path_factory.mktemp("depots")
    (docs / "finance").mkdir()
    (docs / "ops").mkdir()
    with (docs / "finance" / "depot-costs-2026.csv").open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["site", "quarter", *COLUMNS])
        for (site, quarter), row in COSTS.items():
            out.writerow([site, quarter, *(row[c] for c in COLUMNS)])
    with (docs / "ops" / "staff.csv").open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["name", "role", "site"])
        out.writerows(STAFF)
    (docs / "ops" / "fleet-note.md").write_text(
        "# Fleet note\n\nThe weekly fleet rota is prepared by Petra Lindholm, who coordinates the fleet.\n\n"
        "Van insurance renews in March with Harbour Mutual, and the premium is paid by direct debit.\n\n"
        "In November the relief drivers covered 2,350 miles on depot runs in their own cars.\n")
    (docs / "finance" / "expenses-policy.md").write_text(
        "# Expenses policy\n\nWhat we repay to staff who use their own means.\n\n"
        "| Expense | Rate |\n|---|---|\n| Van hire | £40.00 a day |\n| Mileage in a private car | 45p per mile |\n"
        "| Parking | actual cost |\n\nClaims go to the finance team by the fifth of the month.\n")
    index_dir = str(tmp_path_factory.mktemp("depots-index"))
    backend = open_backend(index_dir=index_dir)
    try:
        for name in ("finance", "ops"):
            ingest_paths(backend, [docs / name], container=name)
        yield backend, ["finance", "ops"]
    finally:
        close_backend(index_dir=index_dir)


def _ask(folder: tuple[Any, list[str]], question: str, thread: str | None = None,
         saver: Any = None) -> tuple[dict[str, Any], list[str]]:
    backend, containers = folder
    context = Context(mode="answer", model="builtin", backend=backend, containers=containers)
    result = run(question, context=context, thread_id=thread, checkpointer=saver)
    calls = [c["name"] for t in result.get("trace") or [] for c in t.get("tool_calls") or []]
    return result, calls


def test_the_table_is_searched_again_for_the_rows_a_sum_needs(folder: Any) -> None:
    # Fifteen rows in three chunks; a search returns at most two chunks of one document.
    result, calls = _ask(folder, "What was the combined energy spend across all five depots in the third quarter?")
    values = [COSTS[(s, "Q3")]["energy"] for s in SITES]
    assert result["exit_reason"] == "answered"
    assert calls[:2] == ["search_documents", "search_documents"] and calls[-1] == "run_python"
    assert f"= {sum(values):,} (energy)" in result["answer"]
    assert all(f"site: {s}; quarter: Q3" in result["answer"] for s in SITES)
    assert "quarter: Q2" not in result["answer"]


def test_a_mean_over_the_quarters_a_question_names_in_words(folder: Any) -> None:
    result, calls = _ask(folder, "On average, how much did Quayside Depot spend on cleaning over the first three "
                                 "quarters?")
    values = [COSTS[("Quayside Depot", q)]["cleaning"] for q in ("Q1", "Q2", "Q3")]
    assert calls[-1] == "run_python"
    assert f"/ 3 = {round(sum(values) / 3, 2):,.2f}".removesuffix(".00") in result["answer"]
    assert "North Gate" not in result["answer"]


def test_by_how_much_one_named_row_exceeds_another(folder: Any) -> None:
    result, _ = _ask(folder, "By how much did North Gate's energy spend in Q2 exceed the one in Q1?")
    q2, q1 = (COSTS[("North Gate Depot", q)]["energy"] for q in ("Q2", "Q1"))
    assert f"{q2} − {q1} = {q2 - q1:,}" in result["answer"]


def test_a_quarter_the_table_read_whole_has_no_row_for_is_not_found(folder: Any) -> None:
    result, calls = _ask(folder, "How much did Harbour Road Depot spend on energy in the fourth quarter?")
    assert calls == ["search_documents", "search_documents"]  # the rest of the table is read first
    assert result["answer"].startswith("Not found in the documents you can search")
    # The same question about a quarter it has is answered from its row.
    result, _ = _ask(folder, "How much did Harbour Road Depot spend on energy in the third quarter?")
    assert f"energy: {COSTS[('Harbour Road Depot', 'Q3')]['energy']}" in result["answer"]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, list[str]]]:
    """The library service's development folder (tests/support/answer_dev2) in the default embedded index."""
    docs = Path(__file__).resolve().parent / "support" / "answer_dev2" / "docs"
    index_dir = str(tmp_path_factory.mktemp("library-index"))
    backend = open_backend(index_dir=index_dir)
    try:
        for name in ("finance", "service"):
            ingest_paths(backend, [docs / name], container=name, progress=False)
        yield backend, ["finance", "service"]
    finally:
        close_backend(index_dir=index_dir)


def test_a_later_part_is_answered_from_the_row_the_bridge_names(library: Any) -> None:
    # Every branch has a Q1 row with loans; the bridge (the branch of the leak) names which one.
    result, calls = _ask(library, "Which branch had the roof leak in July, and how many loans did it issue in Q1?")
    assert calls.count("search_documents") >= 2
    assert "branch: Priory Library; quarter: Q1; visits: 12480; loans: 9612" in result["answer"]
    assert "branch: Central Library" not in result["answer"]


def test_a_rate_per_unit_times_a_quantity_stated_elsewhere(folder: Any) -> None:
    # The rate is a row of a Markdown table in the policy, the quantity a sentence of the note.
    result, calls = _ask(folder, "At the rate we pay for mileage, how much do we owe the relief drivers for the "
                                 "miles they drove in November?")
    assert calls[-1] == "run_python"
    assert "2,350 × 45p = 1,057.50 GBP" in result["answer"]
    assert "Mileage in a private car; Rate: 45p per mile" in result["answer"]
    assert {c["doc_id"] for c in result["citations"]} == {"finance/expenses-policy.md", "ops/fleet-note.md"}


def test_a_rate_alone_is_not_multiplied_by_a_count_of_its_unit() -> None:
    policy = Passage(ref="S1", title="travel", text="An employee can claim up to 45 EUR per day for meals.", rank=1,
                     round=1, kind="md", source="travel.md")
    leave = Passage(ref="S2", title="leave", text="Every employee has 28 days of paid leave a year.", rank=2,
                    round=1, kind="md", source="leave.md")
    # "per day" asks for the rate itself; "the 3 days of the trip" asks for a number of days at that rate.
    assert rate_times_quantity("How much can an employee claim for meals per day?", [policy, leave]) is None
    trip = Passage(ref="S3", title="trip", text="The audit trip to Lyon lasted 3 days in May.", rank=3, round=1,
                   kind="md", source="trip.md")
    owed = rate_times_quantity("How much can she claim for meals for the days of the Lyon audit trip?",
                               [policy, leave, trip])
    assert owed is not None and [o.value for o in owed.operands] == [3.0, 45.0] and owed.unit == "EUR"


def test_rows_of_a_markdown_table_are_sentences_of_their_own() -> None:
    text = ("Intro line that is a full sentence of its own.\n\n| Expense | Rate |\n|---|---|\n"
            "| Van hire | £40.00 a day |\n| Mileage in a private car | 45p per mile |\n")
    sentences = passage_sentences(Passage(ref="S1", title="p", text=text, rank=1, round=1, kind="md",
                                          source="p.md"))
    # The short row is kept (it would pass for a heading), each row under its header, never split at ";".
    assert sentences == ["Intro line that is a full sentence of its own.", "Expense: Van hire; Rate: £40.00 a day",
                         "Expense: Mileage in a private car; Rate: 45p per mile"]


def test_a_follow_up_about_a_person_quotes_the_one_row_naming_them(folder: Any) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    saver = InMemorySaver()
    first, _ = _ask(folder, "Who coordinates the fleet?", thread="fleet", saver=saver)
    assert "Petra Lindholm" in first["answer"]
    result, _ = _ask(folder, "Where is she based?", thread="fleet", saver=saver)
    assert "name: Petra Lindholm" in result["answer"] and "Mill Lane Depot" in result["answer"]
    assert "Anton Weir" not in result["answer"]


def test_a_thing_whose_head_nothing_speaks_of_is_not_found(folder: Any) -> None:
    # The note speaks of van insurance, never of an excess.
    result, _ = _ask(folder, "What is the insurance excess on the depot vans?")
    assert result["answer"].startswith("Not found in the documents you can search")
    assert not result.get("citations")


def _table(rows: list[dict[str, str]], source: str = "t.csv", rank: int = 1) -> Passage:
    text = "\n\n".join("\n".join(f"{k}: {v}" for k, v in row.items()) for row in rows)
    return Passage(ref=f"S{rank}", title=source, text=text, rank=rank, round=1, kind="table", source=source)


def test_quarters_named_in_words() -> None:
    assert set(named_quarters("in the first half of 2026")) == {"q1", "q2"}
    assert set(named_quarters("the second half")) == {"q3", "q4"}
    assert set(named_quarters("over the first three quarters")) == {"q1", "q2", "q3"}
    assert set(named_quarters("in the third quarter")) == {"q3"}
    assert set(named_quarters("between Q2 and Q4")) == {"q2", "q4"}
    assert set(named_quarters("between April and June")) == {"q2"}
    assert set(named_quarters("from January to June")) == {"q1", "q2"}
    assert named_quarters("between April and May") == {}  # not a whole quarter
    assert named_quarters("a quarterly report from the first half-marathon") == {}


def test_rows_meet_every_named_cell_in_the_order_named() -> None:
    rows = [{"branch": b, "quarter": q, "status": st, "note": ""}
            for b, q, st in [("Central Library", "Q1", "Paid"), ("Central Library", "Q2", "Paid"),
                             ("Brookside Library", "Q2", "Outstanding"), ("Brookside Library", "Q1", "Paid")]]

    def pick(question: str) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
        kept, conditions = named_rows(rows, lambda r: r, question, lambda cell: cell.isdigit())
        return [(r["branch"], r["quarter"]) for r in kept], conditions

    # "Library" is in every branch's name, so it names none; "Central" and "Brookside" name one each.
    kept, conditions = pick("In Q2, how many more visits did Central Library get than Brookside?")
    assert kept == [("Central Library", "Q2"), ("Brookside Library", "Q2")]
    assert conditions == {"branch": ["Central Library", "Brookside Library"], "quarter": ["Q2"]}
    kept, _ = pick("How much more did Brookside get than Central in the first quarter?")
    assert kept == [("Brookside Library", "Q1"), ("Central Library", "Q1")]
    assert pick("the total of every invoice that is outstanding")[0] == [("Brookside Library", "Q2")]
    assert pick("the total across all branches") == ([], {})  # nothing named: no rows, and no empty cell named


def test_the_table_named_by_the_most_columns_and_the_column_by_its_words() -> None:
    invoices = _table([{"supplier": s, "description": f"{d} {q}", "amount_gbp": a, "status": "Paid"}
                       for s, d, q, a in (("Lindqvist Systems", "Sorter maintenance", "Q2", "4615.00"),
                                          ("Pennant Print", "Booklets", "Q3", "512.40"),
                                          ("Lindqvist Systems", "Sorter maintenance", "Q3", "4860.00"))],
                      "invoices.csv", rank=2)
    costs = _table([{"site": s, "quarter": q, "repairs_maintenance": str(100 * i + j), "cleaning": "50"}
                    for i, s in enumerate(("Central", "Priory")) for j, q in enumerate(("Q2", "Q3"))],
                   "costs.csv")
    agg = plan_aggregate("By how much did Lindqvist's maintenance invoice for Q3 exceed the one for Q2?",
                         [costs, invoices])
    assert agg is not None and agg.op == "difference" and agg.label == "amount_gbp"
    assert [o.value for o in agg.operands] == [4860.0, 4615.0]
    flour = _table([{"quarter": q, "flour_tonnes": t, "cost_eur": c}
                    for q, t, c in (("Q1", "84", "41160"), ("Q2", "96", "47040"), ("Q3", "90", "44100"))])
    # "flour" and "cost" each name a column as well: "how much" asks for the money one.
    spent = plan_aggregate("How much did the flour bought in the first two quarters cost in total?", [flour])
    assert spent is not None and spent.label == "cost_eur" and [o.value for o in spent.operands] == [41160, 47040]
    assert asks_for_arithmetic("What was the average monthly spend?") == "mean"
    assert asks_for_arithmetic("By how much did the bill exceed the quote?") == "difference"


def test_one_named_row_answers_only_for_a_column_the_question_names() -> None:
    invoices = _table([{"invoice": i, "po": po, "amount_eur": a} for i, po, a in
                       (("NC-311", "PO-4471", "48200"), ("NC-312", "PO-4480", "12100"))])
    row = lookup_row("How much was the amount invoiced for PO-4471?", [invoices])
    assert row is not None and row[0]["invoice"] == "NC-311"
    # The row is named, but the penalty is no column of it: the answer is elsewhere.
    assert lookup_row("How much is the delay penalty for PO-4471?", [invoices]) is None
    assert lookup_row("How much was invoiced in total for PO-4471 and PO-4480?", [invoices]) is None  # a sum
