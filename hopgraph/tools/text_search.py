"""text_search(query, limit): keyword (BM25) search; honours "exact phrases" and -exclusions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hopgraph.config import Context
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


class TextSearchTool(Tool):
    name = "text_search"
    description = (
        'Keyword search (BM25): finds documents containing the query words. Use "quotes" for an exact phrase '
        "and -word to exclude a word. Best for names, numbers and rare terms."
    )
    parameters = search_parameters()
    is_search = True

    def check_args(self, args: Mapping[str, Any], context: Context) -> dict[str, Any]:
        return check_query_args(args, context)

    def run(self, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
        hits = env.backend.text_search(args["query"], env.scope, args["limit"] * CANDIDATES_PER_DOC)
        return ToolOutcome(hits=best_chunk_per_doc(hits, args["limit"]), data={"query": args["query"]})

    def render(self, outcome: ToolOutcome, ledger: Ledger, env: ToolEnv) -> Rendered:
        return render_hits(self.name, outcome.data.get("query", ""), outcome, ledger)
