"""The graph as the design card draws it, read from the compiled graph's drawing (``get_graph()``, what LangGraph
Studio shows): nodes for the model call, the parallel tool calls, the sufficiency decision, the budget notice and
finalize, and a labelled conditional edge for each route out of ``decide``: the ``report_helpful_ids`` exit
(exit reason ``reported``), the max-turn empty exit, the next round through ``budget_notice``, and the others,
each named. Checked for the local graph and the served one (``hopgraph.graph:graph``); the README draws the
same graph."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest

import hopgraph.graph
from hopgraph.graph.build import AFTER_DECIDE, build_graph
from hopgraph.index.memory import MemoryBackend
from hopgraph.nodes.decide import EXIT_ROUTES, EXITS, route_after_decide
from hopgraph.state import RouteState
from tests.scripted import ScriptedChatModel, call, calls

README = Path(__file__).resolve().parent.parent / "README.md"

CARD_NODES = {"__start__", "prepare", "generate", "tools", "decide", "budget_notice", "finalize", "__end__"}
LOOP = {("__start__", "prepare", None, False), ("prepare", "generate", None, False),
        ("generate", "tools", None, False), ("tools", "decide", None, False),
        ("budget_notice", "generate", None, False), ("finalize", "__end__", None, False)}
CARD_ROUTES = {
    ("decide", "finalize", "report_helpful_ids", True),  # exit reason "reported"
    ("decide", "finalize", "max_turns", True),  # the max-turn empty exit
    ("decide", "budget_notice", "next_round", True),  # the next round
}
OTHER_ROUTES = {
    ("decide", "finalize", "answered", True),  # answer mode's final answer
    ("decide", "finalize", "no_tool_call", True),
    ("decide", "finalize", "thrash", True),
    ("decide", "finalize", "budget", True),
    ("decide", "finalize", "model_error", True),
    ("decide", "finalize", "backend_error", True),
    ("decide", "generate", "retry", True),  # after a nudge, straight back to the model
}


def edges(drawn: Any) -> list[tuple[str, str, str | None, bool]]:
    return [(e.source, e.target, e.data, e.conditional) for e in drawn.edges]


@pytest.mark.parametrize("which", ["local", "served"])
async def test_the_compiled_graph_is_the_card(which: str) -> None:
    graph = build_graph() if which == "local" else hopgraph.graph.graph
    # get_graph for Python callers, aget_graph for the server that feeds Studio: the same picture.
    for drawn in (graph.get_graph(), await graph.aget_graph()):
        assert set(drawn.nodes) == CARD_NODES
        drawn_edges = edges(drawn)
        assert len(drawn_edges) == len(set(drawn_edges)), drawn_edges
        assert set(drawn_edges) == LOOP | CARD_ROUTES | OTHER_ROUTES
        as_json = drawn.to_json()["edges"]
        assert {"source": "decide", "target": "finalize", "data": "max_turns", "conditional": True} in as_json


def test_the_router_returns_only_the_routes_the_graph_draws() -> None:
    routes = set(get_args(get_type_hints(route_after_decide)["return"]))
    assert routes == set(AFTER_DECIDE) == {label for _, _, label, _ in CARD_ROUTES | OTHER_ROUTES}


@pytest.mark.parametrize(("state", "route"), [
    *[({"exit_reason": reason, "nudged": True}, EXIT_ROUTES[reason]) for reason in EXITS],
    ({"exit_reason": "reported"}, "report_helpful_ids"),
    ({"exit_reason": "", "nudged": True}, "retry"),
    ({"exit_reason": "", "nudged": False}, "next_round"),
    ({}, "next_round"),
])
def test_the_router_reads_the_exit_and_the_nudge(state: RouteState, route: str) -> None:
    assert route_after_decide(state) == route


def test_an_unknown_exit_is_an_error_not_a_route() -> None:
    with pytest.raises(ValueError, match="unknown exit 'lost'"):
        route_after_decide({"exit_reason": "lost"})


def test_a_run_takes_the_routes_as_drawn() -> None:
    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts.")
    backend.add_text("globex", "Globex contract", "Globex supplies copper wire.")
    model = ScriptedChatModel(replies=[
        calls(),  # no tool call: nudged, then retried without a budget notice
        calls(call("search", {"query": "steel"})),
        calls(call("search", {"query": "copper"})),
        calls(call("report_helpful_ids", {"ids": ["d1"]})),
    ])
    from hopgraph import Context, stream

    nodes = [next(iter(update)) for update in stream("Who supplies steel?", context=Context(chat_model=model,
                                                                                            backend=backend))]
    assert nodes == ["prepare",
                     "generate", "tools", "decide",  # retry
                     "generate", "tools", "decide", "budget_notice",  # next_round
                     "generate", "tools", "decide", "budget_notice",  # next_round
                     "generate", "tools", "decide", "finalize"]  # reported


def mermaid_lines(text: str) -> list[str]:
    """The nodes and edges of a mermaid graph (not its front matter or styles)."""
    body = text[text.index("graph TD;"):]
    return [line.strip() for line in body.splitlines()[1:] if line.strip() and not line.strip().startswith("classDef")]


def test_the_readme_draws_the_compiled_graph() -> None:
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("\n## The graph\n"):]
    block = re.search(r"```mermaid\n(.*?)```", section, re.S)
    assert block is not None
    assert mermaid_lines(block.group(1)) == mermaid_lines(build_graph().get_graph().draw_mermaid()), (
        "regenerate the README's mermaid: python -c 'from hopgraph.graph import graph; "
        "print(graph.get_graph().draw_mermaid())'")
