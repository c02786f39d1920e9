"""A question in parts that asks "who else", and a follow-up that asks what else its document says.

- "... the deck crew ruled out a fault. Who runs that team, and who else is on it?": "who else" is not answered by the
  person already named, nor by the sentence that only names the team.
- "What does the office do now so it doesn't happen again?" after an answer quoting an incident's first sentence: the
  incident's sentence saying what is done now, not the one already given.

A folder written here is ingested into the default embedded index and asked through the graph with the built-in answer
policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from tests.support.folders import Folder, ask, ingested, write_files

CONTRACT = """# Freight Services Agreement - Keelby Haulage Ltd

This Agreement is made on 2 May 2025 between Corran Ferries Ltd and Keelby Haulage Ltd (the "Carrier").

1. Scope
The Carrier moves spare engine parts between the Corran yard and the Ardgour slipway.

2. Term
This Agreement has a fixed term of two years from signature and ends on 1 May 2027 unless the parties agree an
extension in writing.
"""
BUDGET = """cost_centre,budget_2026_gbp,actual_to_sep_gbp,owner
Freight,84000,61500,Alys Brennan
Deck crew,212000,160400,Rory Gillies
"""
ROSTER = """# Teams (autumn 2026)

The Deck team crews the ferry and looks after the ramps and the mooring lines. Rory Gillies leads it and Hamish
Boyd works with him.

The Engine team keeps the two ferries' engines running. It is led by Alys Brennan.
"""
DEFECT = """# Ramp defect report RD-2026-07

On 4 August the Corran ramp stuck half way for ten minutes. The deck crew ruled out a hydraulic fault: a stone had
jammed the hinge.
"""
INCIDENT = """# INC-2026-12: Tickets sold for a cancelled crossing

For one afternoon the booking office sold tickets for the 16:30 crossing after it had been cancelled, so 31
passengers were sent to the slipway for nothing. The office refunded all of them the next day. The office now
checks the cancellations board before every sale.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("ferries"), {
        "legal/keelby-freight-agreement.md": CONTRACT, "finance/budget-2026.csv": BUDGET,
        "ops/teams.md": ROSTER, "ops/ramp-defect-RD-2026-07.md": DEFECT,
        "ops/incidents/INC-2026-12-cancelled-crossing.md": INCIDENT})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_who_else_is_someone_not_named_yet(folder: Folder) -> None:
    question = ("The Corran ramp defect report says the deck crew ruled out a hydraulic fault. Who runs that team, and "
                "who else is on it?")
    answer = str(ask(folder, question)["answer"])
    assert "Rory Gillies" in answer and "Hamish Boyd" in answer, answer


def test_a_follow_up_gets_the_sentence_not_given_yet(folder: Folder) -> None:
    saver = InMemorySaver()
    first = str(ask(folder, "How many passengers were sent to the slipway for nothing when the booking office got it "
                            "wrong?", thread_id="tickets", checkpointer=saver)["answer"])
    assert "31" in first, first
    follow = str(ask(folder, "What does the office do now so it doesn't happen again?", thread_id="tickets",
                     checkpointer=saver)["answer"])
    assert "checks the cancellations board" in follow, follow
