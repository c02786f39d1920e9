"""A name that only a document's heading gives is no bridge when the question names that document.

"When does the Brightside cleaning deal come to an end, and does it roll over by itself?" finds the agreement whose
heading is "Cleaning Services Agreement - Brightside Commercial Cleaning Services Ltd"; the words "Cleaning Services
Agreement" in that heading are not a link to another document but the name of the one asked about, so the parts are
answered from it side by side, not with the heading alone. A folder written here is ingested into the default
embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from tests.support.folders import Folder, ask, ingested, write_files

BRIGHTSIDE = """# Cleaning Services Agreement - Brightside Commercial Cleaning Services Ltd

This Agreement is made on 3 March 2025 between Harwick Foods Ltd (the "Client") and the Contractor named above.

The Contractor cleans the offices, canteen and changing rooms of the Harwick bakery every weekday evening.

This Agreement runs until 30 September 2027 and then renews for successive periods of one year unless either party
gives written notice at least 90 days before the end of the current period.

The Contractor's prices are reviewed once a year in April against the national living wage.
"""
SPARKLE = """# Cleaning Services Agreement - Sparkle Facilities Management Services Ltd

This Agreement is made on 9 June 2024 between Harwick Foods Ltd (the "Client") and the Contractor named above.

The Contractor cleans the windows of the Harwick bakery and the warehouse once a month.

This Agreement runs until 31 May 2026 and ends then unless both parties sign a renewal.
"""
ORDERS = """# Cleaning orders 2026

Order CL-118 was placed for a deep clean of the canteen on 14 February 2026.
Order CL-121 was placed for the warehouse skylights on 2 April 2026.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("cleaning"), {
        "legal/brightside-agreement.md": BRIGHTSIDE, "legal/sparkle-agreement.md": SPARKLE,
        "legal/cleaning-orders-2026.md": ORDERS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_parts_asked_of_a_named_document_are_answered_from_it(folder: Folder) -> None:
    question = "When does the Brightside cleaning deal actually come to an end, and does it just roll over by itself?"
    answer = str(ask(folder, question)["answer"])
    assert not is_not_found(answer) and "30 September 2027" in answer, answer
    assert not answer.startswith("Cleaning Services Agreement"), answer  # a heading answers no part


def test_prices_of_a_named_document_side_by_side(folder: Folder) -> None:
    question = ("Does Brightside ever get to put its prices up? When are they looked at again, and what are they "
                "tied to?")
    answer = str(ask(folder, question)["answer"])
    assert "April" in answer and "living wage" in answer, answer
