"""`langgraph dev` serves the graph from langgraph.json: threads, follow-ups, state, streaming, deletion."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.index import make_index
from tests.support.postgres import count_rows, drop_schema, new_schema, require_postgres

ROOT = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT_S = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _langgraph_bin() -> str:
    path = Path(sys.executable).parent / "langgraph"
    assert path.exists(), f"langgraph CLI not found next to {sys.executable}; install langgraph-cli[inmem]"
    return str(path)


@pytest.fixture(params=["sqlite", "postgres"])
def dev_server(request, tmp_path):
    index = make_index(str(tmp_path / "index"))  # closed again before the server opens it
    db = tmp_path / "checkpoints.sqlite"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("POSTGRES_URI", "DATABASE_URI", "QDRANT_URL")}
    store: Store = Store(sqlite=db)
    if request.param == "postgres":
        store = Store(pg_uri=require_postgres(), schema=new_schema())
        env.update(POSTGRES_URI=store.pg_uri, HOPGRAPH_CHECKPOINT_SCHEMA=store.schema)
    env.update(
        HOPGRAPH_INDEX=index,
        HOPGRAPH_CHECKPOINT_DB=str(db),
        HOPGRAPH_MODEL="builtin",
        LANGSMITH_TRACING="false",
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="true",
    )
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [_langgraph_bin(), "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group, so the whole server tree can be stopped
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"langgraph dev exited ({proc.returncode}):\n{log_path.read_text()[-6000:]}")
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev not up after {STARTUP_TIMEOUT_S}s:\n{log_path.read_text()[-6000:]}")
            time.sleep(0.5)
        yield url, store, log_path
    finally:
        with_group(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with_group(proc, signal.SIGKILL)
            proc.wait(timeout=5)
        if store.pg_uri:
            drop_schema(store.pg_uri, store.schema)


def with_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)


@dataclass
class Store:
    """Where the server's checkpointer writes: a SQLite file, or a PostgreSQL schema."""

    sqlite: Path | None = None
    pg_uri: str = ""
    schema: str = ""

    def rows(self, thread_id: str) -> int:
        if self.pg_uri:
            return count_rows(self.pg_uri, self.schema, "checkpoints", thread_id)
        assert self.sqlite is not None
        with sqlite3.connect(self.sqlite) as conn:
            query = "SELECT count(*) FROM checkpoints WHERE thread_id = ?"
            return int(conn.execute(query, (thread_id,)).fetchone()[0])


async def test_dev_server_threads_state_stream_and_delete(dev_server):
    from langgraph_sdk import get_client

    url, store, log_path = dev_server
    try:
        client = get_client(url=url)
        thread = await client.threads.create()
        tid = thread["thread_id"]

        # Run inputs are plain JSON; typed as dict[str, Any] because the SDK's recursive JSON input type
        # (list[_JSONMap], invariant) rejects message lists.
        question = {"role": "user", "content": "Which supplier delivered Project Alpha late?"}
        first_input: dict[str, Any] = {"messages": [question]}
        first = await client.runs.wait(tid, "hopgraph", input=first_input)
        assert isinstance(first, dict), first
        assert "alpha" in first["reported_ids"]
        assert first["exit_reason"] and first["turns"] >= 1 and first["trace"]

        second_input: dict[str, Any] = {"messages": [{"role": "user", "content": "Where is that supplier based?"}]}
        second = await client.runs.wait(tid, "hopgraph", input=second_input)
        assert isinstance(second, dict), second
        assert "norvik" in second["reported_ids"]

        state = await client.threads.get_state(tid)
        values = state["values"]
        assert isinstance(values, dict), values
        humans = [m["content"] for m in values["messages"] if m["type"] == "human"]
        assert humans == ["Which supplier delivered Project Alpha late?", "Where is that supplier based?"]
        for key in ("reported_ids", "exit_reason", "turns", "trace"):
            assert key in values, key
        assert any(m["type"] == "tool" for m in values["messages"])

        nodes: list[str] = []
        async for part in client.runs.stream(
            tid, "hopgraph", input={"question": "Where is Norvik based?"}, stream_mode="updates"
        ):
            if part.event == "updates":
                nodes.extend(part.data)
            assert part.event != "error", part.data
        assert nodes[0] == "prepare" and nodes[-1] == "finalize"
        assert {"generate", "tools", "decide"} <= set(nodes)

        # Run settings travel as the run's context (the graph's context_schema).
        other = (await client.threads.create())["thread_id"]
        capped = await client.runs.wait(
            other, "hopgraph", input={"question": "Which supplier delivered Project Alpha late?"},
            context={"max_turns": 1},
        )
        assert isinstance(capped, dict), capped
        assert capped["turns"] == 1

        # Answer mode is the same graph with another context: a cited answer.
        answered = await client.runs.wait(
            other, "hopgraph", input={"question": "Where is the supplier Norvik based?"},
            context={"mode": "answer"},
        )
        assert isinstance(answered, dict), answered
        assert answered["exit_reason"] in ("answered", "thrash"), answered
        assert "Bergen" in answered["answer"]
        assert answered["citations"] and answered["citations"][0]["title"] == "Norvik profile"

        # checkpointer.path from langgraph.json is what stores the thread.
        assert store.rows(tid) > 0
        await client.threads.delete(tid)
        assert store.rows(tid) == 0
    except BaseException:
        print(log_path.read_text()[-6000:])
        raise
