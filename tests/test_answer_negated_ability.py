"""A word that says something cannot be done ("unreachable", "unavailable") also says the verb it negates: "when the
gateway can't be reached" and "when the gateway is unreachable" share "reach". A folder written here is ingested into
the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import stem, stems
from tests.support.folders import Folder, ask, ingested, write_files

NOTES = """# Gateway client 3.2.0 - release notes

Gateway client 3.2.0 was released on 4 May 2026.

Changed: the minimum supported gateway version is now 2.8.
Changed: uploads retry with exponential back-off when the telemetry gateway is unreachable.
Changed: the gateway dashboard shows uploads per site.
"""
INCIDENT = """# INC-88: Uploads rejected by the gateway

Between 13:05 and 15:50 the telemetry gateway rejected uploads from all field sensors, so the dashboards showed no new
readings. The gateway changed how it checks certificates after the July maintenance.
"""
RUNBOOK = """# Gateway runbook

Drain the gateway from the load balancer and wait until open uploads fall to zero. Uploads behave normally again once
the gateway is back in the pool.
"""


@pytest.mark.parametrize(("word", "verb"), [("unreachable", "reach"), ("unavailable", "avail")])
def test_a_negated_ability_says_its_verb(word: str, verb: str) -> None:
    assert stem(verb) in stems(word)
    assert stem(word) in stems(word)  # the word itself still counts


@pytest.mark.parametrize("word", ["unable", "table", "reachable"])
def test_other_words_say_only_themselves(word: str) -> None:
    assert stems(word) == {stem(word)}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("negated"), {
        "ops/gateway-client-3.2.0.md": NOTES, "ops/INC-88.md": INCIDENT, "ops/gateway-runbook.md": RUNBOOK})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_cannot_be_reached_meets_unreachable(folder: Folder) -> None:
    answer = str(ask(folder, "What changed in how uploads behave when the gateway can't be reached?")["answer"])
    assert "exponential back-off" in answer, answer
