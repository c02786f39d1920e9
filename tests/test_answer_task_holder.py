"""The person a meeting gave a task to, found in the minutes the question names by month, then in the staff list.

"At the March managers' meeting somebody was asked to retrain the front desk staff on lost property. What is that
person's job title, and which site are they based at?": the March minutes say "Hollis will retrain the reception
teams" (and "Who: Hollis" in the action table); the bridge is that person, not a job a policy names ("the Duty
Manager"), not a row of the staff list that shares "manager" with the question, not whom the June minutes name.
A folder written here is ingested into the default embedded index and asked through the graph with the built-in
answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.types import PLACE, holds_kind, is_personal
from hopgraph.tools.rewrite_query import is_follow_up
from tests.support.folders import Folder, ask, ingested, write_files

MARCH = """# Site managers' meeting, 9 March 2026

Present: Petra Lund (chair), Hollis Brandt, Soren Achebe, Ida Marsh.

## 1. Lost property

The February audit found that reception staff at two sites did not know where lost property is logged or how long
it is kept. Hollis will retrain the reception teams at all three sites on the lost property procedure before the
end of April.

## 2. Car park lighting

Soren reported two broken lamps in the Ferry Road car park. Soren to get a quote for LED replacements.

## Actions

| Action | Who | By |
|---|---|---|
| Retrain reception teams on the lost property procedure | Hollis | 30 April |
| Quote for car park LED lamps | Soren | 31 March |
| Send the meeting schedule for the year | Petra | 20 March |
"""
JUNE = """# Site managers' meeting, 15 June 2026

Present: Petra Lund (chair), Hollis Brandt, Soren Achebe, Ida Marsh.

## 1. Front desk

Ida will run a refresher for the front desk staff on the new visitor badges in July. The training room at Ferry
Road is booked for it.

## Actions

| Action | Who | By |
|---|---|---|
| Visitor badge refresher for front desk staff | Ida | 31 July |
"""
POLICY = """# Training policy

Every member of staff has an annual training plan. The Duty Manager at each site keeps the training records and
books the training room for the managers' sessions. New starters are trained by their line manager in their first
two weeks.
"""
STAFF = """name,job_title,site,start_date
Petra Lund,Operations Manager,Head office (Ferry Road),2015-05-11
Hollis Brandt,Senior Receptionist,Ferry Road,2012-09-03
Soren Achebe,Site Manager,Mill Green,2018-01-15
Ida Marsh,Site Manager,Ferry Road,2016-03-07
Tomas Reyes,Duty Manager,Ferry Road,2020-10-01
Nell Okafor,Receptionist,Mill Green,2022-02-14
"""
QUESTION = ("At the March managers' meeting somebody was asked to retrain the front desk staff on what happens to "
            "lost property. What is that person's job title, and which site are they based at?")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("sites"), {
        "sites/minutes/site-managers-meeting-2026-03-09.md": MARCH,
        "sites/minutes/site-managers-meeting-2026-06-15.md": JUNE,
        "sites/training-policy.md": POLICY,
        "sites/staff.csv": STAFF,
    })
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_person_the_named_minutes_give_the_task_then_their_row(folder: Folder) -> None:
    result = ask(folder, QUESTION)
    answer = str(result["answer"])
    assert "Senior Receptionist" in answer and "Hollis" in answer, answer
    sources = {c["source"] for c in result["citations"]}
    assert {"sites/minutes/site-managers-meeting-2026-03-09.md", "sites/staff.csv"} <= sources, sources
    assert "Duty Manager" not in answer and "Ida" not in answer, answer


def test_a_role_with_a_determiner_is_no_person() -> None:
    sentence = "Decisions: every Stock Controller will sign up to the recall alerts, and Hollis will chair it."
    assert not is_personal(sentence, "Stock Controller", sentence.index("Stock"))
    assert is_personal(sentence, "Hollis", sentence.index("Hollis"))


def test_a_place_is_said_as_one() -> None:
    question = "The album is by a singer-songwriter from what state?"
    assert not holds_kind("The album is the third by singer-songwriter M. Ward.", PLACE, question)
    assert holds_kind("M. Ward grew up in Oregon.", PLACE, question)
    assert holds_kind("M. Ward is a musician from Portland, Oregon.", PLACE, question)
    # Inside a building a place is often unnamed.
    taken = "Where should the person be taken?"
    assert holds_kind("Invite the person to the quiet room, away from the queue.", PLACE, taken)
    assert not holds_kind("Stay calm, listen and do not argue.", PLACE, taken)


def test_a_follow_up_that_points_at_a_thing() -> None:
    assert is_follow_up("What hours is that warehouse open on a Saturday?")
    assert is_follow_up("Who signed off on this repair?")
    # A relative clause points at nothing.
    assert not is_follow_up("Which supplier sent the invoices that were disputed in March?")
