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
    docs = write_files(tmp_path_factory.mktemp("depots"), {
        "finance/supplier-invoices-2026.csv": INVOICES, "ops/depot-list.md": DEPOTS,
        "ops/minutes-2026-04-14.md": MINUTES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_disputed_row_leads_to_its_depot(folder: Folder) -> None:
    question = ("There's one supplier invoice we're refusing to pay at the moment. Who manages the depot it was "
                "charged to?")
    answer = str(ask(folder, question)["answer"])
    assert "TW-2040" in answer and "Halima Osei" in answer, answer
    assert "Jonas Pike" not in answer and "Rhys Tallant" not in answer, answer
