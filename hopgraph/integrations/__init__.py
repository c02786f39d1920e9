"""hopgraph inside other applications: one small adapter per consumer, each in its own module.

- ``retriever``: ``HopgraphRetriever``, a LangChain retriever.
- ``tool``: ``as_tool``, a LangChain tool for another agent.
- ``subgraph``: ``as_node``, the compiled graph as a node of a parent LangGraph graph with ``messages`` state.
- ``mcp_server``: the MCP server behind ``hopgraph mcp`` (needs the ``mcp`` extra).
- ``runs``: what they share (one run, its best chunks, failures as exceptions, the text form of a result).
"""

from typing import Any

__all__ = ["HopgraphRetriever", "as_node", "as_tool"]


def __getattr__(name: str) -> Any:
    # Lazy: importing the package must not import LangChain (or the mcp SDK) until an adapter is used.
    if name == "HopgraphRetriever":
        from hopgraph.integrations.retriever import HopgraphRetriever

        return HopgraphRetriever
    if name == "as_tool":
        from hopgraph.integrations.tool import as_tool

        return as_tool
    if name == "as_node":
        from hopgraph.integrations.subgraph import as_node

        return as_node
    raise AttributeError(name)
