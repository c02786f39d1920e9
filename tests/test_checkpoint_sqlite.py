"""The SQLite checkpoint store: WAL with synchronous=NORMAL on every connection, and threads that outlive it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hopgraph import api
from hopgraph.checkpoint import checkpointer, open_checkpointer
from tests.scripted import search_then_report_context

# sqlite3's numbering of PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL.
NORMAL = 1


@pytest.fixture(autouse=True)
def sqlite_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # A PostgreSQL URI in the environment (as in CI) would pick the other store.
    monkeypatch.delenv("POSTGRES_URI", raising=False)
    monkeypatch.delenv("DATABASE_URI", raising=False)


def test_the_sync_store_commits_without_a_flush_each_and_keeps_threads(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite")
    with open_checkpointer(path=db) as saver:
        conn = saver.conn  # type: ignore[attr-defined]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == NORMAL
        assert api.run("Who supplies steel bolts?", context=search_then_report_context(), checkpointer=saver,
                       thread_id="t")["reported_ids"] == ["acme"]
    # A new connection finds the thread as it was left.
    with open_checkpointer(path=db) as saver:
        state = api.thread_state("t", checkpointer=saver)
    assert state["reported_ids"] == ["acme"] and state["turns"] == 2


def test_the_async_store_sets_the_same_on_its_connection(tmp_path: Path) -> None:
    async def settings() -> tuple[str, int]:
        async with checkpointer(path=str(tmp_path / "a.sqlite")) as saver:
            conn = saver.conn  # type: ignore[attr-defined]
            async with conn.execute("PRAGMA journal_mode") as cursor:
                mode = (await cursor.fetchone())[0]
            async with conn.execute("PRAGMA synchronous") as cursor:
                synchronous = (await cursor.fetchone())[0]
        return mode, synchronous

    assert asyncio.run(settings()) == ("wal", NORMAL)
