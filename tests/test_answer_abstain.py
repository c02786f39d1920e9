"""Questions the documents do not answer, though related documents exist: "not found", not a related sentence.

"What is the email address of the Kestrel office?" over a directory with telephone numbers only: the thing asked
("email address") is named by all its words, not by "address" alone. "What time does the Kestrel office open on
Sundays?" over costs and minutes without a time of day: "what time" wants a time of day, not any number or date.
A table row about another thing than the one the question names ("the gas boiler at the Heron office" answered
with the Kestrel office's boiler) answers nothing, and "how much does it cost" wants a sum of money. Answered
counterparts show the rules do not simply refuse. A folder written here is ingested into the default embedded index
and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.asked import asked_subject, asked_thing
from hopgraph.policies.answer.compose import NOT_FOUND
from hopgraph.policies.answer.types import AMOUNT, DATE, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

DIRECTORY = """# Office directory

| Office | Address | Town | Telephone |
|---|---|---|---|
| Kestrel office | 3 Ferry Road | Dunmore | 01632 970 221 |
| Heron office | 18 Quay Street | Ballyhale | 01632 970 384 |
"""

COSTS = """# Office costs 2026

| office | quarter | rent | energy |
|---|---|---|---|
| Kestrel office | Q1 | 4200 | 610 |
| Kestrel office | Q2 | 4200 | 540 |
| Heron office | Q1 | 3900 | 580 |
"""

EQUIPMENT = """# Office equipment

| Item | Office | Last serviced |
|---|---|---|
| Gas boiler | Kestrel office | 2026-03-12 |
| Photocopier | Kestrel office | 2026-01-30 |
| Photocopier | Heron office | 2026-02-17 |
"""

MINUTES = """# Office managers' meeting, 4 May 2026

The council has asked for the fire doors at the Kestrel office to be checked before the summer. Rosa Quirke will
book the contractor.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("offices"), {
        "admin/office-directory.md": DIRECTORY, "admin/office-costs-2026.md": COSTS,
        "admin/managers-meeting-2026-05-04.md": MINUTES, "admin/office-equipment.md": EQUIPMENT})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_what_a_question_names_as_asked() -> None:
    assert asked_thing("What is the email address of the Kestrel office?") == {"email", "addre"}
    # A superlative ranks the things, it names none; a generic head names nothing.
    assert asked_thing("What is the most popular hotel in Dunmore?") == {"hotel"}
    assert asked_thing("What is the largest site of the company?") == {"site"}
    assert asked_thing("What is the test fee for a van?") == {"test", "fee"}
    assert asked_thing("What is the phone number of the office?") == set()
    # "Who is the council's building inspector?": the asked thing may end the question.
    assert asked_subject("Who is the council's building inspector?") == {"inspe"}
    # "What time" wants a time of day.
    asked = "What time does the office open on Sundays?"
    assert holds_kind("The Heron office opens at 8:30 from June.", DATE, asked)
    assert not holds_kind("office: Kestrel office; quarter: Q1; rent: 4200", DATE, asked)
    assert not holds_kind("The meeting was on 4 May 2026.", DATE, asked)
    # "When will it reopen?" looks ahead: the date a state began ("closed since ...") does not answer it.
    ahead = "When will the learner pool be back open?"
    assert not holds_kind("The learner pool has been closed since 2 March 2026, when tiles lifted.", DATE, ahead)
    assert holds_kind("The learner pool will reopen on 14 September 2026.", DATE, ahead)
    assert holds_kind("The learner pool has been closed since 2 March 2026.", DATE, "When did the learner pool close?")
    assert not holds_kind("It has been shut since the 4th of May.", DATE, "When is the pool due to reopen?")
    # "On what date ...?" wants a day: not a year, a month or a budget year.
    day = "On what date did the X-ray room open again?"
    assert not holds_kind("The X-ray room refit falls in 2026-27 and is not included here.", DATE, day)
    assert not holds_kind("The X-ray room opened again in May 2026.", DATE, day)
    assert holds_kind("The X-ray room opened again on 14 May 2026.", DATE, day)
    assert holds_kind("X-ray room signed off: 2026-05-14.", DATE, day)
    assert holds_kind("The X-ray room refit falls in 2026-27.", DATE, "When does the X-ray room refit happen?")
    # "How long ...?" is answered by a length of time, or by what it lasts until.
    kept = "How long should he be kept on the spinal board in the water?"
    assert holds_kind("Keep the casualty on the board until the paramedics take over.", AMOUNT, kept)
    assert holds_kind("Keep the casualty on the board for at least 20 minutes.", AMOUNT, kept)
    assert not holds_kind("Use the spinal board from the poolside first aid point.", AMOUNT, kept)
    # "How much does it cost" wants money: a sum, or a bare number in a table row's cell.
    cost = "How much does parking cost at the Kestrel office?"
    assert not holds_kind("Parking is in the six spaces behind the building.", AMOUNT, cost)
    assert holds_kind("Parking costs £4 a day.", AMOUNT, cost)
    assert holds_kind("office: Kestrel office; quarter: Q2; parking: 540", AMOUNT, cost)
    # "How many" wants a count: the day and year of a date are none, a plain number (a bare year too) is one.
    count = "How many visitors did the Heron office have in spring?"
    assert not holds_kind("On 2 June 2026 the Heron office closed early.", AMOUNT, count)
    assert not holds_kind("The fire doors were checked on June 9, 2026.", AMOUNT, count)
    assert holds_kind("On 2 June 2026 the Heron office had 340 visitors.", AMOUNT, count)
    assert holds_kind("Some 1500 visitors came.", AMOUNT, count)


@pytest.mark.parametrize("question", [
    "What is the email address of the Kestrel office?",
    "What time does the Kestrel office open on Sundays?",
    # A row about another office's boiler answers nothing about the Heron office's.
    "When was the gas boiler at the Heron office last serviced?",
])
def test_unanswered_questions_are_not_found(folder: Folder, question: str) -> None:
    answer = str(ask(folder, question)["answer"])
    assert answer.startswith(NOT_FOUND[:-1]), answer
    assert "admin" in answer


@pytest.mark.parametrize(("question", "fact"), [
    ("What is the telephone number of the Kestrel office?", "01632 970 221"),
    ("Who will book the contractor for the fire doors?", "Rosa Quirke"),
    ("When was the gas boiler at the Kestrel office last serviced?", "2026-03-12"),
])
def test_their_answered_counterparts(folder: Folder, question: str, fact: str) -> None:
    answer = str(ask(folder, question)["answer"])
    assert fact in answer, answer
