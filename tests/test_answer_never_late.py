"""A row picked out by a perfect record: "which haulier delivered every load on time", "didn't miss a single
collection", "never late" ask for the row with the highest on-time figure, as "the most reliable" would.

The question may also say it as a statement before its question, in words the table does not use ("There was one
carrier that didn't miss a single pickup last quarter. When does our contract with them end?"), and the first search
may bring the contracts and not the table: the first part is then searched for on its own. The row then answers the
first part, not a note that shares its words about another haulier ("delivered 97 percent of loads on time"). A
folder written here is ingested into the default embedded index and asked through the graph with the built-in answer
policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.aggregate import asks_for_extreme
from tests.support.folders import Folder, ask, ingested, write_files

SCORECARD = """Haulier,Lane,On-time rate Q3,Damage claims,Contact
Ferrow Transport,Leeds - Hull,92%,1,Dana Ferrow
Kettle Logistics,Hull - York,100%,4,Ivo Kettle
Marsh Lane Carriers,York - Leeds,97%,0,Ruth Amble
"""
FERROW = """# Haulage Contract - Ferrow Transport Ltd

Ferrow Transport carries our pallets between Leeds and Hull. Ferrow confirms each collection the day before.

This Contract runs until 30 June 2027 and then renews for one year at a time unless either party gives three
months' notice.
"""
KETTLE = """# Haulage Contract - Kettle Logistics Ltd

Kettle Logistics carries our pallets between Hull and York. A collection missed by more than two hours is refunded
in full.

This Contract ends on 31 March 2028 and does not renew by itself.
"""
MARSH = """# Haulage Contract - Marsh Lane Carriers

Marsh Lane Carriers carries our pallets between York and Leeds. Marsh Lane runs a tail-lift van for the York shops.

This Contract runs until 31 December 2026.
"""

# A note that shares the first part's words about another haulier, and contracts that share the second part's.
REVIEW = """# Haulier review, 8 October 2026

Marsh Lane Carriers delivered 97 percent of loads on time in Q3 and had no damage claims, so the review recommends
keeping them on the York lane.
"""
OTHER_CONTRACTS = {
    f"legal/{name.lower()}-contract.md": f"""# Service Contract - {name} Ltd

{name} provides {what} for our Hull warehouse. This Contract ends on {end} and does not renew by itself. Either party
may end the contract early with three months' notice.
""" for name, what, end in [
        ("Brightwell", "cleaning", "30 April 2027"), ("Oakham", "security guards", "31 May 2027"),
        ("Pennine", "forklift servicing", "31 August 2027"), ("Coldline", "freezer maintenance", "30 November 2027"),
        ("Harbour", "waste collection", "31 January 2028"), ("Ridgeway", "canteen catering", "30 September 2027")]}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("hauliers"), {
        "ops/haulier-scorecard.csv": SCORECARD, "legal/ferrow-contract.md": FERROW,
        "legal/kettle-contract.md": KETTLE, "legal/marsh-lane-contract.md": MARSH, "ops/haulier-review.md": REVIEW,
        **OTHER_CONTRACTS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


@pytest.mark.parametrize("question", [
    "Which haulier delivered every load on time in Q3?",
    "Which haulier didn't miss a single collection?",
    "Who was never late last quarter?",
])
def test_a_perfect_record_asks_for_an_extreme(question: str) -> None:
    assert asks_for_extreme(question)


def test_an_ordinary_question_asks_for_no_extreme() -> None:
    assert not asks_for_extreme("Which haulier delivers to York on time for the shops?")


@pytest.mark.parametrize("question", [
    "Which haulier delivered every load on time in Q3, and when does our contract with it end?",
    "There was one carrier that didn't miss a single pickup last quarter. When does our contract with them end?",
])
def test_the_row_never_late_leads_to_its_contract(folder: Folder, question: str) -> None:
    answer = str(ask(folder, question)["answer"])
    assert not is_not_found(answer), answer
    assert "Kettle Logistics" in answer and "31 March 2028" in answer, answer
