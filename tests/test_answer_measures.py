"""A measure asked for by its quality is answered with that measure's unit.

"How cold must the vaccine fridge be kept?" asks for a temperature: a sentence with "between 2 and 8 degrees" answers
it, and one with another number ("checked within 30 minutes") does not, however many of the question's words it
shares. "How warm", "how heavy", "how fast", "how far" ask for an amount, not a thing. A folder written here is
ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.types import AMOUNT, asked_kind, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

INCIDENT = """# Vaccine fridge door left open at Orchard Surgery

On 4 March the vaccine fridge at Orchard Surgery was found with its door ajar. The practice nurse moved the vaccine
fridge stock to the spare fridge within 30 minutes and kept the vaccine fridge log for the pharmacist.
"""
ROUTINE = """# Cold chain routine

The vaccine fridge must stay between 2 and 8 degrees Celsius. The reading is written in the log at the start and the
end of each day.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("surgery"), {"ops/fridge-incident.md": INCIDENT,
                                                           "ops/cold-chain.md": ROUTINE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_how_cold_is_answered_with_a_temperature(folder: Folder) -> None:
    answer = str(ask(folder, "How cold must the vaccine fridge stock be kept?")["answer"])
    assert not is_not_found(answer) and "between 2 and 8 degrees Celsius" in answer, answer
    assert "30 minutes" not in answer, answer


def test_a_quality_of_measure_asks_for_an_amount_in_its_unit() -> None:
    assert asked_kind("How warm did cold store B get during the July alarm?") == AMOUNT
    assert asked_kind("How heavy is the pallet?") == AMOUNT
    cold = "How cold must the vaccine fridge be kept?"
    assert holds_kind("The fridge must stay between 2 and 8 degrees Celsius.", AMOUNT, cold)
    assert holds_kind("Keep it at 4 °C.", AMOUNT, cold)
    assert not holds_kind("The stock was moved within 30 minutes.", AMOUNT, cold)
    heavy = "How heavy is the pallet?"
    assert holds_kind("The loaded pallet weighs 420 kg.", AMOUNT, heavy)
    assert not holds_kind("The pallet holds 60 sensors.", AMOUNT, heavy)
    far = "How far is the depot from the port?"
    assert holds_kind("The depot is 12 km from the port.", AMOUNT, far)
    assert not holds_kind("The depot has 4 loading bays.", AMOUNT, far)
