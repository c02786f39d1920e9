"""Shared by the document search tools: chunk hits to documents, and their rendering."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from hopgraph.formatting import NO_RESULTS, doc_block
from hopgraph.index.backend import Hit
from hopgraph.tools.base import Ledger, QueryTool, Rendered, ToolEnv, ToolOutcome

# Chunk candidates fetched per requested document, so that several chunks of one
# document do not crowd others out of the list.
CANDIDATES_PER_DOC = 3
# Reciprocal-rank constant for ranking gathered documents across rounds.
RRF_K = 60


def best_chunk_per_doc(hits: list[Hit], limit: int) -> list[Hit]:
    seen: set[str] = set()
    best: list[Hit] = []
    for hit in hits:
        if hit.doc_id in seen:
            continue
        seen.add(hit.doc_id)
        best.append(hit)
        if len(best) == limit:
            break
    return best


def render_hits(tool: str, query: str, outcome: ToolOutcome, ledger: Ledger) -> Rendered:
    ledger.searched_this_round = True
    hits = outcome.hits or []
    if not hits:
        return Rendered(NO_RESULTS, {"tool": tool, "query": query, "docs": [], "error": None})
    blocks, docs = [], []
    for rank, hit in enumerate(hits, start=1):
        short = ledger.short_id(hit.doc_id)
        new = ledger.mark_shown(short)
        ledger.run_scores[short] = ledger.run_scores.get(short, 0.0) + 1.0 / (RRF_K + rank)
        blocks.append(doc_block(short, hit.chunk.title, hit.chunk.text))
        docs.append({
            "id": short, "title": hit.chunk.title, "score": hit.score, "rank": rank,
            "text": hit.chunk.text, "new": new,
        })
    return Rendered("\n\n".join(blocks), {"tool": tool, "query": query, "docs": docs, "error": None})


class DocumentSearchTool(QueryTool):
    """search and text_search: chunk hits from the backend, shown as one best chunk per document."""

    @abstractmethod
    def find(self, query: str, env: ToolEnv, depth: int) -> list[Hit]:
        """Chunk hits for the query, best first, at least ``depth`` deep when the index has them."""

    def run(self, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
        hits = self.find(args["query"], env, args["limit"] * CANDIDATES_PER_DOC)
        return ToolOutcome(hits=best_chunk_per_doc(hits, args["limit"]), data={"query": args["query"]})

    def render(self, outcome: ToolOutcome, ledger: Ledger, env: ToolEnv) -> Rendered:
        return render_hits(self.name, outcome.data.get("query", ""), outcome, ledger)
