"""search(query, limit): hybrid (dense + BM25) search over the caller's containers."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from hopgraph.config import Context
from hopgraph.index.rerank import Reranker, get_reranker
from hopgraph.tools._documents import CANDIDATES_PER_DOC, best_chunk_per_doc, render_hits
from hopgraph.tools.base import (
    Ledger,
    Rendered,
    Tool,
    ToolEnv,
    ToolOutcome,
    check_query_args,
    search_parameters,
)

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


class SearchTool(Tool):
    name = "search"
    description = (
        "Semantic search: finds documents whose meaning matches the query, also when they use other words. "
        "Returns the best documents, each with an id and a snippet."
    )
    parameters = search_parameters()
    is_search = True

    def check_args(self, args: Mapping[str, Any], context: Context) -> dict[str, Any]:
        return check_query_args(args, context)

    def run(self, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
        reranker = cached_reranker(env.context.reranker)
        depth = args["limit"] * CANDIDATES_PER_DOC
        if reranker is None:
            hits = env.backend.search(args["query"], env.scope, depth)
        else:
            # Rerank a wider candidate pool, then keep the best chunk per document as usual.
            pool = env.backend.search(args["query"], env.scope, max(depth, env.context.rerank_candidates))
            hits = reranker.rerank(args["query"], pool)
        return ToolOutcome(hits=best_chunk_per_doc(hits, args["limit"]), data={"query": args["query"]})

    def render(self, outcome: ToolOutcome, ledger: Ledger, env: ToolEnv) -> Rendered:
        return render_hits(self.name, outcome.data.get("query", ""), outcome, ledger)
