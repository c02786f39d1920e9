"""A price picked by a name the question gives: "What would five full pallets to Gdansk cost?" over a rate card
saying "Hull to Gdansk, full pallet: EUR 340" is 5 × 340 EUR, though the question shares only "Gdansk" with that
line besides the unit. A folder written here is ingested into the default embedded index and asked through the graph
with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
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
