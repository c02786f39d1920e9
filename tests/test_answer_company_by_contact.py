"""A company named by the person listed for it: "Ivo Brandt's company: when does our contract with them end?", "the firm
Dana Pike works for"; a unit named by its owner the same way ("Ivo's cost centre", a first name alone). The row that
lists the person (a supplier scorecard's Contact) names the company, which answers the first part and is followed to
its own contract. When the first search brings the contracts and not that row, the person's name is searched for
alone. A folder written here is ingested into the default embedded index and asked through the graph with the
built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_core.messages import HumanMessage

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.builtin import BuiltinAnswerPolicy
from hopgraph.policies.answer.evidence import Passage, split_question
from hopgraph.policies.answer.records import owner_named, owner_row
from tests.support.folders import Folder, ask, ingested, write_files
from tests.support.search_rounds import searched

SCORECARD = """Haulier,Lane,On-time rate Q3,Damage claims,Contact
Ferrow Transport,Leeds - Hull,92%,1,Dana Pike
Kettle Logistics,Hull - York,100%,4,Ivo Brandt
Marsh Lane Carriers,York - Leeds,97%,0,Ruth Amble
"""
# The same person owns a cost centre: "his company" is the haulier's row, "his cost centre" the budget's.
BUDGET = """Cost centre,Budget 2026 EUR,Forecast EUR,Owner
Fleet,200000,214500,Ivo Brandt
Warehouse,150000,149000,Ruth Amble
"""
CONTRACTS = {
    "legal/ferrow-contract.md": """# Haulage Contract - Ferrow Transport Ltd

Ferrow Transport carries our pallets between Leeds and Hull. A late delivery costs the haulier 2 percent of the
load's value per day, up to 10 percent.

This Contract runs until 30 June 2027 and then renews for one year at a time.
""",
    "legal/kettle-contract.md": """# Haulage Contract - Kettle Logistics Ltd

Kettle Logistics carries our pallets between Hull and York. A late delivery costs the haulier 1 percent of the
load's value per day, up to 6 percent.

This Contract ends on 31 March 2028 and does not renew by itself.
""",
    "legal/marsh-lane-contract.md": """# Haulage Contract - Marsh Lane Carriers

Marsh Lane Carriers carries our pallets between York and Leeds. A late delivery costs the haulier 3 percent of the
load's value per day, up to 12 percent.

This Contract runs until 31 December 2026.
""",
    # Contracts that share the later part's words: the first search for a question about a contract brings them.
    **{f"legal/{name.lower()}-contract.md": f"""# Service Contract - {name} Ltd

{name} provides {what} for our Hull warehouse. A late visit costs {name} 1 percent of the monthly fee per day. This
Contract ends on {end} and does not renew by itself.
""" for name, what, end in [
        ("Brightwell", "cleaning", "30 April 2027"), ("Oakham", "security guards", "31 May 2027"),
        ("Pennine", "forklift servicing", "31 August 2027"), ("Coldline", "freezer maintenance", "30 November 2027"),
        ("Harbour", "waste collection", "31 January 2028"), ("Ridgeway", "canteen catering", "30 September 2027")]},
    # A contract that shares more of the question's words than the row does, and names a company of its own.
    "legal/oakham-contract.md": """# Service Contract - Oakham Ltd

Our contract with the company Oakham Security Services, who works for us at the Hull warehouse, ends on 31 May 2027.
""",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("hauliers"), {"ops/haulier-scorecard.csv": SCORECARD,
                                                                           "finance/budget.csv": BUDGET, **CONTRACTS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


@pytest.mark.parametrize(("question", "person"), [
    ("Ivo Brandt's company: when does our contract with them end?", "Ivo Brandt"),
    ("When does our contract with the firm Dana Pike works for end?", "Dana Pike"),
    ("Which haulier does Ruth Amble's business run?", "Ruth Amble"),
    ("Ivo's cost centre: what's its forecast?", "Ivo"),
])
def test_a_company_named_by_its_person(question: str, person: str) -> None:
    found = owner_named(question)
    assert found is not None and found[0] == person


@pytest.mark.parametrize("question", [
    "When does our contract with Kettle Logistics end?",
    "Ivo Brandt's contract: when does it end?",  # a contract, not a company, is what he has
    "what company does ivo kettle work for?",  # no name written as one
])
def test_no_company_named_by_a_person(question: str) -> None:
    assert owner_named(question) is None


def test_the_company_by_its_person_is_a_part_of_its_own() -> None:
    assert split_question("Ivo Brandt's company: when does our contract with them end?") == [
        "Ivo Brandt's company", "when does our contract with them end"]
    assert split_question("Ivo Brandt's contract: when does it end?") == ["Ivo Brandt's contract: when does it end"]


def test_the_row_that_lists_the_person_names_the_company() -> None:
    scorecard = Passage(ref="s", title="haulier-scorecard", text=SCORECARD, rank=1, round=1, kind="csv",
                        source="haulier-scorecard.csv")
    found = owner_row("Ivo Brandt's company", [scorecard])
    assert found is not None and found[1] == "Kettle Logistics" and "Ivo Brandt" in found[0][1]
    # A person who is the row's own name names no company of theirs.
    people = Passage(ref="p", title="staff", text="Name,Team,Phone\nIvo Brandt,Drivers,0113 496 0000\n"
                     "Dana Pike,Office,0113 496 0001\n", rank=1, round=1, kind="csv", source="staff.csv")
    assert owner_row("Ivo Brandt's company", [people]) is None
    assert owner_row("Sam Tull's company", [scorecard]) is None
    # Listed in two tables: the one whose first column is of the kind asked.
    budget = Passage(ref="b", title="budget", text=BUDGET, rank=2, round=1, kind="csv", source="budget.csv")
    company = owner_row("Ivo Brandt's company", [budget, scorecard])
    assert company is not None and company[1] == "Kettle Logistics"
    unit = owner_row("Ivo's cost centre: what is its forecast?", [scorecard, budget])
    assert unit is not None and unit[1] == "Fleet"
    assert owner_row("Ivo's company", [budget]) is None  # a cost centre is no company


@pytest.mark.parametrize(("question", "company", "fact"), [
    ("Ivo Brandt's company: when does our contract with them end?", "Kettle Logistics", "31 March 2028"),
    ("Dana Pike's firm: what do they owe us for a late delivery?", "Ferrow Transport", "2 percent"),
    ("When does our contract with the company Ruth Amble works for end?", "Marsh Lane Carriers", "31 December 2026"),
])
def test_the_company_of_the_person_leads_to_its_contract(folder: Folder, question: str, company: str,
                                                         fact: str) -> None:
    result = ask(folder, question)
    answer = str(result["answer"])
    assert not is_not_found(answer), answer
    assert company in answer and fact in answer, answer


def test_the_person_is_searched_for_alone_when_no_row_lists_them() -> None:
    question = "Ivo Brandt's company owes us a late fee. Can we take it off the next invoice?"
    # The first search brought a contract about late fees, and no row that lists Ivo Brandt.
    contract = {"ref": "S1", "title": "Service Contract - Oakham Ltd", "page": None, "container": "legal",
                "kind": "md", "text": "A late visit costs Oakham 1 percent of the monthly fee per day.", "score": 1.0,
                "doc_id": "oakham-contract.md"}
    messages = [HumanMessage(content=question), *searched(question, "c1", [contract])]
    reply = BuiltinAnswerPolicy().invoke(messages)
    assert [c["args"].get("query") for c in reply.tool_calls] == ["Ivo Brandt"]
    # His name found the scorecard: its row's company is followed to what the second part asks.
    row = {"ref": "S2", "title": "haulier-scorecard", "page": None, "container": "ops", "kind": "csv",
           "text": SCORECARD, "score": 1.0, "doc_id": "haulier-scorecard.csv"}
    reply = BuiltinAnswerPolicy().invoke([*messages, *searched("Ivo Brandt", "c2", [row])])
    queries = [str(c["args"].get("query")) for c in reply.tool_calls]
    assert len(queries) == 1 and queries[0].startswith("Kettle Logistics"), queries


def test_the_row_that_lists_the_person_wins_over_other_names_beside_their_name() -> None:
    question = "Ivo Brandt's company: when does our contract with them end?"
    row = {"ref": "S1", "title": "haulier-scorecard", "page": None, "container": "ops", "kind": "csv",
           "text": SCORECARD, "score": 1.0, "doc_id": "haulier-scorecard.csv"}
    # A sentence that says more of the first part's words than the row, about a company that is not his.
    car = {"ref": "S2", "title": "Fleet notes", "page": None, "container": "ops", "kind": "md",
           "text": "Ivo Brandt's company car is leased from Fleetline Leasing Group.", "score": 0.9,
           "doc_id": "fleet-notes.md"}
    reply = BuiltinAnswerPolicy().invoke([HumanMessage(content=question), *searched(question, "c1", [car, row])])
    queries = [str(c["args"].get("query")) for c in reply.tool_calls]
    assert len(queries) == 1 and queries[0].startswith("Kettle Logistics"), queries


def test_the_cost_centre_of_its_owner(folder: Folder) -> None:
    answer = str(ask(folder, "Ivo's cost centre: what's it forecast to finish the year at?")["answer"])
    assert "Fleet" in answer and "214500" in answer, answer
