"""Wiring only: nodes live in hopgraph.nodes."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from hopgraph.config import Context
from hopgraph.nodes.budget_notice import budget_notice
from hopgraph.nodes.decide import FINALIZE, NEXT_ROUND, RETRY, decide, route_after_decide
from hopgraph.nodes.finalize import finalize
from hopgraph.nodes.generate import generate
from hopgraph.nodes.prepare import prepare
from hopgraph.nodes.tools import tools_node
from hopgraph.state import InputState, OutputState, State


def build_graph(checkpointer: Any = None) -> Any:
    builder = StateGraph(State, context_schema=Context, input_schema=InputState, output_schema=OutputState)
    builder.add_node("prepare", prepare)
    builder.add_node("generate", generate)
    builder.add_node("tools", tools_node)
    builder.add_node("decide", decide)
    builder.add_node("budget_notice", budget_notice)
    builder.add_node("finalize", finalize)
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "generate")
    builder.add_edge("generate", "tools")
    builder.add_edge("tools", "decide")
    builder.add_conditional_edges(
        "decide", route_after_decide, {FINALIZE: "finalize", NEXT_ROUND: "budget_notice", RETRY: "generate"}
    )
    builder.add_edge("budget_notice", "generate")
    builder.add_edge("finalize", END)
    return builder.compile(checkpointer=checkpointer, name="hopgraph")
