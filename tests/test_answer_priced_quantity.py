"""A quantity the question gives times the price of one, with a surcharge the question names: "What would it cost to
send three half pallets from Corran to Ardgour at the weekend?" over a rate card's "Corran to Ardgour, half pallet:
£60" and "Weekend surcharge: 25 percent" is 3 × 60 × 1.25, computed with run_python and citing the rate card. The
price is the one for the unit and route asked about; a surcharge the question does not ask for is left out. A folder
written here is ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

RATE_CARD = """Freight rate card 2026

Corran to Ardgour, full pallet: £95, same day.
Corran to Ardgour, half pallet: £60, same day.
Fort William to Corran, full pallet: £140, next day.
Weekend surcharge: 25 percent. Tail-lift surcharge: 10 percent.
Rates are valid for the whole of 2026 and include fuel.
"""
NOTES = """# Stores meeting, 3 March 2026

The spare ramp cylinders for Ardgour will go over in three half pallets once the workshop has packed them.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("ferry-freight"), {
        "finance/freight-rate-card-2026.txt": RATE_CARD, "ops/stores-meeting-2026-03-03.md": NOTES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_quantity_times_the_price_of_one_with_the_surcharge_asked_for(folder: Folder) -> None:
    result = ask(folder, "What would it cost to send three half pallets from Corran to Ardgour at the weekend?")
    answer = str(result["answer"])
    assert "225" in answer and "run_python" in answer, answer  # 3 x 60 x 1.25
    assert "£60" in answer and "25 percent" in answer and "[1]" in answer, answer


def test_no_surcharge_the_question_does_not_ask_for(folder: Folder) -> None:
    answer = str(ask(folder, "What would it cost to send two full pallets from Corran to Ardgour?")["answer"])
    assert "190" in answer and "run_python" in answer, answer  # 2 x 95
    assert "surcharge" not in answer.lower(), answer
