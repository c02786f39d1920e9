"""A statement that describes someone, then a question that points back at them; and a name's record in a list.

"At the May board meeting somebody was asked to renew the fire certificate. What's that person's job title?" is
two parts: the statement finds the person (the bridge), the question asks for a field of that person's record in
the staff list, by a word the list does not use ("job title" for its ``role`` column). A folder written here
(board minutes, a staff list, a site note) is ingested into the default embedded index and asked through the graph
with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage, split_question
from hopgraph.policies.answer.records import asked_field, record_answer, records_of
from tests.support.folders import Folder, ask, csv_text, ingested, write_files

MINUTES = """# Board meeting, 12 May 2026

Held at Wharfside House, 14:00-15:30. Present: Nadia Okafor (chair), Pieter Vos, Lucia Brandt, Emeka Hale.

## 1. Fire safety

The fire certificate for Wharfside House runs out in August. **Action:** Lucia Brandt to renew the fire
certificate with the council before the end of June.

## 2. Car park

The resurfacing is booked for the second week of July. Pieter Vos will tell the tenants.
"""

STAFF = [
    ("P01", "Nadia Okafor", "Managing Director", "Wharfside House"),
    ("P02", "Pieter Vos", "Tenant Liaison Officer", "Wharfside House"),
    ("P03", "Lucia Brandt", "Compliance Manager", "Quayside Annexe"),
    ("P04", "Emeka Hale", "Finance Officer", "Wharfside House"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("wharfside"), {
        "office/board-2026-05-12.md": MINUTES,
        "office/staff.csv": csv_text(["staff_id", "name", "role", "base"], STAFF),
        "office/site-note.md": ("# Site note\n\nWharfside House has four floors. The Quayside Annexe holds the "
                                "archive and two meeting rooms.\n")})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_statement_then_a_question_pointing_back_is_two_parts() -> None:
    assert split_question("Somebody was asked to renew the certificate. What's that person's job title?") == [
        "Somebody was asked to renew the certificate", "What's that person's job title"]
    assert split_question("The St. Louis team won the cup. Who coached them?") == [
        "The St. Louis team won the cup", "Who coached them"]
    # A question that points back at nothing, or a first sentence that is itself a question, stays as it was.
    assert split_question("I lost a book. Which form do I fill in?") == ["I lost a book. Which form do I fill in"]
    assert split_question("Who chaired it? Where was that meeting held?") == [
        "Who chaired it? Where was that meeting held"]


def _staff_passage() -> Passage:
    text = "\n\n".join(f"staff_id: {s}\nname: {n}\nrole: {r}\nbase: {b}" for s, n, r, b in STAFF)
    return Passage(ref="S1", title="staff", text=text, rank=1, round=1, kind="csv", source="staff.csv")


def test_a_name_has_a_record_where_one_row_carries_it() -> None:
    passages = [_staff_passage()]
    (cells, row, _), column = records_of("Lucia Brandt", passages)[0]
    assert column == "name" and cells["role"] == "Compliance Manager"
    # Many rows of a base: no one record of it.
    assert records_of("Wharfside House", passages) == []
    # The field asked by a word of its header, or by meaning when no header shares one.
    assert asked_field("Where is her base?", cells, column) == "base"
    assert asked_field("What's that person's job title?", cells, column) == "role"
    # A question asking for a place or a date takes a field that holds one, judged with its header.
    site = {"Site": "Quayside Annexe", "Town": "Porthcove", "Opened": "2019-03-04", "Manager": "Lucia Brandt"}
    assert asked_field("Which town is it in?", site, "Site") == "Town"
    assert asked_field("When did it open?", site, "Site") == "Opened"
    assert asked_field("By when must we give notice?", {"Supplier": "Vale Print", "Contact": "Ada Ross"},
                       "Supplier") is None
    found = record_answer("What's that person's job title?", "Lucia Brandt", passages)
    assert found is not None and found[1] == row
    assert record_answer("What's that person's job title?", "Nobody Here", passages) is None


def test_the_person_described_then_their_record(folder: Folder) -> None:
    question = ("At the May board meeting somebody was asked to renew the fire certificate. "
                "What's that person's job title?")
    answer = str(ask(folder, question)["answer"])
    assert "Lucia Brandt" in answer and "Compliance Manager" in answer, answer
    assert "Finance Officer" not in answer and "Tenant Liaison Officer" not in answer


def test_a_record_reached_through_a_name_another_record_gives() -> None:
    vehicles = Passage(ref="S1", title="vehicles", kind="csv", source="vehicles.csv", rank=1, round=1,
                       text="asset: V-7\nmake: Iveco Daily\nsite: Quayside Annexe\n\n"
                            "asset: V-9\nmake: Ford Transit\nsite: Wharfside House")
    sites = Passage(ref="S2", title="sites", kind="md", source="sites.md", rank=2, round=1,
                    text="| Site | Town | Manager |\n|---|---|---|\n| Quayside Annexe | Porthcove | Lucia Brandt |\n"
                         "| Wharfside House | Kenmare | Nadia Okafor |")
    found = record_answer("in which town is it kept?", "V-7", [vehicles, sites])
    assert found is not None and found[1].startswith("Site: Quayside Annexe; Town: Porthcove"), found
    # One hop only: the vehicle's own row, whose site is the field closest in meaning (no header says "location").
    own = record_answer("at which location is it kept?", "V-7", [vehicles, sites], hops=1)
    assert own is not None and own[1].startswith("asset: V-7")

