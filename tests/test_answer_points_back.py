"""A quoted sentence that points back inside it ("are its other members") comes with the sentence before it.

"Ivo Marsh and Lena Dahl are its other members." answers nothing on its own about whose members they are; quoted
after "Rhea Quist leads the Harbour Systems team, which runs the booking site." it does. A folder written here is
ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

ROSTER = """# Teams (spring 2026)

Rhea Quist leads the Harbour Systems team, which runs the booking site and the ticket gates. Ivo Marsh and Lena Dahl
are its other members.

The Fleet team looks after the ferries' engines and hulls. It is led by Sol Brandt, with Mina Akers.
"""
POLICY = """# Leave policy

Annual leave is approved by the employee's team lead, at least two weeks before the first day off.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("ferries"), {"ops/teams.md": ROSTER, "ops/leave-policy.md": POLICY})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_whose_members_they_are(folder: Folder) -> None:
    answer = str(ask(folder, "Ivo Marsh wants a week off in May. Whose OK does he need?")["answer"])
    assert "Rhea Quist leads the Harbour Systems team" in answer and "Ivo Marsh" in answer, answer
    assert "Sol Brandt" not in answer, answer
