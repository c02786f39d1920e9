"""A rate whose unit a table's column names: "Rate per hour" over "£15.80".

The casual rates memo is a table, "| Role | Rate per hour |", with one row per role; the minutes say "Eastfield used
casual drivers for 38 hours in August". "Paying the usual casual rate, what did the extra driving cover at Eastfield
in August cost us?" is the drivers' row times the hours: 38 × £15.80, computed with run_python, not the porters'
rate quoted as the answer. A folder written here is ingested into the default embedded index and asked through the
graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

MEMO = """# Memo: casual rates from 1 April

Casual staff are paid through payroll the month after the work, on a signed timesheet.

| Role | Rate per hour |
|---|---|
| Casual Warehouse Porter | £12.60 |
| Casual Van Driver (vans up to 3.5 tonnes) | £15.80 |
"""
MINUTES = """# Depot managers' meeting, 9 September 2026

## 1. Cover

Eastfield used casual drivers for 38 hours in August to run the van round while Dale was on leave. Westfield
needed no cover.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("depots"), {"finance/casual-rates-memo.md": MEMO,
                                                          "ops/minutes-2026-09-09.md": MINUTES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_hours_times_the_rate_a_column_names(folder: Folder) -> None:
    question = "Paying the usual casual rate, what did the extra driving cover at Eastfield in August cost us?"
    answer = str(ask(folder, question)["answer"])
    assert "600.40" in answer and "£15.80" in answer, answer
