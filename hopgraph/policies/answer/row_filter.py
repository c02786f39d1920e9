"""Which rows of a table a question names: by their cells, and by the quarters it names in words.

A question names a cell when it holds the cell whole ("Paid", "Priory Library"), a word of a short cell written as
a name that not every value of the column has ("Priory" for "Priory Library", not "Library"), a one-word cell in
another form ("outstanding" for "Outstanding", "paid" for "Paid"), or a quarter the cell holds ("Q3", "the third
quarter", "the first half" for Q1 and Q2, "the first three quarters" for Q1 to Q3, "between April and June" for Q2,
"from January to the end of September" for Q1 to Q3).

Every column with a named cell is a condition and a row is kept when it meets all of them, so "Priory Library in
the first half" keeps Priory's rows for Q1 and Q2, and a column the question names nothing of ("all five sites")
keeps every row. A cell named to be left out ("invoices that haven't been paid", "leaving aside the one we're
disputing") keeps the rows without it. Rows come in the order the question names them, so "how much more A than B"
takes A first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from hopgraph.policies.answer.evidence import stems
from hopgraph.policies.text import STOPWORDS, fold

Item = TypeVar("Item")

_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": 4,
            "final": 4}
_COUNT = {"two": 2, "2": 2, "three": 3, "3": 3}
_QUARTER = re.compile(r"\bQ([1-4])\b", re.IGNORECASE)
_ORDINAL_QUARTER = re.compile(rf"\b({'|'.join(_ORDINAL)})\s+quarter(?![\w-])", re.IGNORECASE)
_NEXT_QUARTER = re.compile(rf"\bquarter\s+(?:and|to|with|or)\s+(?:the\s+)?({'|'.join(_ORDINAL)})\b(?!\s+\w*\s*quarter)",
                           re.IGNORECASE)
_HALF = re.compile(r"\b(?:(first|second)\s+half|H([12]))(?![\w-])", re.IGNORECASE)
_FIRST_QUARTERS = re.compile(rf"\bfirst\s+({'|'.join(_COUNT)})\s+quarters(?![\w-])", re.IGNORECASE)
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
# "between April and June", "from July to December", "January-March": whole quarters named by their months.
_MONTH_RANGE = re.compile(rf"\b({'|'.join(MONTHS)})\s*(?:-|–|(?:to|and|until|through)(?:\s+the\s+end\s+of)?)\s*"
                          rf"({'|'.join(MONTHS)})\b", re.IGNORECASE)
_MONTH_NAME = re.compile(rf"\b(?:{'|'.join(MONTHS)})\b", re.IGNORECASE)
# A cell that is a date ("2026-09-22"), named by its month (see :func:`named_months`).
ISO_DATE = re.compile(r"\d{4}-(\d\d)-\d\d")
_CELL_QUARTER = re.compile(r"(?<![a-z0-9])q([1-4])(?![0-9])")
_WORD = re.compile(r"[\w'’-]+")
# How people speak of a bill's status in other words: "the bill we're in an argument about", "refused to pay" are
# Disputed; "unpaid" is Outstanding. ("What we owe" is not: a disputed bill may be owed too.)
_STATUS_WORDS = {status: frozenset(stems(" ".join(words))) for status, words in {
    "disputed": ("argument", "arguing", "argue", "refuse", "refused", "refusing", "contested", "contesting",
                 "challenged", "challenging", "quarrel"),
    "outstanding": ("unpaid",),
    "paid": ("settled", "cleared"),
}.items()}
STATUSES = frozenset(_STATUS_WORDS)
# A short cell is a name ("Priory Library", "Lindqvist Library Systems"); longer ones are free text.
_NAME_WORDS = 4


def status_named(cell: str, question: str) -> bool:
    """The question speaks of this one-word status cell in other words ("the bill we're in an argument about" of
    Disputed)."""
    said = _STATUS_WORDS.get(fold(cell).strip(), frozenset())
    return bool(said) and any(stems(m.group(0)) and stems(m.group(0)) <= said for m in _WORD.finditer(question))


def statuses_named(question: str) -> list[str]:
    """The statuses ("disputed", ...) the question speaks of in other words."""
    return [status for status in _STATUS_WORDS if status_named(status, question)]


def named_quarters(question: str) -> dict[str, int]:
    """The quarters a question names ("q1" ...), each with where it names it."""
    found: dict[str, int] = {}
    for m in _QUARTER.finditer(question):
        found.setdefault(f"q{m.group(1)}", m.start())
    for m in _ORDINAL_QUARTER.finditer(question):
        found.setdefault(f"q{_ORDINAL[m.group(1).lower()]}", m.start())
    for m in _NEXT_QUARTER.finditer(question):
        # "between the first quarter and the second": the second names a quarter too.
        found.setdefault(f"q{_ORDINAL[m.group(1).lower()]}", m.start(1))
    for m in _HALF.finditer(question):
        first = (m.group(1) or "").lower() == "first" or m.group(2) == "1"
        for q in ((1, 2) if first else (3, 4)):
            found.setdefault(f"q{q}", m.start())
    for m in _FIRST_QUARTERS.finditer(question):
        for q in range(1, _COUNT[m.group(1).lower()] + 1):
            found.setdefault(f"q{q}", m.start())
    for m in _MONTH_RANGE.finditer(question):
        first, last = (MONTHS.index(m.group(i).lower()) for i in (1, 2))
        if first % 3 == 0 and last % 3 == 2 and last > first:
            for q in range(first // 3 + 1, last // 3 + 2):
                found.setdefault(f"q{q}", m.start())
    return found


def named_months(question: str) -> dict[int, int]:
    """The months a question names (1-12), each with where it names it ("may" only written as a name, "May")."""
    found: dict[int, int] = {}
    for m in _MONTH_NAME.finditer(question):
        word = m.group(0)
        if word.lower() != "may" or word == "May":
            found.setdefault(MONTHS.index(word.lower()) + 1, m.start())
    return found


def cell_quarters(cell: str) -> set[str]:
    """The quarters a cell holds ("Q3", "2026-Q3")."""
    return {f"q{n}" for n in _CELL_QUARTER.findall(fold(cell))}


def named_at(needle: str, haystack: str) -> int | None:
    """Where ``haystack`` holds ``needle`` whole (on word boundaries), or None; both already folded."""
    m = re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", haystack)
    return m.start() if m else None


def _mention(cell: str, question: str, quarters: dict[str, int], column_words: list[set[str]]) -> int | None:
    """Where the question names this cell (see the module text), or None."""
    if not cell.strip():
        return None
    at = named_at(fold(cell), fold(question))
    if at is not None:
        return at
    hits = [quarters[q] for q in cell_quarters(cell) if q in quarters]
    if hits:
        return min(hits)
    words = _WORD.findall(cell)
    if len(words) == 1 and words[0].isalpha() and stems(words[0]):
        said = stems(words[0]) | _STATUS_WORDS.get(fold(words[0]), frozenset())
        for m in _WORD.finditer(question):
            if stems(m.group(0)) and stems(m.group(0)) <= said:
                return m.start()
        return None
    if len(words) > _NAME_WORDS:
        return None
    head = fold(words[-1]) if words else ""
    if len(words) > 1 and head.isalpha() and sum(head in w for w in column_words) == 1:
        # "the hospital" of "Kestleford Animal Hospital", when no other cell of the column is a hospital.
        by_kind = re.search(rf"\bthe\s+{re.escape(head)}\b", fold(question))
        if by_kind:
            return by_kind.start()
    for word in words:
        key = fold(word)
        name_like = word[:1].isupper() or any(c.isdigit() for c in word)
        if not name_like or len(key) < 2 or key in STOPWORDS or all(key in w for w in column_words):
            continue
        for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", question):
            if m.group(0)[:1].isupper() or not m.group(0).isalpha():
                return m.start()
    return None


# A word that turns a named cell into one to leave out, with nothing that ends the clause between them.
_NEGATOR = re.compile(r"(?:\bnot|n't|\bnever|\brefus\w*\s+to|\bdeclin\w*\s+to|\bexcept|"
                      r"\bexcluding|\bleaving aside|\bleave aside|\bapart from|"
                      r"\bother than|\bbesides|\bwithout|\bun)(?:\s+(?:yet|been|be|being|the|a|an|one|ones|bill|"
                      r"bills|invoice|invoices|we|we're|we've|are|is|was|were|still|currently|those|that|which|"
                      r"they|they're)\b)*\s*$", re.IGNORECASE)


def _negated(question: str, at: int) -> bool:
    """The cell named at ``at`` is named to be left out ("haven't been paid", "leaving aside the bill we're
    disputing", "unpaid")."""
    before = question[max(0, at - 40):at]
    return bool(_NEGATOR.search(re.split(r"[,.;:?!]", before)[-1]))


def left_out(question: str, conditions: dict[str, list[str]]) -> set[str]:
    """The cells of ``conditions`` (from :func:`named_rows`) that the question names to be left out ("the invoices
    that haven't been paid": Paid): the rows are a set picked by what they are not."""
    found = set()
    for cells in conditions.values():
        for cell in cells:
            at = named_at(fold(cell), fold(question))
            spots = [at] if at is not None else [m.start() for m in _WORD.finditer(question)
                                                 if stems(m.group(0)) and stems(m.group(0)) == stems(cell)]
            if any(_negated(question, spot) for spot in spots):
                found.add(cell)
    return found


def named_rows(items: Sequence[Item], record_of: Callable[[Item], dict[str, str]], question: str,
               is_number: Callable[[str], bool], skip: str = "") -> tuple[list[Item], dict[str, list[str]]]:
    """The items whose records meet every condition the question names (see the module text), in the order it
    names them, and the conditions (column -> cells named). No condition: no rows."""
    records = [record_of(item) for item in items]
    quarters = named_quarters(question)
    columns = [c for c in dict.fromkeys(k for r in records for k in r) if c != skip]
    positions: dict[str, dict[str, int]] = {}
    for column in columns:
        values = list(dict.fromkeys(r[column] for r in records if column in r and not is_number(r[column])))
        if not values:
            continue
        column_words = [{fold(w) for w in _WORD.findall(v)} for v in values]
        named = {v: at for v in values if (at := _mention(v, question, quarters, column_words)) is not None}
        if named:
            positions[column] = named
    if not positions:
        return [], {}
    # "invoices that haven't been paid", "leaving aside the one we're disputing": cells named to be left out.
    negated = {c: {v for v, at in named.items() if _negated(question, at)} for c, named in positions.items()}
    kept = [i for i, r in enumerate(records)
            if all((r.get(c) in named and r.get(c) not in negated[c]) if len(negated[c]) < len(named)
                   else (c in r and r.get(c) not in named) for c, named in positions.items())]
    # Order by the columns whose kept cells differ ("Central ... than Brookside"), in the question's order.
    varying = [c for c in positions if len({records[i].get(c) for i in kept}) > 1]
    # (A row kept for a cell the question leaves out of its list is not named: it sorts last.)
    kept.sort(key=lambda i: (tuple(positions[c].get(records[i].get(c, ""), len(question)) for c in varying), i))
    conditions = {c: sorted(named, key=named.__getitem__) for c, named in positions.items()}
    return [items[i] for i in kept], conditions
