"""Checkpoints in the real PostgreSQL: threads survive the process, deletion removes the rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Annotated, TypedDict

import pytest
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

from hopgraph.checkpoint import (
    adelete_thread,
    athread_exists,
    checkpointer,
    delete_thread,
    open_checkpointer,
    thread_exists,
)
from tests.support.postgres import count_rows, drop_schema, new_schema, require_postgres

ROOT = Path(__file__).resolve().parents[1]

# A two-node-free echo graph: proves the saver, independent of the retrieval graph.
ECHO_TURN = textwrap.dedent(
    """
    import json, sys
    from typing import Annotated, TypedDict
    from langgraph.graph import StateGraph, START, END
    from langgraph.graph.message import add_messages
    from langchain_core.messages import AIMessage
    from hopgraph.checkpoint import open_checkpointer

    class S(TypedDict):
        messages: Annotated[list, add_messages]

    def echo(state):
        seen = [m.content for m in state["messages"] if m.type == "human"]
        return {"messages": [AIMessage(" | ".join(seen))]}

    b = StateGraph(S)
    b.add_node("echo", echo)
    b.add_edge(START, "echo")
    b.add_edge("echo", END)
    with open_checkpointer() as saver:
        g = b.compile(checkpointer=saver)
        out = g.invoke({"messages": [("user", sys.argv[2])]}, {"configurable": {"thread_id": sys.argv[1]}})
        print(json.dumps(out["messages"][-1].content))
    """
)


class _S(TypedDict):
    messages: Annotated[list, add_messages]


@pytest.fixture
def pg():
    uri = require_postgres()
    schema = new_schema()
    old = {k: os.environ.get(k) for k in ("POSTGRES_URI", "HOPGRAPH_CHECKPOINT_SCHEMA")}
    os.environ["POSTGRES_URI"] = uri
    os.environ["HOPGRAPH_CHECKPOINT_SCHEMA"] = schema
    try:
        yield uri, schema
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        drop_schema(uri, schema)


def _run(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def test_thread_continues_across_processes_and_delete_removes_rows(pg):
    uri, schema = pg
    tid = f"t-{uuid.uuid4().hex}"
    assert json.loads(_run(ECHO_TURN, tid, "first")) == "first"
    # A fresh interpreter sees the first turn.
    assert json.loads(_run(ECHO_TURN, tid, "second")) == "first | second"
    assert count_rows(uri, schema, "checkpoints", tid) > 0
    assert count_rows(uri, schema, "checkpoint_writes", tid) > 0

    other = f"t-{uuid.uuid4().hex}"
    _run(ECHO_TURN, other, "keep me")
    with open_checkpointer() as saver:
        assert thread_exists(saver, tid)
        delete_thread(saver, tid)
        assert not thread_exists(saver, tid)
        assert thread_exists(saver, other)
    for table in ("checkpoints", "checkpoint_writes", "checkpoint_blobs"):
        assert count_rows(uri, schema, table, tid) == 0, table
    assert count_rows(uri, schema, "checkpoints", other) > 0


async def test_async_saver_and_delete(pg):
    uri, schema = pg

    def echo(state: _S) -> dict:
        return {"messages": [AIMessage(str(len(state["messages"])))]}

    b = StateGraph(_S)
    b.add_node("echo", echo)
    b.add_edge(START, "echo")
    b.add_edge("echo", END)
    tid = f"t-{uuid.uuid4().hex}"
    cfg: RunnableConfig = {"configurable": {"thread_id": tid}}
    async with checkpointer() as saver:
        g = b.compile(checkpointer=saver)
        await g.ainvoke({"messages": [("user", "a")]}, cfg)
        out = await g.ainvoke({"messages": [("user", "b")]}, cfg)
        assert out["messages"][-1].content == "3"
        assert await athread_exists(saver, tid)
        await adelete_thread(saver, tid)
        assert not await athread_exists(saver, tid)
    assert count_rows(uri, schema, "checkpoints", tid) == 0


def test_unreachable_postgres_is_a_clear_error():
    with pytest.raises(RuntimeError, match="cannot connect to PostgreSQL"), open_checkpointer(
        uri="postgresql://nobody:secret@127.0.0.1:1/none?connect_timeout=2"
    ):
        pass


# The real graph (offline builtin policy, embedded index), one user turn per process.
GRAPH_TURN = textwrap.dedent(
    """
    import json, sys
    from hopgraph.api import run, thread_state
    from hopgraph.checkpoint import open_checkpointer
    from hopgraph.config import Context

    with open_checkpointer() as saver:
        out = run(sys.argv[2], context=Context(model="builtin", index=sys.argv[3]), thread_id=sys.argv[1],
                  checkpointer=saver)
        state = thread_state(sys.argv[1], checkpointer=saver)
    humans = [m.content for m in state["messages"] if m.type == "human"]
    print(json.dumps({"reported_ids": out["reported_ids"], "exit_reason": out["exit_reason"],
                      "turns": out["turns"], "humans": humans,
                      "first_prompt_tokens": out["trace"][0]["prompt_tokens"]}))
    """
)


def test_real_graph_thread_continues_across_processes(pg, tmp_path):
    from tests.support.index import make_index

    uri, schema = pg
    index = make_index(str(tmp_path / "index"))
    tid = f"t-{uuid.uuid4().hex}"
    one = json.loads(_run(GRAPH_TURN, tid, "Which supplier delivered Project Alpha late?", index))
    assert "alpha" in one["reported_ids"] and one["exit_reason"] and one["turns"] >= 1
    two = json.loads(_run(GRAPH_TURN, tid, "Where is that supplier based?", index))
    assert two["humans"] == ["Which supplier delivered Project Alpha late?", "Where is that supplier based?"]
    # The second turn's first prompt carries the first turn's history.
    assert two["first_prompt_tokens"] > one["first_prompt_tokens"]
    assert "norvik" in two["reported_ids"]

    _run("import sys; from hopgraph.api import delete_thread; delete_thread(sys.argv[1]); print('ok')", tid)
    for table in ("checkpoints", "checkpoint_writes", "checkpoint_blobs"):
        assert count_rows(uri, schema, table, tid) == 0, table


def test_threads_are_listed_from_postgres(pg):
    from hopgraph.api import list_threads, run
    from hopgraph.index.memory import MemoryBackend

    backend = MemoryBackend()
    backend.add_text("norvik", "Norvik profile", "Norvik is a steel supplier based in Bergen.")
    assert list_threads() == []
    first, second = f"t-{uuid.uuid4().hex}", f"t-{uuid.uuid4().hex}"
    run("Where is Norvik based?", backend=backend, model="builtin", thread_id=first)
    run("And since when?", backend=backend, model="builtin", thread_id=first)
    run("Who supplies steel?", backend=backend, model="builtin", thread_id=second)
    listed = list_threads()
    assert [t["thread_id"] for t in listed] == [second, first]
    assert [(t["first_question"], t["questions"]) for t in listed] == [("Who supplies steel?", 1),
                                                                      ("Where is Norvik based?", 2)]
