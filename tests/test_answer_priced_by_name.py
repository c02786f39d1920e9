"""A price picked by a name the question gives: "What would five full pallets to Gdansk cost?" over a rate card saying
"Hull to Gdansk, full pallet: EUR 340" is 5 × 340 EUR, though the question shares only "Gdansk" with that line besides
the unit. One unit named in the singular ("one full pallet") is a quantity too, and "what's the damage", "what do we
pay" and "set us back" ask what something costs. A folder written here is ingested into the default embedded index and
asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.rates import asks_cost
from tests.support.folders import Folder, ask, ingested, write_files

RATE_CARD = """Freight rate card 2026

Hull to Rotterdam, full pallet: EUR 210, transit two days. Hull to Gdansk, full pallet: EUR 340, transit four
days. Hull to Antwerp, full pallet: EUR 230, transit two days. Express surcharge: 60 percent. Rates are valid from
1 July 2026 to 30 June 2027.
"""
NOTE = """# Shipping note

Pallets for the Baltic go out on Tuesdays. Book the collection by noon on Monday.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("freight"), {
        "legal/freight-rate-card-2026.txt": RATE_CARD, "legal/shipping-note.md": NOTE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_quantity_times_the_price_of_the_place_named(folder: Folder) -> None:
    answer = str(ask(folder, "What would five full pallets to Gdansk cost?")["answer"])
    assert not is_not_found(answer), answer
    assert "1,700" in answer and "EUR 340" in answer, answer


def test_with_the_surcharge_the_question_names(folder: Folder) -> None:
    question = "We need to rush two full pallets over to Gdansk as an express job. What would that cost?"
    answer = str(ask(folder, question)["answer"])
    assert "1,088" in answer, answer


@pytest.mark.parametrize("question", [
    "What's the damage if we send one full pallet to Gdansk by express?",
    "What will one full pallet to Gdansk by express set us back?",
])
def test_one_unit_in_the_singular_asked_in_other_words(folder: Folder, question: str) -> None:
    answer = str(ask(folder, question)["answer"])
    assert "544" in answer and "EUR 340" in answer, answer


@pytest.mark.parametrize(("question", "cost"), [
    ("What's the damage if we send one full pallet?", True),
    ("What do we pay for a full pallet to Gdansk?", True),
    ("What will it set us back?", True),
    ("What's the damage to the pallet?", False),  # the harm done, not a price
    ("What damage did the pallet take?", False),
    ("How much notice would we have to give?", False),  # an amount of time, not of money
    ("How much time do they have to pay?", False),
    ("How much do they charge per pallet?", True),
])
def test_wordings_that_ask_a_cost(question: str, cost: bool) -> None:
    assert asks_cost(question) is cost
