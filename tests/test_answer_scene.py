"""Questions that open with a clause setting the scene, and "how often" / "how long" answers.

"While the lift was stuck, how often should the warden have called the control room?" asks one thing: the
opening clause says when, it is not a part of its own. A folder written here (an incident report that names the
procedure followed, the procedure with its steps, a note) is ingested into the default embedded index and asked
through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hopgraph.policies.answer.evidence import split_question
from hopgraph.policies.answer.types import AMOUNT, DATE, PERSON, asked_kind, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

INCIDENT = """# Incident report IR-204: passenger lift stuck at Wharf House

**Date:** 12 March 2026, 09:40
**Site:** Wharf House
**Reported by:** Lena Ostrova (Building Warden)

The passenger lift stopped between the second and third floors with two visitors inside. Lena followed
BW-07, Lift Entrapment, and rang the lift contractor at 09:52. The engineer arrived at 10:35 and freed the
visitors at 10:41. Nobody was hurt.
"""

PROCEDURE = """Procedure BW-07: Lift Entrapment
Version 3, reviewed January 2025. Owner: Facilities Manager.

Steps
1. Speak to the people inside through the lift intercom and tell them help is coming.
2. Ring the lift contractor on 01632 960 880 and give the lift number.
3. Switch the lift off at the motor room isolator, wait 3 minutes, then switch it back on once.
4. While the people are inside, call the control room every 15 minutes with an update.
5. Never try to open the lift doors yourself.
"""

NOTE = """# Wharf House notes

The lift was serviced in February 2026 and passed its inspection. The building has 4 floors and 2 lifts.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("wharf"), {
        "facilities/IR-204-lift-stuck.md": INCIDENT, "facilities/BW-07-lift-entrapment.txt": PROCEDURE,
        "facilities/wharf-house-notes.md": NOTE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_scene_setting_clause_is_not_a_part_of_its_own() -> None:
    assert split_question("While the lift was stuck, how often should the warden have called?") == [
        "How often should the warden have called, while the lift was stuck"]
    assert split_question("When the lift stopped, who did Lena ring?") == ["Who did Lena ring, when the lift stopped"]
    # "When" asking a question is still a part.
    assert split_question("When was the lift serviced, and who serviced it?") == [
        "When was the lift serviced", "who serviced it"]
    # A scene-setting clause after an opening phrase that asks nothing belongs to the question after it.
    assert split_question("Under that procedure, if the lift won't restart, how long should the warden wait, and "
                          "whom does she ring?") == [
        "How long should the warden wait, under that procedure, if the lift won't restart", "whom does she ring"]
    assert asked_kind("When the lift stopped, how long did the visitors wait?") == AMOUNT
    assert asked_kind("When was the lift serviced?") == DATE
    assert asked_kind("After the lift stopped, who rang the contractor?") == PERSON


def test_how_often_wants_a_frequency_and_how_long_a_length() -> None:
    often = "How often should the warden call the control room?"
    assert holds_kind("Call the control room every 15 minutes with an update.", AMOUNT, often)
    assert holds_kind("The boiler is checked twice a week.", AMOUNT, often)
    assert not holds_kind("Lena rang the lift contractor at 09:52.", AMOUNT, often)
    long = "How long should the lift stay switched off?"
    assert holds_kind("Switch it off, wait 3 minutes, then switch it back on.", AMOUNT, long)
    assert not holds_kind("The building has 4 floors and 2 lifts.", AMOUNT, long)
    # Other amounts still take any number the question does not give.
    assert holds_kind("The building has 4 floors.", AMOUNT, "How many floors does it have?")


def test_how_often_after_an_incident_is_answered_from_the_procedure_step(folder: Any) -> None:
    result = ask(folder, "While the visitors were stuck in the lift at Wharf House, how often should the warden "
                          "have been calling the control room?")
    assert result["exit_reason"] == "answered"
    assert "every 15 minutes" in result["answer"]
    assert "09:52" not in result["answer"]  # a clock time in the report is no frequency
    assert any(c["source"].endswith("BW-07-lift-entrapment.txt") for c in result["citations"])


def test_how_long_under_the_procedure_followed(folder: Any) -> None:
    result = ask(folder, "When the lift at Wharf House got stuck, how long should the warden have left it switched "
                          "off before turning it on again under the procedure she followed?")
    assert result["exit_reason"] == "answered"
    assert "wait 3 minutes" in result["answer"]
