"""What the procedure an incident was handled under says, asked in the words people use: "the procedure we
followed", "the procedure the team used". The report names the procedure by its code; the answer comes from that
procedure, not from the report's own lines (its author is no answer to "who did the procedure say makes the call").
A follow-up asking for "the person that gets called" means the one the answer says is called, not the first role it
names. A folder written here is ingested into the default embedded index and asked through the graph with the
built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from tests.support.folders import Folder, ask, ingested, write_files

REPORT = """# Incident report: caustic cleaner spilt in the cellar, 14 May 2026

Brewery: Harland Brewing, Wick Lane
Procedure followed: HB-P02 (Spill of cleaning chemicals)
Report written by: Colm Dwyer, Cellar Manager, 15 May 2026

At about 10:40 a drum of caustic cleaner split while it was being moved on a pallet truck, and roughly
20 litres ran across the cellar floor towards the drain. The cellar was cleared, the drain was covered and the
spill was soaked up with the absorbent from the spill kit. Nobody was hurt.
"""
PROCEDURE = """# HB-P02: Spill of cleaning chemicals

Harland Brewing safety procedure.

## 1. Purpose
To keep people safe and keep cleaning chemicals out of the drains when a container leaks or splits.

## 2. What to do
2.1 Stop work nearby and keep everybody at least five metres from the spill.
2.2 Cover the nearest drain with a drain mat from the spill kit.
2.3 If more than 5 litres have spilt, the Shift Supervisor phones the Safety Officer within 30 minutes.
2.4 Soak up the spill with the absorbent from the kit and put it in a yellow waste sack.
2.5 The Shift Supervisor records the spill in the safety log before the end of the shift.
2.6 The Safety Officer is told about every spill, however small, at the weekly safety meeting.
"""
OTHER_PROCEDURE = """# HB-P01: Fire in the brewhouse

Harland Brewing safety procedure.

## 2. What to do
2.1 Raise the alarm at the nearest call point.
2.2 The Duty Brewer phones the fire service straight away and meets them at the gate within 10 minutes.
"""
STAFF = """name,job_title,site
Colm Dwyer,Cellar Manager,Wick Lane
Petra Lund,Shift Supervisor,Wick Lane
Jonah Okeke,Safety Officer,Wick Lane
Ines Moreau,Duty Brewer,Wick Lane
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("brewery"), {
        "safety/incidents/2026-05-14-cellar-caustic-spill.md": REPORT,
        "safety/procedures/HB-P02-chemical-spill.md": PROCEDURE,
        "safety/procedures/HB-P01-brewhouse-fire.md": OTHER_PROCEDURE,
        "people/staff.csv": STAFF})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_procedure_we_followed_is_the_one_the_report_names(folder: Folder) -> None:
    question = ("When the caustic cleaner went all over the cellar floor in May, what did the procedure we followed "
                "say about phoning for help: how quickly, and who makes the call?")
    answer = str(ask(folder, question)["answer"])
    assert "30 minutes" in answer and "Shift Supervisor" in answer, answer
    assert "10 minutes" not in answer and "Colm Dwyer" not in answer, answer


def test_how_quickly_asks_for_a_length_of_time(folder: Folder) -> None:
    question = ("After the cellar spill in May, how quickly did the procedure the team used say the Safety Officer had "
                "to be told about a big spill?")
    answer = str(ask(folder, question)["answer"])
    assert "within 30 minutes" in answer, answer


def test_the_person_that_gets_called_is_the_one_the_answer_says_is_called(folder: Folder) -> None:
    saver = InMemorySaver()
    first = str(ask(folder, "Under the spill procedure, what has to happen when more than 5 litres have spilt?",
                    thread_id="spill", checkpointer=saver)["answer"])
    assert "Shift Supervisor phones the Safety Officer" in first, first
    follow = str(ask(folder, "And who is the person that gets phoned? I need their name.", thread_id="spill",
                     checkpointer=saver)["answer"])
    assert "Jonah Okeke" in follow and "Petra Lund" not in follow, follow
