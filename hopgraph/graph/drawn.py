"""The compiled graph as ``get_graph()`` (and so LangGraph Studio) draws it: every route of a conditional edge
is an edge of its own, with its label.

LangGraph's drawing keeps one edge per pair of nodes, so routes that share a destination (every exit out of
``decide`` ends in ``finalize``) would be drawn as one edge carrying one of their names. The routes drawn here
are read from the graph's own branches, so the picture is the wiring as built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables.config import RunnableConfig
from langchain_core.runnables.graph import Edge, Graph
from langgraph.graph.state import CompiledStateGraph


class RoutedGraph(CompiledStateGraph[Any, Any, Any, Any]):
    """A compiled graph whose drawing shows each route out of a conditional edge."""

    def get_graph(self, config: RunnableConfig | None = None, *, xray: int | bool = False) -> Graph:
        return with_routes(super().get_graph(config, xray=xray), self.builder.branches)

    async def aget_graph(self, config: RunnableConfig | None = None, *, xray: int | bool = False) -> Graph:
        return with_routes(await super().aget_graph(config, xray=xray), self.builder.branches)


def routed(compiled: CompiledStateGraph[Any, Any, Any, Any]) -> RoutedGraph:
    """The same compiled graph, drawn route by route (made the way LangGraph's own ``copy`` makes one)."""
    return RoutedGraph(**{k: v for k, v in compiled.__dict__.items() if k != "__orig_class__"})


def with_routes(drawn: Graph, branches: Mapping[str, Mapping[str, Any]]) -> Graph:
    """``drawn`` with LangGraph's edges for each branch replaced by one labelled edge per route, in their place."""
    for source, by_name in branches.items():
        for branch in by_name.values():
            ends: Mapping[Any, str] = branch.ends or {}
            routes = [Edge(source, target, None if str(label) == target else str(label), True)
                      for label, target in ends.items() if source in drawn.nodes and target in drawn.nodes]
            targets = {edge.target for edge in routes}
            folded = [i for i, e in enumerate(drawn.edges) if e.source == source and e.target in targets]
            if not folded:
                continue
            kept = [e for i, e in enumerate(drawn.edges) if i not in folded]
            drawn.edges = [*kept[:folded[0]], *routes, *kept[folded[0]:]]
    return drawn
