"""A question answered from the procedure an incident report cites.

"For the pallet that fell in the cold store in May, how many trained staff does the procedure named in the report
say must re-stack it, and how long must the aisle stay closed?": the report says which procedure was followed by
its code ("Procedure followed: WH-P07") and tells what happened that day ("the aisle was closed for 40 minutes");
the question asks what the procedure says, so its sentences win over the report's. A folder written here (with a
second procedure and routine notes) is ingested into the default embedded index and asked through the graph with
the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.steps import cited_documents
from tests.support.folders import Folder, ask, ingested, write_files

REPORT = """# Incident report IR-2026-14: pallet fell from racking in the cold store

- **Date:** 14 May 2026
- **Procedure followed:** WH-P07

A pallet of frozen peas slid off the third level of racking in aisle 4 when the reach truck lowered the one above
it. Nobody was hurt. The aisle was closed for 40 minutes while the cartons were cleared and the racking was checked.
"""
PROCEDURE = """WAREHOUSE PROCEDURE WH-P07: FALLEN OR DAMAGED LOAD IN THE RACKING
Version 2, issued March 2025.

STEPS

1. Stop all truck movements in the aisle and put the barrier chains across both ends.

2. Check nobody is trapped or hurt. Call the shift supervisor.

3. Re-stacking needs at least three trained staff: one on the reach truck and two on the ground guiding it.

4. Throw away any carton that is crushed or has thawed.

5. Keep the aisle closed until the shift supervisor has signed the racking check sheet.
"""
OTHER = """WAREHOUSE PROCEDURE WH-P03: FIRE ALARM IN THE COLD STORE
Version 4, issued January 2026.

STEPS

1. Leave the cold store by the nearest door and close it behind you.

2. Two fire wardens check the aisles; the store stays closed for at least 30 minutes after the all-clear.
"""
NOTES = {f"store/routine/{i:02d}-shift-note.md":
         f"# Shift note {i}\n\nCold store aisle {i % 6 + 1} checked at the start of the shift. Reach truck charged; "
         f"racking labels clean.\n" for i in range(6)}
QUESTION = ("For the pallet that fell in the cold store in May, how many trained staff does the procedure named in "
            "the report say must re-stack it, and how long must the aisle stay closed?")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("warehouse"), {
        "store/incidents/IR-2026-14-fallen-pallet.md": REPORT, "store/procedures/WH-P07-fallen-load.txt": PROCEDURE,
        "store/procedures/WH-P03-fire-alarm.txt": OTHER, **NOTES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_documents_a_report_cites() -> None:
    report = Passage(ref="S1", title="Incident report IR-2026-14: pallet fell from racking in the cold store",
                     text=REPORT, rank=1, round=1)
    cited = Passage(ref="S2", title="WH P07 fallen load", text=PROCEDURE, rank=2, round=1)
    other = Passage(ref="S3", title="WH P03 fire alarm", text=OTHER, rank=3, round=1)
    assert cited_documents(QUESTION, [report, cited, other]) == {"WH P07 fallen load"}
    assert cited_documents("What does the procedure the incident report cites say to do first?",
                           [report, other, cited]) == {"WH P07 fallen load"}
    # Without words asking for the cited document, or without that document found: none.
    assert cited_documents("How long was the aisle closed after the pallet fell?", [report, cited]) == set()
    assert cited_documents(QUESTION, [report, other]) == set()


def test_the_cited_procedure_answers_what_it_says(folder: Folder) -> None:
    answer = str(ask(folder, QUESTION)["answer"])
    assert "at least three trained staff" in answer, answer
    assert "until the shift supervisor has signed" in answer, answer
    assert "40 minutes" not in answer and "30 minutes" not in answer, answer


def test_every_part_asked_under_the_cited_procedure(folder: Folder) -> None:
    # The story comes first and the question asks two things under the procedure: both come from the procedure,
    # and no hop follows a place the story names.
    question = ("When the pallet fell in the cold store in May, the aisle was closed for a while. Under the procedure "
                "named in the report, how many trained staff must re-stack the load, and what happens to a carton "
                "that has thawed?")
    result = ask(folder, question)
    answer = str(result["answer"])
    assert "at least three trained staff" in answer, answer
    assert "Throw away any carton" in answer, answer
    assert {c["source"] for c in result["citations"]} == {"store/procedures/WH-P07-fallen-load.txt"}, answer
