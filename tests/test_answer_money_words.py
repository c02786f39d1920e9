"""Questions about money and counts in everyday words: a status said in other words, "what did we pay", a growth in
per cent.

"How much do the bills we're refusing to pay come to altogether?" adds up the invoices whose status is Disputed;
"What did we pay for the ferry when we bought it?" is not answered by the bill for servicing it; "In percentage
terms, how much did day tickets at Pellow grow between the first quarter and the second?" computes (Q2 − Q1) / Q1
× 100 with run_python from the two rows. A folder written here is ingested into the default embedded index and asked
through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

INVOICES = """invoice_no,supplier,harbour,invoice_date,description,amount_gbp,status
MM-0101,Marlow Marine,Pellow,2026-02-11,Ferry hull survey and service,2140.00,Paid
KS-2207,Kerrow Slipways,Harwick,2026-03-19,Slipway repair after storm,860.50,Disputed
BT-0340,Brack Tugs,Pellow,2026-05-02,Tug standby for freight crossing,415.00,Outstanding
KS-2231,Kerrow Slipways,Pellow,2026-06-27,Winch call-out,322.25,Disputed
"""
TICKETS = """harbour,quarter,day_tickets,season_tickets,freight_crossings
Harwick,2026-Q1,4100,310,120
Harwick,2026-Q2,4920,330,118
Pellow,2026-Q1,3200,150,260
Pellow,2026-Q2,3680,160,275
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("ferries"), {
        "finance/supplier-invoices-2026.csv": INVOICES, "ops/tickets-2026.csv": TICKETS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_status_said_in_other_words(folder: Folder) -> None:
    answer = str(ask(folder, "How much do the bills we're refusing to pay come to altogether?")["answer"])
    assert "1,182.75" in answer, answer  # 860.50 + 322.25
    assert "2140" not in answer and "415" not in answer, answer


def test_what_we_paid_to_buy_it_is_no_service_bill(folder: Folder) -> None:
    answer = str(ask(folder, "What did we pay for the ferry when we bought it?")["answer"])
    assert answer.startswith("Not found"), answer


def test_growth_in_per_cent_between_two_quarters(folder: Folder) -> None:
    question = "In percentage terms, how much did day tickets at Pellow grow between the first quarter and the second?"
    answer = str(ask(folder, question)["answer"])
    assert "15%" in answer and "3680" in answer and "3200" in answer, answer
    assert "4920" not in answer, answer
