"""hopgraph: agentic multi-hop retrieval over Qdrant, as a LangGraph graph.

Public API: ``Context``, ``run``, ``arun``, ``stream``, ``astream``, ``delete_thread``; for other applications
``HopgraphRetriever`` (LangChain retriever), ``as_tool`` (LangChain tool) and ``as_node`` (LangGraph node).
"""

from typing import Any

__all__ = ["Context", "HopgraphRetriever", "arun", "as_node", "as_tool", "astream", "delete_thread", "run", "stream"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # Lazy, so that importing a submodule (say the index) does not load the whole graph.
    if name == "Context":
        from hopgraph.config import Context

        return Context
    if name in ("arun", "astream", "delete_thread", "run", "stream"):
        from hopgraph import api

        return getattr(api, name)
    if name in ("HopgraphRetriever", "as_node", "as_tool"):
        from hopgraph import integrations

        return getattr(integrations, name)
    raise AttributeError(name)
