"""Questions over a list of supplier invoices: what was paid to buy a thing, and a total asked in everyday words.

"How much did we pay for the forklifts when we bought them?" is not answered by the invoice for servicing them: a
bill for upkeep (a service, a repair, an inspection) is no price paid to buy or put something in, so without a
purchase the answer is "not found". "Adding up the invoices that have already been paid, what's the total?" asks for
a sum as plainly as "what is the total of ...". A folder written here is ingested into the default embedded index
and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.aggregate import ASKS_QUANTITY
from hopgraph.policies.answer.types import AMOUNT, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

INVOICES = """invoice_no,supplier,site,invoice_date,description,amount_gbp,status
TMH-2210,Tallis Materials Handling,North Yard,2026-01-23,Thorough examination and service of two forklifts,1240.00,Paid
KDS-0417,Kestrel Door Services,North Yard,2026-02-11,Repair of the loading bay door after a collision,385.50,Outstanding
BRC-1188,Brackwater Racking,South Yard,2026-03-02,Purchase of six new pallet racking bays,7420.00,Paid
TMH-2231,Tallis Materials Handling,South Yard,2026-03-19,Pallet truck service,96.00,Paid
"""
ASSETS = """asset_no,item,site,supplier,last_serviced
YD-01,Counterbalance forklift,North Yard,Tallis Materials Handling,2026-01-20
YD-02,Counterbalance forklift,North Yard,Tallis Materials Handling,2026-01-20
YD-07,Pallet racking (six bays),South Yard,Brackwater Racking,2026-03-01
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("yards"), {
        "finance/supplier-invoices-2026.csv": INVOICES, "yards/assets.csv": ASSETS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_bill_for_upkeep_is_no_price_paid_to_buy() -> None:
    bought = "How much did we pay for the two forklifts when we bought them?"
    service = ("invoice_no: TMH-2210; description: Thorough examination and service of two forklifts; "
               "amount_gbp: 1240.00; status: Paid")
    assert not holds_kind(service, AMOUNT, bought)
    assert holds_kind("The two forklifts were bought in 2019 for £31,000.", AMOUNT, bought)
    # Asked what the service cost, the same bill answers.
    assert holds_kind(service, AMOUNT, "How much did the forklift service cost?")


def test_the_price_of_buying_is_not_found_in_service_bills(folder: Folder) -> None:
    answer = str(ask(folder, "How much did we pay for the two forklifts at North Yard when we bought them?")["answer"])
    assert answer.startswith("Not found"), answer


def test_a_purchase_is_still_answered(folder: Folder) -> None:
    answer = str(ask(folder, "How much did we pay for the pallet racking at South Yard when we bought it?")["answer"])
    assert "7420" in answer.replace(",", ""), answer


def test_a_total_asked_in_everyday_words() -> None:
    assert ASKS_QUANTITY.search("Adding up the invoices that have already been paid, what's the total?")
    assert ASKS_QUANTITY.search("What's the sum of the paid invoices?")
    assert not ASKS_QUANTITY.search("Who signed the paid invoices?")


def test_the_paid_invoices_added_up(folder: Folder) -> None:
    question = "Adding up the supplier invoices that have already been paid, what's the total?"
    answer = str(ask(folder, question)["answer"])
    assert "8,756" in answer, answer  # 1240 + 7420 + 96
