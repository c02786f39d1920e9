"""A penalty asked as what is owed: "What delay penalty are we owed on the April hinge order that slipped?" is the
order's value times the contract's rate per week times the weeks late, computed with run_python from the order
found, its row (a column "value_gbp": a value, in GBP) and the supplier's penalty clause. The first search finds all
three, so they are computed at once rather than after a hop that would find nothing new. A folder written here is
ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

INCIDENT = """# INC-2026-14: Late delivery of ramp hinges

Keelby Engineering Ltd missed the agreed delivery date of 15 April 2026 for purchase order PO-7731 (400 ramp
hinges). The hinges arrived on 29 April, two weeks late, and the Corran ramp overhaul was moved back.
"""
CONTRACT = """# Supply Agreement - Keelby Engineering Ltd

1. Scope
Keelby Engineering Ltd supplies machined ramp hinges and pins to Corran Ferries Ltd.

2. Late delivery
If a delivery is late, Keelby Engineering Ltd pays a delay penalty of 2 percent of the value of the late goods per
started week of delay, limited to 10 percent of that value.
"""
ORDERS = """po,supplier,item,value_gbp,due
PO-7731,Keelby Engineering Ltd,Ramp hinges,12500,2026-04-15
PO-7740,Alba Marine Paints,Deck paint,3900,2026-05-02
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("ferry-orders"), {
        "ops/incidents/INC-2026-14-late-hinges.md": INCIDENT, "legal/keelby-supply-agreement.md": CONTRACT,
        "finance/orders-2026.csv": ORDERS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_penalty_we_are_owed_is_computed(folder: Folder) -> None:
    answer = str(ask(folder, "What delay penalty are we owed on the April hinge order that slipped?")["answer"])
    assert "run_python" in answer and "= 500 GBP" in answer, answer  # 12,500 x 2 percent x two weeks; value_gbp
    assert "2 percent" in answer, answer
