"""The rate said of the thing the quantity is of, and "what should we expect the bill to be?" asks for a cost.

"Northgate still haven't billed us for the porter who covered Dev's leave in August. Roughly what should we expect
the bill to be?": the minutes say Northgate "supplied a night porter for 9 shifts", and the rates memo has a day
porter's and a night porter's rate per shift, which fit the question alike; the night porter's is taken, as the
quantity is of night shifts: 9 × £165.00. A folder written here is ingested into the default embedded index and
asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.rates import asks_cost
from tests.support.folders import Folder, ask, ingested, write_files

MINUTES = """# Ward managers' meeting, 9 September 2026

## 1. Cover

Priya confirmed that Northgate supplied a night porter for 9 shifts in August while Dev was on leave, at the rate in
the memo. Northgate have not invoiced yet.
"""
MEMO = """# Memo: porter cover rates from Northgate

| Cover | Rate |
|---|---|
| Day porter, shift | £140.00 per shift |
| Night porter, shift | £165.00 per shift |
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("ward"), {"ops/minutes-2026-09-09.md": MINUTES,
                                                        "finance/porter-rates-memo.md": MEMO})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_what_should_we_expect_the_bill_to_be_asks_a_cost() -> None:
    assert asks_cost("Roughly what should we expect the bill to be?")
    assert asks_cost("What will the invoice be?")
    assert not asks_cost("What should we expect from the new system?")


def test_the_rate_of_what_the_quantity_is_of(folder: Folder) -> None:
    question = ("Northgate still haven't billed us for the porter who covered Dev's leave in August. Roughly what "
                "should we expect the bill to be?")
    answer = str(ask(folder, question)["answer"])
    assert "1,485" in answer and "165.00" in answer, answer
