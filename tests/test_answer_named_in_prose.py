"""Two readings that turned right answers into "not found":

- "Who was given the job of redoing the fridge log audit ...?" names no thing the answer must speak of: "given the job"
  is a verb and its object, not a subject like "the site manager" of "Who is the site manager of ...?". The person
  the minutes give the task is the answer.
- A price list inside a memo ("all driver cover is booked through Roadwise", then a table of rates) answers "What does
  Roadwise charge for ...?": the name is said in the prose around the table, not in the row. A rate card that never
  names the place asked about still gives "not found", and so does a row of another site in a sheet.

A folder written here is ingested into the default embedded index and asked through the graph with the built-in
answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from tests.support.folders import Folder, ask, ingested, write_files

MINUTES = """# Depot leads' meeting, 14 May 2026

Present: Sunniva Holt, Dmitri Lasko, Wendell Osei.

## Fridge logs
The April fridge log audit found two missing evening readings at Harwick and a half-filled sheet at Poltree.
Because the audit only helps if it is done the same way everywhere, Wendell will redo the fridge log audit at all
three depots with a single checklist and bring the results to the September meeting.

## Uniforms
Dmitri has already ordered the new hi-vis jackets.
"""
MEMO = """# Memo: booking relief drivers in 2026

**From:** Orla Pike, Finance Officer
**Date:** 8 January 2026

From 1 January 2026 all relief driver cover is booked through Roadwise, under the framework agreement signed in
December. Please do not book drivers directly.

## Agreed rates

| Cover | Rate |
|---|---|
| Relief HGV driver, day shift | £290 per day |
| Relief van driver, day shift | £190 per day |
| Relief driver, night trunking | £360 per night |

The rates include the agency's booking fee and the driver's travel.
"""
RATES = """Pallet rate card 2026

Harwick to Poltree, full pallet: £85, same day.
Harwick to Poltree, half pallet: £55, same day.
"""
KIT = """asset,site,supplier
Pallet truck,Harwick,Liftline Ltd
Pallet truck,Poltree,Northgate Handling
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("depot-prose"), {
        "ops/leads-meeting-2026-05-14.md": MINUTES, "finance/relief-driver-memo.md": MEMO,
        "finance/pallet-rate-card-2026.txt": RATES, "ops/kit.csv": KIT})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_person_given_a_job_in_the_minutes(folder: Folder) -> None:
    answer = str(ask(folder, "Who was given the job of repeating the fridge log audit across all three depots?")
                 ["answer"])
    assert not is_not_found(answer) and "Wendell" in answer, answer


def test_a_rate_from_the_table_of_the_memo_naming_the_agency(folder: Folder) -> None:
    answer = str(ask(folder, "What does Roadwise charge us when a relief driver does a night of trunking?")
                 ["answer"])
    assert not is_not_found(answer) and "£360" in answer, answer


def test_a_rate_or_a_row_for_another_place_is_still_no_answer(folder: Folder) -> None:
    assert is_not_found(str(ask(folder, "What's the 2026 rate for a full pallet from Harwick to Dunmore?")["answer"]))
    answer = str(ask(folder, "Which firm supplies the pallet truck at Brackwell?")["answer"])
    assert is_not_found(answer), answer
