"""`langgraph dev` serves the graph from langgraph.json: threads, follow-ups, state, streaming, deletion."""

from __future__ import annotations

import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.dev_server import ROOT, server_env
from tests.support.dev_server import dev_server as running_dev_server
from tests.support.index import make_index
from tests.support.postgres import count_rows, drop_schema, new_schema, require_postgres


@pytest.fixture(params=["sqlite", "postgres"])
def dev_server(request, tmp_path):
    index = make_index(str(tmp_path / "index"))  # closed again before the server opens it
    db = tmp_path / "checkpoints.sqlite"
    store: Store = Store(sqlite=db)
    overrides = {"HOPGRAPH_INDEX": index, "HOPGRAPH_CHECKPOINT_DB": str(db)}
    if request.param == "postgres":
        store = Store(pg_uri=require_postgres(), schema=new_schema())
        overrides.update(POSTGRES_URI=store.pg_uri, HOPGRAPH_CHECKPOINT_SCHEMA=store.schema)
    log_path = tmp_path / "server.log"
    try:
        with running_dev_server(server_env(**overrides), log_path) as url:
            yield url, store, log_path
    finally:
        if store.pg_uri:
            drop_schema(store.pg_uri, store.schema)


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

        # What Studio draws for the served graph: every route out of decide a labelled edge of its own.
        drawn = await client.assistants.get_graph("hopgraph")
        assert {n["id"] for n in drawn["nodes"]} == {"__start__", "prepare", "generate", "tools", "decide",
                                                     "budget_notice", "finalize", "__end__"}
        routes = {(e["target"], e.get("data")) for e in drawn["edges"] if e["source"] == "decide"}
        assert routes == {("budget_notice", "next_round"), ("generate", "retry"),
                          *(("finalize", exit) for exit in ("report_helpful_ids", "answered", "max_turns",
                                                            "no_tool_call", "thrash", "budget", "model_error",
                                                            "backend_error"))}

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

        # Without an access file the server serves anyone, says so once at startup, and still keeps operator
        # settings to the operator.
        assert log_path.read_text().count("HOPGRAPH_AUTH_FILE is not set: anyone who can reach this server") == 1
        with pytest.raises(httpx.HTTPStatusError) as refused:
            await client.runs.wait(other, "hopgraph", input={"question": "Where is Norvik based?"},
                                   context={"index": str(log_path.parent / "elsewhere")})
        assert refused.value.response.status_code == 403 and "'index'" in refused.value.response.text
        assert not (log_path.parent / "elsewhere").exists()

        # checkpointer.path from langgraph.json is what stores the thread.
        assert store.rows(tid) > 0
        await client.threads.delete(tid)
        assert store.rows(tid) == 0
    except BaseException:
        print(log_path.read_text()[-6000:])
        raise


def _repository_status() -> str:
    """Everything git sees in the working tree, ignored files included (`.langgraph_api/` is ignored)."""
    proc = subprocess.run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    # Caches of the tools running these tests come and go on their own.
    noise = ("__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".venv/", ".egg-info", ".ci-cache/")
    return "\n".join(line for line in proc.stdout.splitlines() if not any(part in line for part in noise))


def test_a_dev_server_under_test_leaves_the_repository_as_it_was(tmp_path: Path) -> None:
    before = _repository_status()
    index = make_index(str(tmp_path / "index"))
    env = server_env(HOPGRAPH_INDEX=index, HOPGRAPH_CHECKPOINT_DB=str(tmp_path / "c.sqlite"))
    with running_dev_server(env, tmp_path / "server.log") as url:
        thread = httpx.post(f"{url}/threads", json={}, timeout=30).json()["thread_id"]
        done = httpx.post(f"{url}/threads/{thread}/runs/wait", timeout=120,
                          json={"assistant_id": "hopgraph", "input": {"question": "Where is Norvik based?"}})
        assert done.status_code == 200, done.text
    # The server kept its runtime state in the test's own folder, not in the repository.
    assert (tmp_path / "langgraph-dev" / ".langgraph_api").is_dir()
    assert _repository_status() == before
