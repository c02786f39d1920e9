"""hopgraph: agentic multi-hop retrieval over Qdrant, as a LangGraph graph.

Public API: ``Context``, ``run``, ``arun``, ``stream``, ``astream``, ``delete_thread``.
"""

from typing import Any

__all__ = ["Context", "arun", "astream", "delete_thread", "run", "stream"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # Lazy, so that importing a submodule (say the index) does not load the whole graph.
    if name == "Context":
        from hopgraph.config import Context

        return Context
    if name in ("arun", "astream", "delete_thread", "run", "stream"):
        from hopgraph import api

        return getattr(api, name)
    raise AttributeError(name)
