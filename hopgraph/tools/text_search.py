"""text_search(query, limit): keyword (BM25) search; honours "exact phrases" and -exclusions."""

from __future__ import annotations

from hopgraph.index.backend import Hit
from hopgraph.tools._documents import DocumentSearchTool
from hopgraph.tools.base import ToolEnv


class TextSearchTool(DocumentSearchTool):
    name = "text_search"
    description = (
        'Keyword search (BM25): finds documents containing the query words. Use "quotes" for an exact phrase '
        "and -word to exclude a word. Best for names, numbers and rare terms."
    )

    def find(self, query: str, env: ToolEnv, depth: int) -> list[Hit]:
        return env.backend.text_search(query, env.scope, depth)
