"""rewrite_query(query): the model states the corrected, self-contained question.

The tool itself only echoes the rewrite (and remembers it for the turn). The safety
net below covers a common slip: the model rewrites the question and, in the same
reply, still searches with the user's original messy wording.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from hopgraph.config import Context
from hopgraph.tools.base import Ledger, Rendered, Tool, ToolEnv, ToolOutcome, require_str

REWRITE_TOOL = "rewrite_query"
SEARCH_TOOL = "search_documents"
# A search query this close (token Jaccard) to the original question still carries its wording.
ORIGINAL_OVERLAP = 0.75

_TOKEN = re.compile(r"\w+", re.UNICODE)


def _tokens(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    return _TOKEN.findall(folded)


def _jaccard(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def carries_original_wording(query: str, original: str, rewritten: str = "") -> bool:
    """True when ``query`` is (nearly) the user's original wording rather than the rewrite.

    Equal after normalization (case, accents, punctuation, spacing), or a token
    Jaccard overlap of at least ORIGINAL_OVERLAP with the original that is also
    higher than its overlap with the rewrite.
    """
    q, o = _tokens(query), _tokens(original)
    if not q or not o:
        return False
    if q == o:
        return True
    qs, os_ = set(q), set(o)
    overlap = _jaccard(qs, os_)
    if overlap < ORIGINAL_OVERLAP:
        return False
    return not rewritten or overlap > _jaccard(qs, set(_tokens(rewritten)))


def apply_rewrite_safety_net(tool_calls: list[dict[str, Any]], original_question: str) -> list[dict[str, Any]]:
    """One reply's tool calls, with the lone search moved onto the rewritten question when needed.

    Applies only when the batch holds exactly one ``rewrite_query`` with a usable query
    and exactly one ``search_documents`` whose query still carries the original wording.
    A batch with several searches is a decomposition and is never touched. Returns a
    new list (the input is not modified); calls that change get a deep copy.
    """
    rewrites = [i for i, c in enumerate(tool_calls) if c.get("name") == REWRITE_TOOL]
    searches = [i for i, c in enumerate(tool_calls) if c.get("name") == SEARCH_TOOL]
    result = list(tool_calls)
    if len(rewrites) != 1 or len(searches) != 1 or not (original_question or "").strip():
        return result
    rewrite_args = tool_calls[rewrites[0]].get("args")
    search_args = tool_calls[searches[0]].get("args")
    if not isinstance(rewrite_args, dict) or not isinstance(search_args, dict):
        return result
    rewritten = rewrite_args.get("query")
    query = search_args.get("query")
    if not isinstance(rewritten, str) or not rewritten.strip() or not isinstance(query, str):
        return result
    rewritten = rewritten.strip()
    if _tokens(query) == _tokens(rewritten) or not carries_original_wording(query, original_question, rewritten):
        return result
    fixed = copy.deepcopy(tool_calls[searches[0]])
    fixed["args"]["query"] = rewritten
    result[searches[0]] = fixed
    return result


class RewriteQueryTool(Tool):
    name = REWRITE_TOOL
    description = (
        "State the user's question corrected and self-contained (fix spelling and grammar, make vague words "
        "explicit). Returns the rewritten question; search with that wording."
    )
    parameters = {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "The corrected full question."}},
        "required": ["query"],
    }

    def check_args(self, args: Mapping[str, Any], context: Context) -> dict[str, Any]:
        return {"query": require_str(args, "query", max_chars=2000)}

    def run(self, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
        return ToolOutcome(text=args["query"], data={"query": args["query"]})

    def render(self, outcome: ToolOutcome, ledger: Ledger, env: ToolEnv) -> Rendered:
        query = outcome.text
        # Replace, never mutate: the previous value may still be shared with stored state.
        ledger.turn_memory["rewrites"] = [*ledger.turn_memory.get("rewrites", []), query]
        return Rendered(
            f"Rewritten question: {query}\nSearch with this wording.",
            {"tool": self.name, "query": query, "error": None},
        )
