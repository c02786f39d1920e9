"""What keeps the loop's own cost down: one compiled graph per process, token counts kept across turns; and what
keeps its benchmark fair: the floor it measures against runs the same steps as the graph."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph import Context, api
from hopgraph.tokens import count_messages, count_text
from tests.scripted import search_then_report_context


def test_the_graph_is_compiled_once_and_each_run_uses_its_own_checkpointer() -> None:
    api.run("Who supplies steel bolts?", context=search_then_report_context())
    compiled = api._compiled.cache_info().misses
    first, second = InMemorySaver(), InMemorySaver()
    out = api.run("Who supplies steel bolts?", context=search_then_report_context(), checkpointer=first, thread_id="t")
    assert out["reported_ids"] == ["acme"]
    api.run("Who supplies steel bolts?", context=search_then_report_context(), checkpointer=second, thread_id="u")
    assert api._compiled.cache_info().misses == compiled  # no new compilation
    # Each thread went to the checkpointer its run named, and only there.
    assert api.thread_state("t", checkpointer=first)["reported_ids"] == ["acme"]
    assert first.get_tuple({"configurable": {"thread_id": "u"}}) is None
    assert second.get_tuple({"configurable": {"thread_id": "u"}}) is not None
    assert api.compiled_graph().checkpointer is None


def test_prompt_tokens_are_encoded_once_per_message() -> None:
    conversation: list = [HumanMessage("Which supplier delivered the housings late, and what penalty applies?")]
    count_text.cache_clear()
    totals = []
    for turn in range(5):
        totals.append(count_messages(conversation))
        misses = count_text.cache_info().misses
        search = {"name": "search", "args": {"query": f"q{turn}"}, "id": f"c{turn}"}
        found = f"<doc id='d{turn}'>Result {turn} " + "text " * 200 + "</doc>"
        conversation += [AIMessage(content=f"turn {turn}", tool_calls=[search]),
                         ToolMessage(content=found, tool_call_id=f"c{turn}")]
        count_messages(conversation)
        # The new turn's texts are encoded; the earlier ones come from memory.
        assert count_text.cache_info().misses - misses <= 4
    # Counts are the same as encoding everything afresh.
    count_text.cache_clear()
    assert count_messages(conversation[:1]) == totals[0]
    assert totals == sorted(totals) and totals[-1] > totals[0]


def _bench_loop() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "bench_loop.py"
    spec = importlib.util.spec_from_file_location("bench_loop", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_loop", module)
    spec.loader.exec_module(module)
    return module


def routes(builder: Any) -> dict[str, list[dict[Any, str]]]:
    return {source: [dict(b.ends or {}) for b in branches.values()] for source, branches in builder.branches.items()}


def test_the_benchmark_floor_runs_the_same_steps_as_the_graph() -> None:
    bench = _bench_loop()
    turns = 4
    floor = bench.floor_graph(None, turns)
    shape = api.compiled_graph().builder
    assert set(floor.builder.nodes) == set(shape.nodes) and floor.builder.edges == shape.edges
    assert routes(floor.builder) == routes(shape)
    context = Context(chat_model=bench.InstantModel(turns=turns), backend=bench.corpus(), max_turns=turns)
    graph_steps = [next(iter(update)) for update in api.stream("Which supplier was late?", context=context)]
    config = {"configurable": {"thread_id": "floor"}}
    floor_steps = [next(iter(update)) for update in floor.stream(
        {"messages": [{"role": "user", "content": "Which supplier was late?"}]}, config=config, stream_mode="updates")]
    assert floor_steps == graph_steps
    assert graph_steps.count("generate") == turns and graph_steps.count("budget_notice") == turns - 1
