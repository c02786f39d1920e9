"""A quarter one site has no row for, though other sites do: "How many visits did Fernhill have between April and
June?" over a sheet where Fernhill has rows for Q1 and Q3 only is "not found", not Fernhill's Q1 row; the same
question about a site with a Q2 row is answered from it. A folder written here is ingested into the default embedded
index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from tests.support.folders import Folder, ask, ingested, write_files

VISITS = """site,quarter,visits,group_bookings
Brookmere Library,2026-Q1,18420,96
Brookmere Library,2026-Q2,19875,104
Brookmere Library,2026-Q3,24310,38
Fernhill Library,2026-Q1,7940,52
Fernhill Library,2026-Q3,9615,20
Saltash Library,2026-Q1,5200,74
Saltash Library,2026-Q2,5850,80
Saltash Library,2026-Q3,6480,31
"""
NOTE = """# Visitor counts

Fernhill's door counter failed in April and its second-quarter counts were lost.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("library-visits"), {
        "ops/visits-2026.csv": VISITS, "ops/visitor-counts-note.md": NOTE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_quarter_the_named_site_has_no_row_for_is_not_found(folder: Folder) -> None:
    answer = str(ask(folder, "How many visits did Fernhill have between April and June?")["answer"])
    assert is_not_found(answer), answer
    assert "7940" not in answer and "9615" not in answer, answer


def test_the_same_quarter_at_a_site_that_has_it_is_answered(folder: Folder) -> None:
    answer = str(ask(folder, "How many visits did Saltash have between April and June?")["answer"])
    assert "5850" in answer, answer
    answer = str(ask(folder, "How many visits did Fernhill have in the third quarter?")["answer"])
    assert "9615" in answer, answer
