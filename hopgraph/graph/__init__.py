"""The graph, wired. ``graph`` is what langgraph.json serves (no checkpointer: the server brings its own)."""

from hopgraph.graph.build import build_graph

graph = build_graph()

__all__ = ["build_graph", "graph"]
