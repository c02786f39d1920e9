"""A later part that names nothing ("..., and when was that?") is asked of what the first part found.

"Has a failed seal ever caused an incident, and when was that?": the incident report answers the first part, and
its own "Date: 18 July 2026." line the second; the year inside the report's code ("INC-2026-019") is no date, and a
short labelled figure ("Date: 18 July 2026.", "Van hire: £40") is a sentence, not a fragment to drop. A folder
written here is ingested into the default embedded index and asked through the graph with the built-in answer
policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.sentences import prose_sentences
from hopgraph.policies.answer.types import DATE, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

REPORT = """# INC-2026-019: Cold store temperature alarm at Quayside Works

Date: 18 July 2026. Severity: minor. Status: closed.

The temperature alarm of cold store B sounded at 02:40 when the reading rose to 9 degrees Celsius. The cause was a
door seal that had come loose after a forklift knocked the frame. Facilities replaced the seal the same morning.
"""
OTHER = """# INC-2026-024: Telemetry gateway outage

Date: 6 August 2026. Severity: major. Status: closed.

Between 13:05 and 15:50 the telemetry gateway rejected uploads after a certificate expired.
"""
RUNBOOK = """# Weekly cold store check

1. Read the display of each cold store and write the temperature on the sheet.
2. Check the door seals by hand along their full length and report any gap.
3. Keep the calibration gas cylinders between 5 and 8 degrees Celsius.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("site"), {
        "ops/incidents/INC-2026-019-cold-store-alarm.md": REPORT,
        "ops/incidents/INC-2026-024-gateway-outage.md": OTHER,
        "ops/runbooks/cold-store-check.md": RUNBOOK})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_year_in_a_code_is_no_date_and_a_labelled_figure_is_a_sentence() -> None:
    assert not holds_kind("INC-2026-019: Cold store temperature alarm at Quayside Works", DATE, "When was that?")
    assert holds_kind("Date: 18 July 2026.", DATE, "When was that?")
    assert "Date: 18 July 2026." in prose_sentences(REPORT)
    assert "Van hire: £40" in prose_sentences("Costs of the day out:\n\n- Van hire: £40\n- Lunch: £62.50\n")


def test_when_was_that_is_answered_from_the_first_part_s_document(folder: Folder) -> None:
    question = ("Our weekly cold store routine has us check the door seals by hand. Has a failed seal ever caused an "
                "incident, and when was that?")
    answer = str(ask(folder, question)["answer"])
    assert "INC-2026-019" in answer and "18 July 2026" in answer, answer
    assert "6 August 2026" not in answer, answer
