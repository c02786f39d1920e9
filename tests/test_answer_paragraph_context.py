"""A sentence is read with its paragraph, and a bridge named with its kind leads to its own entry in a list.

"The engine crew is based at Pellow. Mara Quint leads it." answers "Who leads the engine crew?" with Mara Quint, not
with "based at Pellow" (one word after "at" is a place, not a person). "Who manages the harbour that handles the
freight?" is answered from the paragraph that says "It handles the freight", though the manager's own sentence does
not. "In which town is the harbour where the Kittiwake ferries are moored?" follows "the Pellow harbour" (the kind
right after the name names it) to the harbour list's entry that opens with Pellow, not to an incident report
whose title mentions Pellow. A folder written here is ingested into the default embedded index and asked through the
graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

HARBOURS = """# Our harbours

Harwick harbour: 3 Quay Parade, Dunmore. The harbour master is Ivo Lindqvist. It handles the foot passengers and
the island post, and opens at 6:00.

Pellow harbour: 18 Slipway Road, Carnbrae. The harbour master is Tessa Raine. It handles the freight and the
livestock crossings, and opens at 5:00.

Skerry harbour: 2 Pier Lane, Ballow. The harbour master is Gus Ferrand. It was dredged in April 2026.
"""
CREWS = """# Crews

The deck crew works days at Harwick. It is led by Noel Abara; Ruth Penn and Dev Sato are its other members.

The engine crew is based at Pellow. Mara Quint leads it, with Olek Brandt and Suki Hale.

Safety drills are run by Ansel Moyo, who visits each harbour once a month.
"""
FLEET = """# Ferries

We run two ferry classes. The two Gannet ferries are moored at the Harwick harbour and sail to the northern isles.
The three Kittiwake ferries are moored at the Pellow harbour and carry the freight to the outer islands. Every
ferry is surveyed each spring by Marlow Marine.
"""
INCIDENT = """# Incident FR-2026-03: winch failure at Pellow

The stern winch on the freight ramp at the Pellow harbour jammed during loading on 4 March, and two trailers
waited four hours for the next crossing.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("ferries"), {
        "ops/harbours.md": HARBOURS, "ops/crews.md": CREWS, "ops/ferries.md": FLEET,
        "ops/incident-2026-03-winch.md": INCIDENT})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_person_the_paragraph_is_about(folder: Folder) -> None:
    answer = str(ask(folder, "Who leads the engine crew?")["answer"])
    assert "Mara Quint" in answer, answer
    assert "Noel Abara" not in answer, answer


def test_the_sentence_after_says_which_one(folder: Folder) -> None:
    answer = str(ask(folder, "Who manages the harbour that handles the freight?")["answer"])
    assert "Tessa Raine" in answer, answer
    assert "Ivo Lindqvist" not in answer, answer


def test_the_bridge_named_with_its_kind_leads_to_its_entry(folder: Folder) -> None:
    answer = str(ask(folder, "In which town is the harbour where the Kittiwake ferries are moored?")["answer"])
    assert "Carnbrae" in answer, answer
    assert "Dunmore" not in answer and "Ballow" not in answer, answer
