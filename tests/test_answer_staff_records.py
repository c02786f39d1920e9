"""People and places a turn names loosely, found in a list of full names or a follow-up's "there".

- Minutes say "Sunita will redo the audit": the staff list's one "Sunita ..." row is her record, so "what is
  that person's job title?" is answered from it.
- "Where is the dental X-ray unit?" then "And who's the head nurse there?": "there" is the place the answer gave,
  and of that site's staff rows the one whose role the question names whole ("Head Nurse", not "Deputy Head
  Nurse").

A folder written here is ingested into the default embedded index and asked through the graph with the built-in
answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.records import records_of
from hopgraph.policies.answer.thread import thread_subject
from tests.support.folders import Folder, ask, csv_text, ingested, write_files

STAFF = csv_text(["name", "job_title", "base"], [
    ["Sunita Varma", "Registered Veterinary Nurse", "Kestrel Road Surgery"],
    ["Leah Thornbury", "Deputy Head Nurse", "Orchard Vale Clinic"],
    ["Nadia Kowalczyk", "Head Nurse", "Orchard Vale Clinic"],
    ["Bethan Crewe", "Head Nurse", "Kestrel Road Surgery"],
    ["Tobias Lindqvist", "Clinical Lead", "Orchard Vale Clinic"],
])

EQUIPMENT = csv_text(["asset", "item", "site", "room"], [
    ["EQ-003", "Dental X-ray unit", "Orchard Vale Clinic", "Dental suite"],
    ["EQ-009", "Autoclave", "Kestrel Road Surgery", "Prep room"],
])

MINUTES = """# Clinical leads meeting, 13 May 2026

## Sharps bins

Two bins at one clinic were found over the fill line in April. Because the audit is only useful if everyone does
it the same way, Sunita will redo the sharps bin audit at all three clinics and report in September.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("clinics"), {
        "clinics/staff.csv": STAFF, "clinics/equipment.csv": EQUIPMENT, "clinics/minutes-2026-05-13.md": MINUTES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def _staff() -> Passage:
    return Passage(ref="S1", title="staff", text=STAFF, rank=1, round=1, kind="table", source="clinics/staff.csv")


def test_a_first_name_finds_the_one_full_name_it_starts() -> None:
    found = records_of("Sunita", [_staff()])
    assert len(found) == 1 and "Sunita Varma" in found[0][0][1]
    # Two people of one first name, or a word that starts no name: no record.
    two = Passage(ref="S2", title="staff", text=STAFF + "Sunita Okafor,Receptionist,Kestrel Road Surgery\n", rank=1,
                  round=1, kind="table", source="clinics/staff.csv")
    assert records_of("Sunita", [two]) == []
    assert records_of("Nurse", [_staff()]) == []


def test_there_points_at_the_place_the_answer_gave() -> None:
    history = [("Where do we keep the dental X-ray unit?",
                "asset: EQ-003; item: Dental X-ray unit; site: Orchard Vale Clinic; room: Dental suite [1].")]
    assert thread_subject(history, "And who's the head nurse there?") == "Orchard Vale Clinic"


def test_the_person_the_minutes_name_by_first_name(folder: Folder) -> None:
    answer = str(ask(folder, "At the May meeting someone was given the job of redoing the sharps bin audit. "
                             "What is that person's job title?")["answer"])
    assert "Sunita" in answer and "Registered Veterinary Nurse" in answer, answer


def test_the_head_nurse_there(folder: Folder) -> None:
    saver = InMemorySaver()
    first = str(ask(folder, "Where do we keep the dental X-ray unit?", thread_id="t", checkpointer=saver)["answer"])
    assert "Orchard Vale Clinic" in first, first
    answer = str(ask(folder, "And who's the head nurse there?", thread_id="t", checkpointer=saver)["answer"])
    assert "Nadia Kowalczyk" in answer, answer
    assert "Leah Thornbury" not in answer and "Bethan Crewe" not in answer, answer
