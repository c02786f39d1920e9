"""The graph, wired. ``graph`` is what langgraph.json serves: no checkpointer (the server brings its own), and
the served context schema (callers set only what ``hopgraph.serving.settings`` lets them)."""

from hopgraph.graph.build import build_graph

graph = build_graph(served=True)

__all__ = ["build_graph", "graph"]
