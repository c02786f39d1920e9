"""A procedure a report names in lower case, then the step a question asks for by its place.

Also a follow-up: "Has a dog got loose at one of our clinics?" answered with the incident report, then "What's
the first thing the procedure it mentions tells staff to do?": the report names the procedure by its code
("FVG-P03"), which the policy searches for, and the answer is that procedure's step 1.

"Which procedure was followed after the boiler fault at Kelso House, and what is its first step?": the report
says "following the boiler lockout procedure", which names the found document "procedure boiler lockout" by the
words of its title; its first step is item 1 of its numbered list, which shares no word with the question. A
folder written here is ingested into the default embedded index and asked through the graph with the built-in
answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.steps import asked_step, named_procedure, numbered_items, step_sentence
from tests.support.folders import Folder, ask, ingested, write_files

REPORT = """# Fault KH-2026-03: boiler locked out at Kelso House

Date: 3 March 2026. The main boiler at Kelso House locked out twice overnight and the radiators went cold. The
caretaker cleared it following the boiler lockout procedure, and the gas engineer replaced the ignition lead
on 5 March.
"""

PROCEDURE = """Procedure: boiler lockout

1. Turn the boiler's room thermostat down and wait five minutes.
2. Look at the fault code on the display and write it in the log.
3. Press the reset button once; if it locks out again, call the gas engineer.
4. Check the radiators are warm within an hour.
"""

NOTE = """# Kelso House notes

Kelso House has twelve flats over three floors. The boiler room is in the basement, next to the bike store.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("kelso"), {
        "estates/fault-2026-03-boiler.md": REPORT, "estates/procedure-boiler-lockout.txt": PROCEDURE,
        "estates/kelso-house-notes.md": NOTE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_step_a_question_asks_for() -> None:
    assert asked_step("and what is its first step?") == 1
    assert asked_step("What is the third step of it?") == 3
    assert asked_step("What is the last step?") == -1
    assert asked_step("What does step 2 say?") == 2
    assert asked_step("Who wrote the procedure?") is None
    items = numbered_items("Intro\n\n1. One thing.\n2. Another thing,\n   wrapped on.\n3. Last.\n")
    assert items == [(1, "One thing."), (2, "Another thing, wrapped on."), (3, "Last.")]
    whole = Passage(ref="S1", title="p", text=PROCEDURE, rank=1, round=1)
    # A chunk that starts in the middle of a list is no list to count steps in.
    middle = Passage(ref="S2", title="q", text="3. Press reset.\n4. Check radiators.\n", rank=1, round=1)
    assert step_sentence("what is its first step?", [middle, whole]) == (
        "Turn the boiler's room thermostat down and wait five minutes.", whole)
    assert step_sentence("what is the last step?", [whole]) == (
        "Check the radiators are warm within an hour.", whole)
    assert step_sentence("what is the ninth step?", [whole]) is None


def test_the_procedure_a_report_names_then_its_first_step(folder: Folder) -> None:
    question = "Which procedure was followed after the boiler fault at Kelso House, and what is its first step?"
    answer = str(ask(folder, question)["answer"])
    assert "boiler lockout procedure" in answer, answer
    assert "Turn the boiler's room thermostat down" in answer, answer
    assert "Press the reset button" not in answer


LOOSE_REPORT = """# Incident report IR-2026-12: dog loose in the car park

**Clinic:** Orchard Vale Clinic
**Date:** 4 June 2026
**Procedure followed:** FVG-P03 (animal loose on the premises)

A terrier slipped its collar at the front desk and ran into the car park. It was caught by the bins after ten
minutes and was not hurt.
"""

LOOSE_PROCEDURE = """FVG-P03: animal loose on the premises

1. Call out "animal loose" so everyone hears, then close the external doors and the car park gate.
2. Keep other animals in their rooms until the loose animal is caught.
3. Tell the owner and record the escape on an incident report.
"""

AUTOCLAVE_REPORT = """# Incident report IR-2026-15: autoclave failure

**Clinic:** Kestrel Road Surgery
**Procedure followed:** FVG-P04 (autoclave failure)

The autoclave stopped mid-cycle and the load was sterilised again the next day.
"""


@pytest.fixture(scope="module")
def clinics(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("clinics"), {
        "clinics/IR-2026-12-dog-loose.md": LOOSE_REPORT, "clinics/FVG-P03-animal-loose.txt": LOOSE_PROCEDURE,
        "clinics/IR-2026-15-autoclave.md": AUTOCLAVE_REPORT})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_procedure_a_report_names_by_its_code() -> None:
    assert asked_step("What's the first thing the procedure tells staff to do?") == 1
    report = Passage(ref="S1", title="Incident report IR-2026-12", text=LOOSE_REPORT, rank=1, round=1)
    found = named_procedure("What's the first thing the procedure it mentions tells staff to do?", "IR-2026-12",
                            [report])
    assert found is not None and found[0] == "FVG-P03" and found[2] is report
    # No step asked for, or no thread subject: no procedure to follow.
    assert named_procedure("Who reported it?", "IR-2026-12", [report]) is None
    assert named_procedure("What's the first thing the procedure tells staff to do?", "", [report]) is None


def test_a_follow_up_asks_for_a_step_of_the_procedure_the_report_names(clinics: Folder) -> None:
    saver = InMemorySaver()
    first = str(ask(clinics, "Has a dog got loose at one of our clinics this year?", thread_id="t",
                    checkpointer=saver)["answer"])
    assert "FVG-P03" in first or "IR-2026-12" in first, first
    answer = str(ask(clinics, "What's the first thing the procedure it mentions tells staff to do?", thread_id="t",
                     checkpointer=saver)["answer"])
    assert "close the external doors and the car park gate" in answer, answer
    assert "Keep other animals" not in answer
