"""The row a status said in other words picks, and the place it names, followed to that place's own record.

"There's one supplier invoice we're refusing to pay at the moment. Who manages the depot it was charged to?": the
invoice list gives one row whose status is Disputed, its site (Kestrel Depot) is followed to the depot list, whose
row names the manager. The words that picked the row ("refusing to pay") are not searched with the depot; the depot
list is. A folder written here is ingested into the default embedded index and asked through the graph with the
built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

INVOICES = """invoice_no,supplier,site,issued,description,amount_gbp,status
KM-1001,Kerrow Motors,Heron Depot,2026-02-03,Van service,420.00,Paid
TW-2040,Tallow Waste,Kestrel Depot,2026-03-11,Skip hire and extra collections,1185.00,Disputed
KM-1017,Kerrow Motors,Osprey Depot,2026-04-22,Brake repair,610.50,Outstanding
LS-0303,Lantern Signs,Heron Depot,2026-05-09,New yard signs,890.00,Paid
"""
DEPOTS = """# Depot list

| Depot | Address | Town | Manager | Phone |
|---|---|---|---|---|
| Heron Depot | 4 Wharf Road | Amberley | Jonas Pike | 01632 810 101 |
| Kestrel Depot | 17 Foundry Way | Carnbrae | Halima Osei | 01632 810 202 |
| Osprey Depot | 2 Mill Lane | Dunmore | Rhys Tallant | 01632 810 303 |
"""
MINUTES = """# Depot managers' meeting, 14 April 2026

Halima raised the skip hire bill again: the extra collections were never booked and she will not sign it off. The
van service at Heron went well. Rhys asked for new brake pads for the Osprey vans.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    yield from _depots(tmp_path_factory, "depots", INVOICES)


def _depots(tmp_path_factory: pytest.TempPathFactory, name: str, invoices: str,
            more: dict[str, str] | None = None) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp(name), {
        "finance/supplier-invoices-2026.csv": invoices, "ops/depot-list.md": DEPOTS,
        "ops/minutes-2026-04-14.md": MINUTES, **(more or {})})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_disputed_row_leads_to_its_depot(folder: Folder) -> None:
    question = ("There's one supplier invoice we're refusing to pay at the moment. Who manages the depot it was "
                "charged to?")
    answer = str(ask(folder, question)["answer"])
    assert "TW-2040" in answer and "Halima Osei" in answer, answer
    assert "Jonas Pike" not in answer and "Rhys Tallant" not in answer, answer


def _long_invoices() -> str:
    # Sixty paid bills first: the table spans several chunks, and the disputed row is in the last.
    rows = [f"KM-{1100 + i},Kerrow Motors,{('Heron', 'Osprey')[i % 2]} Depot,2026-0{1 + i % 9}-1{i % 10},"
            f"Van service {i + 1},{300 + i}.00,Paid" for i in range(60)]
    rows.append("TW-2040,Tallow Waste,Kestrel Depot,2026-03-11,Skip hire and extra collections,1185.00,Disputed")
    return "invoice_no,supplier,site,issued,description,amount_gbp,status\n" + "\n".join(rows) + "\n"


def _depot_notes() -> dict[str, str]:
    notes = {}
    for i, depot in enumerate(("Kestrel", "Heron", "Osprey") * 4):
        notes[f"ops/notes/visit-{i:02d}.md"] = (
            f"# Site visit, {depot} Depot\n\nThe manager asked drivers to ring the office before noon and to call "
            f"again if a number changes. Visit {i + 1} of the year at {depot} Depot went well.\n")
    return notes


@pytest.fixture(scope="module")
def long_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    yield from _depots(tmp_path_factory, "depots-long", _long_invoices(), _depot_notes())


def test_a_question_in_parts_searches_for_the_rows_of_its_status(long_folder: Folder) -> None:
    question = ("There's one supplier bill we've refused to pay. I need to write to the depot it was charged to; "
                "what's its address?")
    answer = str(ask(long_folder, question)["answer"])
    assert "TW-2040" in answer and "17 Foundry Way" in answer, answer


def test_a_follow_up_after_a_question_that_says_i(folder: Folder) -> None:
    # "what number do I ring": the thread is about what the answer named, not about "I".
    from langgraph.checkpoint.memory import InMemorySaver

    saver = InMemorySaver()
    first = ("There's one supplier bill we're in an argument about. Which depot was it charged to, and what number "
             "do I ring to get the manager there?")
    ask(folder, first, thread_id="bill", checkpointer=saver)
    answer = str(ask(folder, "What was that bill for, and how much is it?", thread_id="bill",
                     checkpointer=saver)["answer"])
    assert "Skip hire" in answer and "1185" in answer, answer


def test_the_number_to_ring_at_the_place_a_disputed_bill_names(long_folder: Folder) -> None:
    # The hop searches the depot's own record for its phone, not the words that asked for it ("ring", "manager").
    question = ("There's one supplier bill we're in an argument about. Which of our depots was it charged to, and "
                "what number do I ring to get the manager there?")
    answer = str(ask(long_folder, question)["answer"])
    assert "TW-2040" in answer and "01632 810 202" in answer, answer
    assert "01632 810 101" not in answer and "01632 810 303" not in answer, answer
