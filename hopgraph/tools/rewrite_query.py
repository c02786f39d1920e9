"""rewrite_query(query): the model states the corrected, self-contained question.

The tool itself only echoes the rewrite (and remembers it for the turn). The safety
net below covers two common slips: the model rewrites the question and, in the same
reply, still searches with the user's original messy wording; or it searches a
follow-up ("And the renewal clause?") word for word, without the thread's subject
(the entity the previous turn was about), when the caller knows that subject.
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
# How a follow-up opens: "And the renewal clause?", "What about Meridian?", "Also, ..."
_FOLLOW_UP_OPENING = re.compile(r"^\s*(?:and|also|what about|how about|and what about|same for|as for)\b[\s,]*",
                                re.IGNORECASE)
# Words that point back into the conversation.
_BACK_REFERENCES = frozenset({"it", "its", "they", "them", "their", "theirs", "he", "him", "his", "she", "her",
                              "hers"})
# "What hours is that warehouse open?", "Who signed off this repair?": a thing pointed at, not named. (After a
# verb or a preposition; "the procedure that was used" is a clause.)
_POINTING = re.compile(r"\b(?:is|are|was|were|does|did|do|has|had|at|in|on|of|for|from|to|about|with|by|under|runs?|"
                       r"manages?|owns?)\s+(?:that|this|these|those)\s+(?!is\b|was\b|are\b|were\b|has\b|had\b|"
                       r"will\b|would\b|can\b|could\b|should\b|did\b|does\b|do\b)[a-z]", re.IGNORECASE)
# First words that stay lowercase inside "Regarding <subject>: ...".
_PLAIN_OPENERS = frozenset({"the", "a", "an", "which", "what", "who", "whom", "whose", "when", "where", "how", "why",
                            "is", "are", "was", "were", "do", "does", "did", "can", "could", "its", "their", "his",
                            "her", "and", "also"})
_CAPITALIZED = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w\-]*|\b[A-Z]{2,}-?\d+|\b\w*\d\w*-\w+")
FOLLOW_UP_MAX_WORDS = 6
# Capitalized words that name a time, not a subject: "their September invoice", "on Sundays" still point back.
_CALENDAR_WORDS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
                             "saturday", "sunday", "i"})


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


def is_follow_up(question: str) -> bool:
    """The question leans on the conversation: it opens like a follow-up ("And the renewal clause?"), or it
    points back ("which team does she lead?") or is a few words long, and names nothing of its own."""
    text = (question or "").strip()
    opening = _FOLLOW_UP_OPENING.match(text)
    rest = text[opening.end():] if opening else text
    if not rest.strip() or any(m.group().lower().removesuffix("s") not in _CALENDAR_WORDS
                               for m in _CAPITALIZED.finditer(" " + rest if opening else rest)):
        return False  # it names something (a proper name, a code): it stands on its own
    tokens = _tokens(rest)
    return (bool(opening) or any(t in _BACK_REFERENCES for t in tokens) or bool(_POINTING.search(rest))
            or len(tokens) <= FOLLOW_UP_MAX_WORDS - 2)


def contextual_question(question: str, subject: str) -> str:
    """The follow-up made self-contained with the thread's subject: "Regarding <subject>: <question>"."""
    core = _FOLLOW_UP_OPENING.sub("", (question or "").strip()).strip() or (question or "").strip()
    subject = " ".join((subject or "").split())
    if not subject:
        return core
    first = core.split(" ", 1)[0]
    # "What's", "Who's": the opener with a clitic, lowered too (it names nothing).
    if re.sub(r"['’](?:s|re|ll|d)$", "", first.lower()) in _PLAIN_OPENERS:
        core = core[:1].lower() + core[1:]
    return f"Regarding {subject}: {core}"


def apply_rewrite_safety_net(tool_calls: list[dict[str, Any]], original_question: str,
                             thread_subject: str = "") -> list[dict[str, Any]]:
    """One reply's tool calls, with the lone search moved onto the rewritten question when needed.

    Applies only when the batch holds exactly one ``search_documents`` whose query still
    carries the original wording, and either exactly one ``rewrite_query`` with a usable
    query (the search takes the rewrite), or no rewrite, a follow-up question and a
    ``thread_subject`` (the search takes the question with that subject). A batch with
    several searches is a decomposition and is never touched. Returns a new list (the
    input is not modified); calls that change get a deep copy.
    """
    rewrites = [i for i, c in enumerate(tool_calls) if c.get("name") == REWRITE_TOOL]
    searches = [i for i, c in enumerate(tool_calls) if c.get("name") == SEARCH_TOOL]
    result = list(tool_calls)
    if not rewrites and len(searches) == 1 and thread_subject.strip() and is_follow_up(original_question):
        return _with_subject(result, searches[0], original_question, thread_subject)
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


def _with_subject(calls: list[dict[str, Any]], index: int, original: str, subject: str) -> list[dict[str, Any]]:
    args = calls[index].get("args")
    query = args.get("query") if isinstance(args, dict) else None
    if not isinstance(query, str) or not carries_original_wording(query, original):
        return calls
    subject_tokens = set(_tokens(subject))
    if subject_tokens and subject_tokens <= set(_tokens(query)):
        return calls  # the search already names the subject
    fixed = copy.deepcopy(calls[index])
    fixed["args"]["query"] = contextual_question(original, subject)
    out = list(calls)
    out[index] = fixed
    return out


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
