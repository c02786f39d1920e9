"""The loop's own overhead: time per turn with a model and an index that cost nothing.

An instant scripted model asks for three searches in parallel each turn and reports on the tenth; the in-memory
backend answers at once. What is left is the graph: its nodes, the checkpointer, prompt token counts, the tool
executor, and LangGraph's own scheduling. Two ways take turns question by question, side by side:

- ``current``: ``hopgraph.run`` as it is;
- ``floor``: a bare LangGraph graph with the same nodes, edges and routes as hopgraph's compiled graph (read
  from it, so it follows whatever shape the tree under test has) and the same state schema, whose nodes do
  nothing but count turns: what LangGraph itself costs for that shape on this machine, which no node can save.

    python bench/bench_loop.py [--runs 60] [--turns 10] [--checkpointer none|memory|sqlite]

Prints a table: median and p95 ms per turn and per run, CPU ms per turn, and current minus floor (hopgraph's
own share of a turn) with the ratio current / floor.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import StateGraph

from hopgraph import Context, api
from hopgraph.index.memory import MemoryBackend
from hopgraph.state import InputState, OutputState, State


class InstantModel(BaseChatModel):
    """Three searches a turn, a report on the last turn; no time spent."""

    turns: int = 10

    @property
    def _llm_type(self) -> str:
        return "instant"

    def bind_tools(self, tools: Any, **kwargs: Any) -> InstantModel:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        turn = sum(isinstance(m, AIMessage) for m in messages) + 1
        if turn >= self.turns:
            calls = [{"name": "report_helpful_ids", "args": {"ids": ["d1", "d2"]}, "id": f"r{turn}"}]
        else:
            # Each search names a supplier of its own, so every round finds something new.
            calls = [{"name": "search", "args": {"query": f"supplier code{3 * turn + i} delivery", "limit": 5},
                      "id": f"c{turn}-{i}"} for i in range(3)]
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="", tool_calls=calls))])


def corpus() -> MemoryBackend:
    backend = MemoryBackend()
    for i in range(40):
        backend.add_text(f"doc-{i}", f"Document {i}",
                         f"Supplier code{i} delivers steel and copper; its last delivery was late.")
    return backend


@contextlib.contextmanager
def saver(kind: str) -> Iterator[Any]:
    if kind == "none":
        yield None
    elif kind == "memory":
        from langgraph.checkpoint.memory import InMemorySaver

        yield InMemorySaver()
    else:
        from hopgraph.checkpoint import open_checkpointer

        with tempfile.TemporaryDirectory() as tmp, open_checkpointer(path=str(Path(tmp) / "c.sqlite")) as lite:
            yield lite


def floor_graph(checkpointer: Any, turns: int) -> Any:
    """hopgraph's graph with every node next to free: the same nodes, edges and conditional routes (each route
    map as built), over the same state schema. Its routers go on while fewer than ``turns`` turns have run,
    then take the route to ``finalize``."""
    shape = api.compiled_graph().builder

    def count_turn(state: State) -> dict[str, Any]:
        return {"turns": state.get("turns", 0) + 1}

    def reported(state: State) -> dict[str, Any]:
        return {"exit_reason": "reported"}

    def nothing(state: State) -> dict[str, Any]:
        return {}

    builder = StateGraph(State, input_schema=InputState, output_schema=OutputState)
    for name in shape.nodes:
        builder.add_node(name, {"generate": count_turn, "finalize": reported}.get(name, nothing))
    for source, target in shape.edges:
        builder.add_edge(source, target)
    for source, branches in shape.branches.items():
        for branch in branches.values():
            ends = dict(branch.ends or {})
            out = next(label for label, target in ends.items() if target == "finalize")

            def route(state: State, out: Any = out) -> Any:
                return "next_round" if state.get("turns", 0) < turns else out

            builder.add_conditional_edges(source, route, ends)
    return builder.compile(checkpointer=checkpointer)


def run_floor(graph: Any, question: str, thread: str | None) -> dict[str, Any]:
    config: dict[str, Any] = {"configurable": {"thread_id": thread or "floor"}, "recursion_limit": 1000}
    return dict(graph.invoke({"messages": [{"role": "user", "content": question}]}, config=config))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--checkpointer", choices=("none", "memory", "sqlite"), default="none")
    args = ap.parse_args()

    context = Context(chat_model=InstantModel(turns=args.turns), backend=corpus(), max_turns=args.turns)
    ways = ("current", "floor")
    per_turn: dict[str, list[float]] = {way: [] for way in ways}
    per_run: dict[str, list[float]] = {way: [] for way in ways}
    # CPU time of the whole process (all threads): on a busy machine it moves far less than wall time.
    cpu_per_turn: dict[str, list[float]] = {way: [] for way in ways}
    with saver(args.checkpointer) as checkpointer:
        floor = floor_graph(checkpointer, args.turns)

        def one(way: str, question: str, thread: str | None) -> dict[str, Any]:
            if way == "floor":
                return run_floor(floor, question, thread)
            return api.run(question, context=context, checkpointer=checkpointer, thread_id=thread)

        # Warm both once (imports, tiktoken's tables, the executor's threads).
        for way in ways:
            one(way, "warm up", f"warm-{way}" if checkpointer is not None else None)
        for i in range(args.runs):
            # Alternate which goes first, so drift on a noisy machine falls on both alike.
            for way in ways if i % 2 == 0 else tuple(reversed(ways)):
                thread = f"{way}-{i}" if checkpointer is not None else None
                started, cpu_started = time.perf_counter(), time.process_time()
                result = one(way, f"Which supplier delivered steel late? ({way} {i})", thread)
                elapsed = (time.perf_counter() - started) * 1000
                cpu = (time.process_time() - cpu_started) * 1000
                assert result["turns"] == args.turns and result["exit_reason"] == "reported", result
                per_run[way].append(elapsed)
                per_turn[way].append(elapsed / result["turns"])
                cpu_per_turn[way].append(cpu / result["turns"])

    print(f"loop overhead: {args.runs} runs of {args.turns} turns, 3 parallel searches a turn, "
          f"checkpointer {args.checkpointer}")
    print("| way | ms/turn p50 | ms/turn p95 | CPU ms/turn p50 | ms/run p50 |")
    print("|---|---:|---:|---:|---:|")
    for way in ways:
        print(f"| {way} | {statistics.median(per_turn[way]):.2f} | {pct(per_turn[way], 95):.2f} | "
              f"{statistics.median(cpu_per_turn[way]):.2f} | {statistics.median(per_run[way]):.1f} |")
    for name, values in (("wall", per_turn), ("CPU", cpu_per_turn)):
        current, floor_ms = statistics.median(values["current"]), statistics.median(values["floor"])
        print(f"current minus floor, median {name} ms per turn: {current - floor_ms:.2f} "
              f"(current / floor {current / floor_ms:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
