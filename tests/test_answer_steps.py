"""A procedure a report names in lower case, then the step a question asks for by its place.

"Which procedure was followed after the boiler fault at Kelso House, and what is its first step?": the report
says "following the boiler lockout procedure", which names the found document "procedure boiler lockout" by the
words of its title; its first step is item 1 of its numbered list, which shares no word with the question. A
folder written here is ingested into the default embedded index and asked through the graph with the built-in
answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.steps import asked_step, numbered_items, step_sentence
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
