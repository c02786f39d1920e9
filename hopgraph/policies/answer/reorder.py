"""How the ranked candidates for one part of a question are reordered by what else is known: the documents the
question asks to be answered from, what the part is asked of, and what the last answer already gave."""

from __future__ import annotations

from dataclasses import replace

from hopgraph.policies.answer.select import KIND_BONUS, MISSING_KIND, Candidate
from hopgraph.policies.answer.tables import row_record
from hopgraph.policies.answer.types import THING, YESNO, holds_kind
from hopgraph.policies.text import fold

_FUNCTION_WORDS = frozenset({"a", "an", "the", "of", "to", "and", "or", "in", "on", "at", "for", "it", "its", "so",
                             "do", "does", "did", "what", "which", "who", "is", "are", "was"})


def is_row(candidate: Candidate) -> bool:
    """A table row, spelled "Column: value; ..." (of a CSV, a sheet or a table in a page)."""
    return len(row_record(candidate.text)) > 1


def not_given_yet(ranked: list[Candidate], last_answer: str, part: str) -> list[Candidate]:
    """"What does dispatch do now so it doesn't happen again?" after an answer quoting an incident's first sentence:
    the other sentences of the document the last answer quoted come first, those with more of the part's own words
    ("now") first (a table row may hold what is asked in another cell, so a row quoted already is no reason)."""
    said = fold(last_answer)
    again = [c for c in ranked if fold(c.text) in said and not is_row(c)]
    asked = set(fold(part).split()) - _FUNCTION_WORDS
    other = sorted((c for c in ranked if c not in again and c.passage.title in {a.passage.title for a in again}),
                   key=lambda c: -len(asked & set(fold(c.text).split())))
    return other + [c for c in ranked if c not in other]


def held_anew(ranked: list[Candidate], kind: str, question: str) -> list[Candidate]:
    """The candidates with what they hold judged against ``question`` (the part with what it is asked of): those
    that held only by naming it lose the kind's bonus."""
    if kind in (THING, YESNO):
        return ranked
    judged = [c if not c.holds or holds_kind(c.text, kind, question) else
              replace(c, score=c.score - KIND_BONUS - MISSING_KIND, holds=False) for c in ranked]
    return sorted(judged, key=lambda c: (-c.score, c.order))


def from_cited(ranked: list[Candidate], cited: set[str], kind: str, asked_of: bool = False) -> list[Candidate]:
    """The candidates from the documents the question asks to be answered from ("what does the procedure the report
    cites say ..."), when one of them answers, or whenever the part itself asks what they say (``asked_of``: "who did
    the procedure we followed say had to do the recount": none rather than the report's author); else all."""
    own = [c for c in ranked if c.passage.title in cited]
    return own if (asked_of and cited) or any(c.holds or kind in (THING, YESNO) for c in own) else ranked
