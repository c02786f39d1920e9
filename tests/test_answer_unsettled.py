"""A question whose answer the documents say is not settled yet gets "not found", with the passage saying so offered
as the closest, labelled as such: a successor not yet appointed, a rate still being negotiated, a contractor for works
still to be tendered or out to tender. A question that
itself says the thing is not done yet ("still haven't sent") is answered from what is known, and a rate that is
settled is answered. A folder written here is ingested into the default embedded index and asked through the graph
with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from tests.support.folders import Folder, ask, ingested, write_files

MINUTES = """# Brewery leads' meeting, 9 September 2026

Present: Marta Silva, Colm Dwyer, Petra Lund, Ines Moreau.

## Head Brewer
Marta will retire at the end of March after twelve years as Head Brewer at Wick Lane. The post will be advertised
in October. No successor has been appointed yet.

## Agency drivers
Colm said the hourly rates for agency delivery drivers from Keelby Staffing are still being negotiated, so no agency
drivers can be booked for now.
"""
STAFF = """name,job_title,site
Marta Silva,Head Brewer,Wick Lane
Colm Dwyer,Cellar Manager,Wick Lane
Petra Lund,Shift Supervisor,Wick Lane
Ines Moreau,Duty Brewer,Wick Lane
"""
PLAN = """# Building works allowances 2027-28

| Item | Allowance |
|---|---|
| Brewhouse roof replacement (to be tendered in the new year) | 85,000 |
| Cellar drainage upgrade | 12,500 |
"""
WORKS = """# Brewery leads' meeting, 10 June 2026

Colm reported damp along the malt store wall again. Three firms have been invited to tender for relining it:
Ardmore Building, Kelso Damp and Pike & Sons.
"""
RATES = """# Casual staff pay rates from April 2026

Casual cellar hands are paid £13.20 per hour on weekdays.
Casual bottling line operators are paid £12.85 per hour on weekdays.
Keelby Staffing sent their draft rate card on 2 September; it has not been agreed.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("brewery-people"), {
        "people/minutes-2026-09-09.md": MINUTES, "people/staff.csv": STAFF,
        "finance/casual-pay-rates-2026.md": RATES, "finance/building-works-2027-28.md": PLAN,
        "people/minutes-2026-06-10.md": WORKS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_successor_not_yet_appointed_is_not_found(folder: Folder) -> None:
    answer = str(ask(folder, "Who's been appointed to take over from Marta when she retires?")["answer"])
    assert is_not_found(answer), answer
    assert "closest passage" in answer and "No successor has been appointed yet" in answer, answer
    assert "[1]" in answer, answer  # the passage offered is cited


def test_a_rate_still_being_negotiated_is_not_found(folder: Folder) -> None:
    answer = str(ask(folder, "What's the hourly rate if we get a delivery driver in from Keelby?")["answer"])
    assert is_not_found(answer) and "still being negotiated" in answer, answer


def test_a_settled_rate_is_answered(folder: Folder) -> None:
    answer = str(ask(folder, "What's the hourly rate for a casual cellar hand?")["answer"])
    assert not is_not_found(answer) and "13.20" in answer, answer


def test_a_contractor_for_works_still_to_be_tendered_is_not_found(folder: Folder) -> None:
    answer = str(ask(folder, "Which contractor is replacing the brewhouse roof?")["answer"])
    assert is_not_found(answer) and "to be tendered" in answer, answer


def test_a_firm_for_works_out_to_tender_is_not_found(folder: Folder) -> None:
    answer = str(ask(folder, "Which firm got the job of relining the malt store?")["answer"])
    assert is_not_found(answer) and "invited to tender" in answer, answer
