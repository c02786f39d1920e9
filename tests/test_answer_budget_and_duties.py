"""Two table questions asked in everyday words.

- "How far over its 2026 budget is Rory Gillies's cost centre expected to end up?": the row whose owner he is, its
  forecast minus its budget, computed with run_python (not what is spent so far).
- "Who at Ardgour do I ask to get more diesel ordered in?": a table of who does what gives the job at each site
  ("Ardgour: Stores Coordinator"), and the staff list the person holding it there.
- "What's the rate for a full pallet from Corran to Oban?": the rate card has Corran to Ardgour only; a price for
  another route is no answer.
- "Between April and June, how many more passengers did the ferry carry than Kilmory?": "the ferry" names the one
  route whose name ends in Ferry; the two rows of the second quarter, subtracted.

A folder written here is ingested into the default embedded index and asked through the graph with the built-in answer
policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from tests.support.folders import Folder, ask, ingested, write_files

BUDGET = """cost_centre,budget_2026_gbp,actual_to_sep_gbp,forecast_gbp,owner
Freight,84000,61500,82000,Alys Brennan
Deck crew,212000,160400,227500,Rory Gillies
Engines,150000,118000,149000,Ewan Tait
"""
DUTIES = """# Who does what at each site

| Matter | Corran | Ardgour |
|---|---|---|
| Fuel and stores orders | Stores Coordinator | Stores Coordinator |
| Complaints | Terminal Manager | Terminal Manager |
"""
POLICY = """# Ordering policy

Orders to the fuel supplier are placed only by the Stores Coordinator at each site. Crew who need something ordered
tell the Stores Coordinator, who checks the stock before ordering.
"""
RATE_CARD = """Freight rate card 2026

Corran to Ardgour, full pallet: £95, same day.
Corran to Ardgour, half pallet: £60, same day.
Fort William to Corran, full pallet: £140, next day.
"""
CROSSINGS = """route,quarter,passengers,vehicles
Corran Narrows Ferry,Q1,41200,15300
Corran Narrows Ferry,Q2,58650,21040
Kilmory Launch,Q1,3100,0
Kilmory Launch,Q2,4975,0
"""
STAFF = """name,job_title,site
Morag Keir,Stores Coordinator,Corran
Calum Reid,Stores Coordinator,Ardgour
Isla Munro,Terminal Manager,Ardgour
Rory Gillies,Deck Team Leader,Corran
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("ferry-tables"), {
        "finance/budget-2026.csv": BUDGET, "ops/who-does-what.md": DUTIES, "ops/ordering-policy.md": POLICY,
        "finance/freight-rate-card-2026.txt": RATE_CARD, "ops/crossings-2026.csv": CROSSINGS,
        "people/staff.csv": STAFF})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_how_far_over_budget_a_forecast_ends_up(folder: Folder) -> None:
    question = "How far over its 2026 budget is Rory Gillies's cost centre expected to end up?"
    answer = str(ask(folder, question)["answer"])
    assert "15,500" in answer and "run_python" in answer, answer  # 227,500 - 212,000
    assert "51,600" not in answer, answer  # budget minus spent so far is another question


def test_the_job_a_table_of_duties_gives_at_a_site_and_who_holds_it(folder: Folder) -> None:
    answer = str(ask(folder, "Who at Ardgour do I ask to get more diesel ordered in?")["answer"])
    assert "Calum Reid" in answer, answer
    assert "Morag Keir" not in answer, answer


def test_a_price_for_another_route_is_no_answer(folder: Folder) -> None:
    answer = str(ask(folder, "What's the 2026 rate for a full pallet from Corran to Oban?")["answer"])
    assert is_not_found(answer), answer
    answer = str(ask(folder, "What's the 2026 rate for a full pallet from Corran to Ardgour?")["answer"])
    assert "£95" in answer and not is_not_found(answer), answer


def test_the_row_a_question_names_by_its_kind(folder: Folder) -> None:
    question = "Between April and June, how many more passengers did the ferry carry than Kilmory?"
    answer = str(ask(folder, question)["answer"])
    assert "53,675" in answer, answer  # 58,650 - 4,975
