"""Fuzzed tool calls: whatever a model sends, the tools node answers every call with one clear
tool message and never raises. Over 10,000 generated cases (hypothesis, derandomized)."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from hopgraph.config import Context
from hopgraph.graph import build_graph
from hopgraph.index.memory import MemoryBackend
from hopgraph.nodes.tools import tools_node
from tests.scripted import ScriptedChatModel, call, calls

IDS_TOOLS = ["search", "text_search", "read", "report_helpful_ids"]
ANSWER_TOOLS = ["search_documents", "run_python", "rewrite_query"]
ARG_KEYS = ["query", "limit", "id", "ids", "code", "container", "containers", "tags", "filter", "", "\x00",
            "__class__", "query ", "QUERY"]
# Longest sensible error message: a sentence, never an echo of a huge argument.
MAX_ERROR_CHARS = 600


def _backend() -> MemoryBackend:
    b = MemoryBackend()
    b.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts; late delivery costs 2 percent.")
    b.add_text("globex", "Globex contract", "Globex supplies copper wire.")
    b.add_text("other", "Other tenant", "Acme secret pricing.", container="other")
    return b


BACKEND = _backend()
SERDE = JsonPlusSerializer()

surrogates = st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\ud83d", "\x00", "\ufffd", "\u202e", "\u200b"])
huge = st.sampled_from(["x" * 5_000, "é" * 70_000, "d1" * 100_000, " " * 10_000, "\n" * 4_001])
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -1, 1, 15, 16, 10**18, 2.5, 1.0, -0.0, float("nan"), float("inf"), True, False]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=40), surrogates, huge)
junk = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=6)
arg_values = st.one_of(scalars, junk, st.lists(st.one_of(st.text(max_size=10), junk), max_size=6))
args_dicts = st.dictionaries(st.one_of(st.sampled_from(ARG_KEYS), st.text(max_size=10)), arg_values, max_size=5)
any_args = st.one_of(args_dicts, args_dicts, st.lists(scalars, max_size=3), scalars)
names = st.one_of(st.sampled_from(IDS_TOOLS + ANSWER_TOOLS), st.sampled_from(IDS_TOOLS),
                  st.text(max_size=30), surrogates, huge, st.none())
call_ids = st.one_of(st.uuids().map(lambda u: f"call_{u.hex[:10]}"), st.none(), st.just(""), surrogates)
garbage_arg_strings = st.one_of(
    st.text(max_size=60), surrogates, huge,
    st.sampled_from(['{"query": "steel', '{"query": "\\ud800"}', "{'id': 'd1'}", "null", "[]", "{" * 500,
                     '{"ids": ["d1",]}', '{"query": "a"}}', "\x00\x01", '{"limit": NaN}']),
    st.binary(max_size=30).map(lambda b: b.decode("utf-8", "surrogateescape")),
)


@st.composite
def tool_calls(draw: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    valid = []
    for _ in range(draw(st.integers(0, 6))):
        name = draw(names)
        args = draw(any_args)
        if name in ("search", "text_search", "search_documents") and draw(st.booleans()):
            args = {"query": draw(st.one_of(st.text(min_size=1, max_size=30), surrogates, huge)),
                    "limit": draw(st.one_of(numbers, st.none(), st.text(max_size=3), junk))}
        elif name == "read" and draw(st.booleans()):
            args = {"id": draw(st.one_of(st.sampled_from(["d1", "d2", "D1", " d1 ", "ｄ１", "d\u200b1"]), scalars))}
        elif name == "report_helpful_ids" and draw(st.booleans()):
            args = {"ids": draw(st.one_of(st.lists(st.one_of(st.text(max_size=5), junk), max_size=8), scalars))}
        valid.append({"name": name, "args": args, "id": draw(call_ids), "type": "tool_call"})
    invalid = [
        {"name": draw(names), "args": draw(garbage_arg_strings), "id": draw(call_ids),
         "error": draw(st.one_of(st.none(), st.text(max_size=30), huge)), "type": "invalid_tool_call"}
        for _ in range(draw(st.integers(0, 3)))
    ]
    if not valid and not invalid:
        valid.append({"name": draw(names), "args": draw(any_args), "id": draw(call_ids), "type": "tool_call"})
    return valid, invalid


def _state(valid: list[dict[str, Any]], invalid: list[dict[str, Any]]) -> dict[str, Any]:
    ai = AIMessage(content="", tool_calls=[call("search", {"query": "x"}, "placeholder")])
    # Assigned after construction: a model client may hand over anything, validated or not.
    ai.tool_calls = valid  # type: ignore[assignment]
    ai.invalid_tool_calls = invalid  # type: ignore[assignment]
    return {
        "messages": [HumanMessage(content="Who supplies steel?"), ai],
        "doc_to_short": {"acme": "d1", "globex": "d2"},
        "shown": ["d1"],
        "trace": [{"turn": 1, "tool_calls": [], "new_docs": [], "prompt_tokens": 1, "ms": 0.0}],
    }


def _is_clean_success(c: dict[str, Any]) -> bool:
    """Calls that are well-formed enough that they may succeed."""
    return c.get("name") in IDS_TOOLS + ANSWER_TOOLS and isinstance(c.get("args"), dict)


def check_tools_node(valid: list[dict[str, Any]], invalid: list[dict[str, Any]], mode: str) -> None:
    context = Context(backend=BACKEND, containers=["default"], mode=mode, tool_timeout_s=10)
    update = tools_node(_state(valid, invalid), SimpleNamespace(context=context))  # type: ignore[arg-type]
    messages = update["messages"]
    assert len(messages) == len(valid) + len(invalid)
    expected_ids = [c.get("id") for c in valid] + [c.get("id") for c in invalid]
    for message, expected, raw in zip(messages, expected_ids, valid + invalid, strict=True):
        assert isinstance(message, ToolMessage)
        assert isinstance(message.content, str) and message.content
        if expected:
            assert message.tool_call_id == expected
        else:
            assert message.tool_call_id.startswith("call_")  # a generated id, never empty
        if message.status == "error":
            assert message.content.startswith("Error: ")
            assert len(message.content) <= MAX_ERROR_CHARS, (len(message.content), message.content[:200])
            assert isinstance(message.artifact, dict) and message.artifact.get("error")
        else:
            assert raw in valid and _is_clean_success(raw)
        assert "secret pricing" not in message.content  # the foreign container stays out
    assert len({m.id for m in messages}) == len(messages)
    # Everything the node returns can be checkpointed.
    SERDE.dumps_typed(messages)
    json.dumps([m.artifact for m in messages], default=str)
    report = update["report"]
    assert report is None or (isinstance(report, list) and all(isinstance(i, str) for i in report))


COMMON = {"deadline": None, "derandomize": True, "database": None,
          "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]}
# 5,000 + 2,500 + 2,500 = 10,000 generated cases (about 30,000 tool calls) in the default run;
# HOPGRAPH_STRESS_SCALE multiplies them.
SCALE = max(1, int(os.environ.get("HOPGRAPH_STRESS_SCALE", "1")))
IDS_EXAMPLES, ANSWER_EXAMPLES, LIMIT_EXAMPLES = 5000 * SCALE, 2500 * SCALE, 2500 * SCALE


@settings(max_examples=IDS_EXAMPLES, **COMMON)  # type: ignore[arg-type]
@given(tool_calls())
def test_fuzzed_calls_ids_mode(pair: tuple[list[dict[str, Any]], list[dict[str, Any]]]) -> None:
    check_tools_node(*pair, mode="ids")


@settings(max_examples=ANSWER_EXAMPLES, **COMMON)  # type: ignore[arg-type]
@given(tool_calls())
def test_fuzzed_calls_answer_mode(pair: tuple[list[dict[str, Any]], list[dict[str, Any]]]) -> None:
    # run_python is excluded from success paths only by the check itself (it runs in the sandbox).
    valid, invalid = pair
    valid = [c for c in valid if c.get("name") != "run_python"]
    if valid or invalid:
        check_tools_node(valid, invalid, mode="answer")


@settings(max_examples=LIMIT_EXAMPLES, **COMMON)  # type: ignore[arg-type]
@given(st.one_of(numbers, st.text(max_size=5), junk), st.sampled_from(["search", "text_search"]))
def test_fuzzed_limits(limit: Any, name: str) -> None:
    context = Context(backend=BACKEND, containers=["default"])
    state = _state([{"name": name, "args": {"query": "Acme steel", "limit": limit}, "id": "c1",
                     "type": "tool_call"}], [])
    message = tools_node(state, SimpleNamespace(context=context))["messages"][0]  # type: ignore[arg-type]
    good = (not isinstance(limit, bool) and isinstance(limit, int | float) and math.isfinite(limit)
            and limit == int(limit) and limit >= 1) or limit is None
    if good:
        assert message.status == "success"
        assert len(message.artifact["docs"]) <= context.max_search_limit
    else:
        assert message.status == "error" and "'limit'" in message.content


def test_the_run_continues_after_a_fuzzed_turn() -> None:
    """A whole turn of junk, then a valid search and report on the same thread: the run ends reported."""
    junk_turn = AIMessage(content="", tool_calls=[call("search", {"query": 42}, "j1"), call("nope", {}, "j2"),
                                                  call("read", {"id": "\ud800"}, "j3"),
                                                  call("search", {"query": "x", "limit": float("nan")}, "j4")],
                          invalid_tool_calls=[{"name": "search", "args": "{" * 300, "id": "j5", "error": "bad",
                                               "type": "invalid_tool_call"}])
    model = ScriptedChatModel(replies=[
        junk_turn,
        calls(call("search", {"query": "steel bolts"})),
        calls(call("report_helpful_ids", {"ids": ["d1"]})),
    ])
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "fuzz"}}
    result = graph.invoke({"question": "Who supplies steel?"}, config=config,
                          context=Context(chat_model=model, backend=BACKEND))
    assert result["exit_reason"] == "reported" and result["reported_ids"] == ["acme"]
    errors = [m for m in graph.get_state(config).values["messages"] if isinstance(m, ToolMessage)][:5]
    assert [m.tool_call_id for m in errors] == ["j1", "j2", "j3", "j4", "j5"]
    assert all(m.status == "error" for m in errors)


NASTY_QUERIES = ["\ud800", "steel \udfff bolts", "\x00", "steel\x00", '"\ud800"', "-\ud800", "\u202e steel",
                 "x" * 4000, "é" * 4000, '"' * 50, "-" * 20, '"steel', "\U0001f600" * 100, "\udcff\udcfe", "\t\n\r"]


@pytest.fixture(scope="module", params=["edge", "server"])
def real_backend(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from hopgraph.index.backend import Chunk, make_chunk_id
    from hopgraph.index.embed import get_embedder

    if request.param == "edge":
        from hopgraph.index.edge import EdgeBackend

        backend: Any = EdgeBackend(tmp_path_factory.mktemp("fuzz") / "index", embedder=get_embedder("minilm"))
    else:
        from qdrant_client import QdrantClient

        from hopgraph.index.server import ServerBackend

        backend = ServerBackend(client=QdrantClient(":memory:"), embedder=get_embedder("minilm"))
    backend.upsert([Chunk(chunk_id=make_chunk_id("default", "acme", 0), doc_id="acme", index=0, title="Acme",
                          text="Acme Corp supplies steel bolts.", container="default", content_hash="h")])
    yield backend
    backend.close()


@pytest.mark.parametrize("mode,tools", [("ids", ["search", "text_search"]), ("answer", ["search_documents"])])
def test_nasty_query_text_on_the_real_backends(real_backend: Any, mode: str, tools: list[str]) -> None:
    """Lone surrogates (JSON "\\ud800" escapes), NUL, bidi marks, 4,000-character queries: the real
    backends answer every one (no "failed unexpectedly")."""
    valid = [{"name": tool, "args": {"query": q}, "id": f"c{i}_{tool}", "type": "tool_call"}
             for tool in tools for i, q in enumerate(NASTY_QUERIES)]
    state = {"messages": [HumanMessage(content="q"), AIMessage(content="", tool_calls=valid)]}
    out = tools_node(state, SimpleNamespace(context=Context(backend=real_backend, mode=mode)))  # type: ignore[arg-type]
    bad = [(m.tool_call_id, m.content[:120]) for m in out["messages"]
           if m.status == "error" and "must not be empty" not in m.content]  # "\t\n\r" is blank
    assert bad == [], bad
