"""Wiring only: nodes live in hopgraph.nodes."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from langgraph.graph import END, START, StateGraph

from hopgraph.config import Context
from hopgraph.graph.drawn import routed
from hopgraph.nodes.budget_notice import budget_notice
from hopgraph.nodes.decide import EXIT_ROUTES, decide, route_after_decide
from hopgraph.nodes.finalize import finalize
from hopgraph.nodes.generate import generate
from hopgraph.nodes.prepare import prepare
from hopgraph.nodes.tools import tools_node
from hopgraph.serving.settings import ServedContext, with_served_context
from hopgraph.state import InputState, OutputState, State

# Each route out of decide is a labelled edge: every exit ends in finalize, the next round starts with the
# turn-budget notice, and the retry after a nudge goes straight back to the model.
AFTER_DECIDE: dict[Hashable, str] = {**dict.fromkeys(EXIT_ROUTES.values(), "finalize"), "next_round": "budget_notice",
                                     "retry": "generate"}


def build_graph(checkpointer: Any = None, *, served: bool = False) -> Any:
    """The graph. ``served``: the schema callers of a server may set, each node given the full Context."""
    schema: type = ServedContext if served else Context
    builder = StateGraph(State, context_schema=schema, input_schema=InputState, output_schema=OutputState)

    def add(name: str, node: Any) -> None:
        builder.add_node(name, with_served_context(node) if served else node)

    add("prepare", prepare)
    add("generate", generate)
    add("tools", tools_node)
    add("decide", decide)
    add("budget_notice", budget_notice)
    add("finalize", finalize)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "generate")
    builder.add_edge("generate", "tools")
    builder.add_edge("tools", "decide")
    builder.add_conditional_edges("decide", route_after_decide, AFTER_DECIDE)
    builder.add_edge("budget_notice", "generate")
    builder.add_edge("finalize", END)
    return routed(builder.compile(checkpointer=checkpointer, name="hopgraph"))
