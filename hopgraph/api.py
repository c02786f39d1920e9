"""The Python API: run a question through the graph, sync, async or streaming.

    from hopgraph import Context, run
    result = run("Which supplier missed the deadline?", context=Context(containers=["default"]))
    result["reported_ids"], result["exit_reason"], result["turns"], result["trace"]

Pass ``thread_id`` to continue a conversation; without a ``checkpointer`` the default
SQLite store is used for threads (see ``hopgraph.checkpoint``).
"""

from __future__ import annotations

import contextlib
import functools
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from typing import Any

from hopgraph.config import Context
from hopgraph.errors import InputError
from hopgraph.graph.build import build_graph
from hopgraph.state import check_question

RESULT_KEYS = ("reported_ids", "exit_reason", "turns", "trace", "error", "titles", "answer", "citations", "markers")
# Generous: the turn cap, not the recursion limit, is what bounds a run.
RECURSION_LIMIT = 200
# Write each checkpoint before the next step starts, so a killed process loses at most the step in flight.
DURABILITY = "sync"


@functools.lru_cache(maxsize=1)
def _compiled() -> Any:
    return build_graph()


def compiled_graph(checkpointer: Any = None) -> Any:
    """The local graph, compiled once per process (compiling inspects every node, about 40 ms).

    With a checkpointer, a copy that uses it: copying the compiled graph costs about 0.1 ms.
    """
    graph = _compiled()
    return graph if checkpointer is None else graph.copy(update={"checkpointer": checkpointer})


def _context(context: Context | None, overrides: dict[str, Any]) -> Context:
    base = context or Context()
    return replace(base, **overrides) if overrides else base


def _inputs(question: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": check_question(question)}]}


def _config(thread_id: str | None) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id or uuid.uuid4().hex}, "recursion_limit": RECURSION_LIMIT}


def _run_args(question: str, thread_id: str | None, context: Context, saver: Any) -> dict[str, Any]:
    """What invoke/stream take, the same for every entry point."""
    args: dict[str, Any] = {"input": _inputs(question), "config": _config(thread_id), "context": context}
    if saver is not None:
        # Only meaningful with a checkpointer (and LangGraph rejects it without one).
        args["durability"] = DURABILITY
    return args


def _result(state: dict[str, Any], thread_id: str | None) -> dict[str, Any]:
    result = {k: state[k] for k in RESULT_KEYS if k in state}
    if thread_id:
        result["thread_id"] = thread_id
    return result


@contextlib.contextmanager
def _saver(checkpointer: Any, thread_id: str | None) -> Iterator[Any]:
    if checkpointer is not None or thread_id is None:
        yield checkpointer
        return
    from hopgraph.checkpoint import open_checkpointer

    with open_checkpointer() as saver:
        yield saver


def run(
    question: str,
    *,
    context: Context | None = None,
    thread_id: str | None = None,
    checkpointer: Any = None,
    **overrides: Any,
) -> dict[str, Any]:
    """Run one question; returns reported_ids, exit_reason, turns, trace (and answer fields in answer mode)."""
    ctx = _context(context, overrides)
    with _saver(checkpointer, thread_id) as saver:
        graph = compiled_graph(saver)
        state = graph.invoke(**_run_args(question, thread_id, ctx, saver))
    return _result(state, thread_id)


def stream(
    question: str,
    *,
    context: Context | None = None,
    thread_id: str | None = None,
    checkpointer: Any = None,
    **overrides: Any,
) -> Iterator[dict[str, Any]]:
    """Yield ``{node_name: update}`` after each node, as the run goes."""
    ctx = _context(context, overrides)
    with _saver(checkpointer, thread_id) as saver:
        graph = compiled_graph(saver)
        yield from graph.stream(**_run_args(question, thread_id, ctx, saver), stream_mode="updates")


@contextlib.asynccontextmanager
async def _async_saver(checkpointer: Any, thread_id: str | None) -> AsyncIterator[Any]:
    if checkpointer is not None or thread_id is None:
        yield checkpointer
        return
    from hopgraph.checkpoint import checkpointer as open_async_checkpointer

    async with open_async_checkpointer() as saver:
        yield saver


async def arun(
    question: str,
    *,
    context: Context | None = None,
    thread_id: str | None = None,
    checkpointer: Any = None,
    **overrides: Any,
) -> dict[str, Any]:
    """Async form of :func:`run` (the checkpointer, if given, must be an async saver)."""
    ctx = _context(context, overrides)
    async with _async_saver(checkpointer, thread_id) as saver:
        graph = compiled_graph(saver)
        state = await graph.ainvoke(**_run_args(question, thread_id, ctx, saver))
    return _result(state, thread_id)


async def astream(
    question: str,
    *,
    context: Context | None = None,
    thread_id: str | None = None,
    checkpointer: Any = None,
    **overrides: Any,
) -> AsyncIterator[dict[str, Any]]:
    ctx = _context(context, overrides)
    async with _async_saver(checkpointer, thread_id) as saver:
        graph = compiled_graph(saver)
        async for update in graph.astream(**_run_args(question, thread_id, ctx, saver), stream_mode="updates"):
            yield update


def _delete(saver: Any, thread_id: str) -> None:
    from hopgraph.checkpoint import thread_exists

    if not thread_exists(saver, thread_id):
        raise InputError(f"no conversation with thread id '{thread_id}'")
    saver.delete_thread(thread_id)


def delete_thread(thread_id: str, checkpointer: Any = None) -> None:
    """Delete a conversation: every checkpoint of the thread. Unknown ids raise InputError."""
    if checkpointer is not None:
        _delete(checkpointer, thread_id)
        return
    from hopgraph.checkpoint import open_checkpointer

    with open_checkpointer() as saver:
        _delete(saver, thread_id)


def list_threads(checkpointer: Any = None) -> list[dict[str, Any]]:
    """The stored conversations, the latest activity first: ``thread_id``, ``first_question``, ``questions`` (how
    many were asked), ``last_activity`` (UTC, ISO 8601) and ``last_exit_reason``. Without a ``checkpointer``, the
    default store's (``hopgraph.checkpoint``); threads a LangGraph server wrote are its callers' and not listed."""
    from hopgraph.checkpoint import latest_checkpoints, open_checkpointer

    with contextlib.ExitStack() as stack:
        saver = checkpointer if checkpointer is not None else stack.enter_context(open_checkpointer())
        threads = [_thread_summary(found) for found in latest_checkpoints(saver)]
    return sorted(threads, key=lambda t: (t["last_activity"], t["thread_id"]), reverse=True)


def _thread_summary(found: Any) -> dict[str, Any]:
    from hopgraph.state import is_question

    values = found.checkpoint.get("channel_values") or {}
    questions = [m for m in values.get("messages") or [] if is_question(m)]
    first = questions[0].content if questions else ""
    return {
        "thread_id": found.config["configurable"]["thread_id"],
        "first_question": first if isinstance(first, str) else str(first),
        "questions": len(questions),
        "last_activity": str(found.checkpoint.get("ts") or ""),
        "last_exit_reason": values.get("exit_reason"),
    }


def thread_state(thread_id: str, checkpointer: Any = None) -> dict[str, Any]:
    """The stored state of a conversation. Unknown ids raise InputError."""
    with _saver(checkpointer, thread_id) as saver:
        snapshot = compiled_graph(saver).get_state({"configurable": {"thread_id": thread_id}})
    if not snapshot.values:
        raise InputError(f"no conversation with thread id '{thread_id}'")
    return dict(snapshot.values)
