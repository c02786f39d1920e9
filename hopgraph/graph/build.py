"""Wiring only: nodes live in hopgraph.nodes."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from hopgraph.config import Context
from hopgraph.nodes.decide import decide, route_after_decide
from hopgraph.nodes.finalize import finalize
from hopgraph.nodes.generate import generate
from hopgraph.nodes.prepare import prepare
from hopgraph.nodes.tools import tools_node
from hopgraph.serving.settings import ServedContext, with_served_context
from hopgraph.state import FINALIZE, NEXT_ROUND, RETRY, InputState, OutputState, State


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
    add("finalize", finalize)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "generate")
    builder.add_edge("generate", "tools")
    builder.add_edge("tools", "decide")
    builder.add_conditional_edges(
        "decide", route_after_decide, {FINALIZE: "finalize", NEXT_ROUND: "generate", RETRY: "generate"}
    )
    builder.add_edge("finalize", END)
    return builder.compile(checkpointer=checkpointer, name="hopgraph")
