"""In the document a hop reached for a bridge, the line that names the bridge answers before one that shares a word.

"How much had the team of the engineer who was on call during the gateway outage spent by the end of September?":
the incident report names the engineer (Priya Raman); the budget sheet the hop reaches has one line per cost centre
with its owner, so the line whose owner is Priya Raman answers, not "Firmware team", which only shares "team" with
the question. A folder written here is ingested into the default embedded index and asked through the graph with
the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

REPORT = """# INC-2026-024: Telemetry gateway outage

Date: 6 August 2026. Severity: major. Status: closed.

Between 13:05 and 15:50 the telemetry gateway rejected uploads from all field sensors. The on-call engineer was
Priya Raman. She traced the outage to an expired certificate on the load balancer and renewed it by hand.
"""
BUDGET = """# Budget 2026: cost centres

| Cost centre | Budget 2026 EUR | Actual to Sep EUR | Forecast EUR | Owner |
|---|---|---|---|---|
| Materials | 1,450,000 | 1,152,000 | 1,537,000 | Helen Marsh |
| Firmware team | 620,000 | 461,000 | 615,000 | Jonas Berg |
| Platform Reliability | 540,000 | 409,000 | 548,000 | Priya Raman |
| Field Operations | 380,000 | 297,000 | 392,000 | Sam Whitley |
"""
ROSTER = """# Team roster

Jonas Berg leads the Firmware team, which builds and releases the sensor firmware. Sam Whitley leads Field
Operations, who install and service sensors at customer sites.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("company"), {
        "ops/incidents/INC-2026-024-gateway-outage.md": REPORT, "ops/team/roster.md": ROSTER,
        "finance/budget-2026.md": BUDGET})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_line_that_names_the_bridge(folder: Folder) -> None:
    question = ("How much had the team of the engineer who was on call during the gateway outage spent by the end of "
                "September?")
    answer = str(ask(folder, question)["answer"])
    assert "Priya Raman" in answer and "409,000" in answer, answer
    assert "461,000" not in answer, answer
