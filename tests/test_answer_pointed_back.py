"""A statement that describes something, then a part that asks for it: "The KX-9 data sheet recommends a minimum
firmware. Which version is that, and which bug did that version fix?". The version the data sheet gives is the
bridge (its number, not "Version 2.4.1" as a name), found in the first results; "minimum" there describes it and asks
for no extreme among table rows; the part "Which version is that?" is answered by the sentence that gave it, and the
later part by that version's release notes. A folder written here is ingested into the default embedded index and
asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.bridge import pointed_back_kind
from hopgraph.policies.answer.evidence import stems
from tests.support.folders import Folder, ask, ingested, write_files

DATASHEET = """# KX-9 Flow Meter - Data sheet

The KX-9 measures water flow in pipes from 15 to 50 mm and reports over LoRaWAN to the Brightwater gateway.

Power
Two lithium C cells; about eight years at a one hour reporting interval.

Firmware
Firmware updates are delivered over the air. Version 2.4.1 or later is recommended.
"""
NOTES_241 = """# KX-9 firmware 2.4.1 - release notes

Firmware 2.4.1 was released on 3 March 2026 as a maintenance release.

Fixed: BUG-415, flow totals reset to zero after a gateway restart.
Known issue: the first reading after the update may be skipped.
"""
NOTES_240 = """# KX-9 firmware 2.4.0 - release notes

Firmware 2.4.0 was released on 9 January 2026.

Fixed: BUG-398, the battery warning came on too early in cold pipes.
New: reporting interval configurable from 15 minutes to 24 hours.
"""
INCIDENT = """# INC-77: Flow totals lost at the Millbrook pumping station

After the Millbrook gateway restarted on 2 February, twenty KX-9 meters reported flow totals of zero. The cause was a
firmware defect in the handling of restarts.
"""


# Data sheets of other products, so the first search fills with them and the hop has something new to find.
OTHER_SHEETS = {
    f"ops/{name.lower()}-datasheet.md": f"""# {name} {kind} - Data sheet

The {name} measures {what} and reports over LoRaWAN to the Brightwater gateway. The data sheet lists its ranges.

Firmware
Firmware updates for the {name} are delivered over the air. Version {version} or later is recommended.
"""
    for name, kind, what, version in [
        ("PX-2", "Pressure Sensor", "pipe pressure", "1.8.0"),
        ("TX-5", "Temperature Probe", "water temperature", "3.1.2"),
        ("LX-1", "Level Gauge", "tank levels", "5.0.1"), ("QX-7", "Quality Sensor", "turbidity", "0.9.4"),
        ("VX-3", "Valve Monitor", "valve positions", "2.2.0"), ("NX-4", "Noise Logger", "leak noise", "4.0.3"),
    ]
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("pointed-back"), {
        "ops/kx-9-datasheet.md": DATASHEET, "ops/release-notes-2.4.1.md": NOTES_241,
        "ops/release-notes-2.4.0.md": NOTES_240, "ops/INC-77-millbrook.md": INCIDENT, **OTHER_SHEETS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


@pytest.mark.parametrize(("part", "kind"), [
    ("Which version is that", "version"),
    ("What company was it?", "company"),
    ("Which version fixed the bug", ""),  # asks its own question
    ("Which bug did that version fix", ""),
])
def test_a_part_that_asks_for_what_the_statement_describes(part: str, kind: str) -> None:
    assert pointed_back_kind(part) == stems(kind)


def test_the_version_a_statement_describes_is_the_bridge(folder: Folder) -> None:
    answer = str(ask(folder, "The KX-9 data sheet recommends a minimum firmware. Which version is that, and which bug "
                             "did that version fix?")["answer"])
    assert "Version 2.4.1 or later is recommended" in answer, answer
    assert "BUG-415" in answer, answer
    # "Which version is that?" is the sentence quoted for the statement: no other product's version beside it.
    assert answer.count("or later is recommended") == 1, answer
