"""A place said without an article, by a letter or a number that picks it out: "to cold store A", "in bay 4".

"Where did the night shift put the gas cylinders?" is answered by "The night shift moved the gas cylinders to cold
store A": a place of the site, said the way the site names its rooms, holds the answer as much as "to the store
room" does. A folder written here is ingested into the default embedded index and asked through the graph with the
built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.types import PLACE, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

INCIDENT = """# INC-204: Freezer alarm at the Dock Road site

Date: 12 May 2026. Severity: minor.

The alarm of freezer 2 sounded at 03:10 when the reading rose to -9 degrees Celsius. The night shift moved the
vaccine boxes to cold room 2 within fifteen minutes. The cause was a fan that had stopped.
"""
STORES = """# Dock Road site stores

Cleaning materials are kept in the store room behind the loading bay. Spare fans for the freezers are ordered from
Coldline Parts.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("freezers"), {
        "ops/inc-204-freezer-alarm.md": INCIDENT, "ops/dock-road-stores.md": STORES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


@pytest.mark.parametrize("sentence", [
    "The night shift moved the gas cylinders to cold store A within twenty minutes.",
    "The spare pallets are kept in bay 4.",
    "The boxes went into the store room.",
])
def test_a_room_picked_out_by_a_letter_or_number_is_a_place(sentence: str) -> None:
    assert holds_kind(sentence, PLACE, "Where did they put them?")


def test_where_something_was_moved_to_is_answered(folder: Folder) -> None:
    answer = str(ask(folder, "Where did the night shift put the vaccine boxes?")["answer"])
    assert not is_not_found(answer) and "cold room 2" in answer, answer
