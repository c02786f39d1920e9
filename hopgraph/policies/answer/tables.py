"""The tables among the passages found: their rows as records, the numbers in their cells, the numeric column a
question asks about, and the table and rows it names.

A row is spelled out "Column: value; ..." by :mod:`hopgraph.policies.answer.evidence`. The column a question asks
about is the numeric column whose header shares the most words with it (of two alike, the one it names more of,
then a money column for "how much" and a count for "how many"; when it names none, a money column such as "Amount
EUR", or for "how many" the one column that is not money, else the header clearly closest to it in meaning); its
rows are those meeting every cell the question names (:mod:`hopgraph.policies.answer.row_filter`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hopgraph.policies.answer.evidence import Passage, stems
from hopgraph.policies.answer.meaning import closest_label
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.row_filter import named_rows
from hopgraph.policies.text import fold, terms

Record = tuple[dict[str, str], str, Passage]  # column -> cell, the row as written, its passage

_NUMBER = re.compile(r"^\s*[€$£]?\s*(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*%?\s*$")
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
# A bare number that is a year ("2026"), not a count.
YEAR = re.compile(r"^(?:1[5-9]|20)\d\d$")
MONEY = re.compile(r"\b(?:EUR|USD|GBP|CHF|amount|value|cost|price|total|sum|fee|charge)\b|[€$£]", re.IGNORECASE)


def cell_number(text: str) -> float | None:
    """A cell or a word as a number ("41,160", "€12.50", "four"), or None."""
    m = _NUMBER.match(text)
    if m:
        return float(m.group(1).replace(",", ""))
    word = fold(text.strip())
    return float(NUMBER_WORDS[word]) if word in NUMBER_WORDS else None


def row_record(row: str) -> dict[str, str]:
    """A row spelled "Column: value; ..." as column -> cell."""
    cells = [c.partition(":") for c in row.split(";")]
    return {name.strip(): value.strip() for name, sep, value in cells if sep and name.strip()}


def table_records(passages: list[Passage]) -> list[Record]:
    """Each distinct table row as (column -> cell, the row as written, its passage)."""
    seen: set[str] = set()
    out = []
    for p in passages:
        for row in passage_sentences(p):
            record = row_record(row)
            if len(record) < 2 or row in seen:
                continue
            seen.add(row)
            out.append((record, row, p))
    return out


def read_whole(passage: Passage, passages: list[Passage]) -> bool:
    """Every chunk of the passage's document is read (as far as the passages say how many it has)."""
    read = {p.chunk_index for p in passages if p.source == passage.source}
    return bool(passage.chunk_count) and len(read) >= passage.chunk_count


def header_words(column: str) -> str:
    """A column header as words: "amount_gbp" -> "amount gbp"."""
    return column.replace("_", " ")


def column_match(column: str, want: set[str]) -> tuple[int, float]:
    """How many of the question's words a column header holds, and what share of the header they make."""
    shared = len(stems(header_words(column)) & want)
    return shared, shared / max(1, len(stems(header_words(column))))


def asked_column(records: list[dict[str, str]], question: str) -> str | None:
    """The numeric column the question asks about (see the module text)."""
    want = stems(question)
    numeric = [c for c in dict.fromkeys(k for r in records for k in r)
               if all(cell_number(r[c]) is not None for r in records if c in r)]
    if not numeric:
        return None
    # The column sharing the most words with the question; of two alike, the one it names whole ("energy spend":
    # energy, not stock_spend).
    scored = sorted(((*column_match(c, want), i, c) for i, c in enumerate(numeric)), key=lambda t: (-t[0], -t[1], t[2]))
    if scored[0][0] > 0 and (len(scored) == 1 or scored[0][:2] != scored[1][:2]):
        return scored[0][3]
    if scored[0][0] > 0:
        # Two alike ("flour ... cost": Flour tonnes, Cost EUR): "how much" asks for money, "how many" for a count.
        tied = [t[3] for t in scored if t[:2] == scored[0][:2]]
        money_tied = [c for c in tied if MONEY.search(header_words(c))]
        if re.search(r"\bhow much\b", question, re.IGNORECASE) and len(money_tied) == 1:
            return money_tied[0]
        if re.search(r"\bhow many\b", question, re.IGNORECASE) and len(tied) - len(money_tied) == 1:
            return next(c for c in tied if c not in money_tied)
        return None
    money = [c for c in numeric if MONEY.search(header_words(c))]
    if re.search(r"\bhow many\b", question, re.IGNORECASE):
        # "How many housings did we order?": a count, never the money column.
        counts = [c for c in numeric if c not in money]
        if len(counts) == 1:
            return counts[0]
    elif len(money) == 1:
        return money[0]
    # No header shares a word with the question: the one clearly closest in meaning to what it asks ("how many
    # items did Tanners Library lend in Q1" -> "items lend" -> loans).
    asking = asking_words(question)
    closest = closest_label(asking, [header_words(c) for c in numeric]) if asking else None
    return numeric[closest] if closest is not None else None


# Words that say which rows or how to combine them, not which column: quarters, halves, totals.
_ROW_WORDS = frozenset({"first", "second", "third", "fourth", "last", "half", "quarter", "quarters", "year", "years",
                        "month", "months", "total", "combined", "average", "altogether", "sum", "per", "each",
                        "q1", "q2", "q3", "q4", "h1", "h2"})


def asking_words(question: str) -> str:
    """The words a question asks with, without the names and figures that pick rows ("How many grumbles did
    Northfield receive in the first half?" -> "grumbles receive")."""
    words = question.rstrip("?").split()[1:]
    kept = " ".join(w for w in words if not w[:1].isupper() and not any(c.isdigit() for c in w))
    return " ".join(t for t in terms(kept) if t not in _ROW_WORDS and t not in NUMBER_WORDS)


@dataclass
class TableRows:
    """The rows of one table a question names, the numeric column it asks about and the cells that named them."""

    column: str
    rows: list[Record]
    conditions: dict[str, list[str]]
    passage: Passage  # the table's best-ranked passage


def table_rows(question: str, records: list[Record],
                unnamed: bool = False) -> TableRows | None:
    """Of the tables found, the one whose rows the question names by the most columns (then whose column header
    shares the most words with it, then the best ranked): "Lindqvist's maintenance invoice for Q3" names a
    supplier and a quarter of the invoices, only a quarter of the branch costs, whose "repairs_maintenance"
    shares a word with it. ``unnamed``: a table of whose rows found the question names none counts too (the rows
    it names may be in chunks not read yet)."""
    by_table: dict[str, list[Record]] = {}
    for item in records:
        by_table.setdefault(item[2].source or item[2].title, []).append(item)
    want = stems(question)
    best: tuple[tuple[int, int, int], TableRows] | None = None
    for order, items in enumerate(by_table.values()):
        column = asked_column([r for r, _, _ in items], question)
        if column is None:
            continue
        with_column = [item for item in items if column in item[0]]
        rows, conditions = named_rows(with_column, lambda item: item[0], question,
                                      lambda cell: cell_number(cell) is not None, skip=column)
        if not conditions and not unnamed:
            continue
        key = (len(conditions), len(stems(header_words(column)) & want), -order)
        if best is None or key > best[0]:
            best = (key, TableRows(column, rows, conditions, items[0][2]))
    return best[1] if best is not None else None
