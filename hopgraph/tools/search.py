"""search(query, limit): hybrid (dense + BM25) search over the caller's containers."""

from __future__ import annotations

import threading

from hopgraph.index.backend import Hit
from hopgraph.index.rerank import Reranker, get_reranker
from hopgraph.tools._documents import DocumentSearchTool
from hopgraph.tools.base import ToolEnv

_rerankers: dict[str, Reranker | None] = {}
_rerankers_lock = threading.Lock()


def cached_reranker(spec: str | None) -> Reranker | None:
    """One reranker per spec and process (a cross-encoder is expensive to load)."""
    if not spec or spec.strip().lower() == "none":
        return None
    with _rerankers_lock:
        if spec not in _rerankers:
            _rerankers[spec] = get_reranker(spec)
        return _rerankers[spec]


class SearchTool(DocumentSearchTool):
    name = "search"
    description = (
        "Semantic search: finds documents whose meaning matches the query, also when they use other words. "
        "Returns the best documents, each with an id and a snippet."
    )

    def find(self, query: str, env: ToolEnv, depth: int) -> list[Hit]:
        reranker = cached_reranker(env.context.reranker)
        if reranker is None:
            return env.backend.search(query, env.scope, depth)
        # Rerank a wider candidate pool; the best chunk per document is kept afterwards as usual.
        pool = env.backend.search(query, env.scope, max(depth, env.context.rerank_candidates))
        return reranker.rerank(query, pool)
