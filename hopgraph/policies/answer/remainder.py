"""What is left of a planned amount, from one table row: the budget minus what was spent.

"How much of the materials budget was still unspent at the end of September?" over the row "Cost centre:
Materials; Budget 2026 EUR: 1,450,000; Actual to Sep EUR: 1,152,000" is 1,450,000 − 1,152,000. The question asks
what is left ("left", "remaining", "unspent", "under budget") or by how much a plan was overrun ("over budget",
"overspent": the other way round); it names the row by one of its cells; the row has a planned column (budget,
plan, allocation, limit) and a spent one (actual, spent, used, to date), or a forecast one when the question looks
to the end ("expected to end up").
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.tables import Record, cell_number
from hopgraph.policies.text import fold

_LEFT = re.compile(r"\b(?:left|remain(?:s|ed|ing)?|unspent|unused|still (?:available|to (?:be )?spen[dt])|"
                   r"headroom|under (?:the )?budget|underspen[dt])\b", re.IGNORECASE)
_OVER = re.compile(r"\b(?:over (?:(?:the|its|their|our|this|that|his|her) )?(?:\d{4} )?budget|overspen[dt]|overran|"
                   r"overrun)\b", re.IGNORECASE)
_PLANNED = re.compile(r"\b(?:budget(?:ed)?|plan(?:ned)?|allocat(?:ed|ion)|allowance|limit|approved)\b",
                      re.IGNORECASE)
_SPENT = re.compile(r"\b(?:actual|actuals|spent|spend|used|to date|so far)\b", re.IGNORECASE)
# "expected to end up", "by the end of the year": the forecast column instead of what is spent so far.
_FORECAST = re.compile(r"\b(?:forecast|projected|projection|expected|likely|end up|outturn|year[- ]end|"
                       r"end of the year)\b", re.IGNORECASE)


def asks_what_is_left(question: str) -> bool:
    return _LEFT.search(question) is not None or _OVER.search(question) is not None


def remainder_row(question: str, records: list[Record]) -> tuple[Record, str, str] | None:
    """The one row the question names with its planned and spent columns (planned first; spent first for an
    overrun), or None."""
    if not asks_what_is_left(question):
        return None
    asked = fold(question)
    found: list[tuple[Record, str, str]] = []
    for record in records:
        cells, _, _ = record
        named = any(re.search(rf"\b{re.escape(fold(v))}\b", asked) for v in cells.values()
                    if cell_number(v) is None and len(v.strip()) > 2)
        if not named:
            continue
        # Column names as words: "budget_2026_gbp" is a budget column.
        said = {c: c.replace("_", " ") for c in cells}
        planned = [c for c, v in cells.items() if _PLANNED.search(said[c]) and not _SPENT.search(said[c])
                   and cell_number(v) is not None]
        spent = [c for c, v in cells.items() if _SPENT.search(said[c]) and cell_number(v) is not None]
        forecast = [c for c, v in cells.items() if _FORECAST.search(said[c]) and cell_number(v) is not None]
        if _FORECAST.search(question) and len(forecast) == 1:
            spent = forecast
        if len(planned) == 1 and len(spent) == 1:
            found.append((record, planned[0], spent[0]))
    if len(found) != 1:
        return None
    record, planned_column, spent_column = found[0]
    if _OVER.search(question) and not _LEFT.search(question):
        return record, spent_column, planned_column
    return record, planned_column, spent_column
