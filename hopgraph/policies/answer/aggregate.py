"""Sums, differences and products of stated numbers that a question asks for.

A question asks for arithmetic when it says so: "total", "combined", "altogether", "together", "in all", "sum",
"plus" (a sum), "how much more ... than", "difference" (a difference), or asks for the total of a quantity that
a table gives per unit ("total oven power" over "Ovens: 6; Power per oven kW: 22": a rate times a quantity).

The numbers come from table rows (spelled out "Column: value; ..." by :mod:`hopgraph.policies.answer.evidence`)
or from sentences, never from the question alone:

- rows: the column is the numeric column whose header shares the most words with the question (a money column
  such as "Amount EUR" when the question names none but asks "how much" or for a total of amounts); the rows are
  those holding a word of the question that not every row holds ("Q1", "Q2"; "paid" picks the rows whose status
  is Paid), each distinct row once;
- sentences: for each name the question gives ("the Fennel and Sorrel fleets"), the number written next to it
  in a sentence naming it ("The four Fennel vans ...").

A difference takes the item named before "than" minus the one after it. Every number keeps the row or sentence
it came from, so the answer cites each one and says which numbers it used. Nothing is computed when fewer than two
numbers are found (or, for a product, when the row lacks either).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hopgraph.policies.answer.evidence import Passage, passage_sentences, stems
from hopgraph.policies.text import entity_spans, fold

_SUM = re.compile(r"\b(?:total|totals|combined|altogether|together|in all|sum|plus|add(?:ed)? up)\b", re.IGNORECASE)
_DIFFERENCE = re.compile(r"\b(?:how (?:much|many) more|how (?:much|many) fewer|how (?:much|many) less|difference)\b",
                         re.IGNORECASE)
_THAN = re.compile(r"\bthan\b", re.IGNORECASE)
_NUMBER = re.compile(r"^\s*[€$£]?\s*(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*%?\s*$")
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "eleven": 11, "twelve": 12}
_IN_TEXT = re.compile(r"(?<![\w.,-])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|"
                      rf"{'|'.join(_WORDS)})(?![\w-])", re.IGNORECASE)
_MONEY = re.compile(r"\b(?:EUR|USD|GBP|CHF|amount|value|cost|price|total|sum|fee|charge)\b|[€$£]", re.IGNORECASE)
_ASKS_QUANTITY = re.compile(r"\bhow (?:much|many)\b|\b(?:what|which) (?:is|was|were|are) the (?:total|sum|combined|"
                            r"difference)\b|\bwhat (?:total|sum)\b|\bin total\b", re.IGNORECASE)
_YEAR = re.compile(r"^(?:1[5-9]|20)\d\d$")
_PER = re.compile(r"^(.*?)\s+per\s+([a-z]+)\b(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Operand:
    value: float
    text: str  # as written: "84", "41,160", "four"
    source: str  # the row or sentence it came from
    passage: Passage


@dataclass
class Aggregate:
    op: str  # "sum", "difference" or "product"
    operands: list[Operand]
    label: str  # what is added up: a column header, or the noun after the numbers
    unit: str = ""
    inputs: list[Operand] = field(default_factory=list)

    def code(self) -> str:
        values = ", ".join(repr(o.value) for o in self.operands)
        if self.op == "difference":
            return f"a, b = {values}\nprint(round(a - b, 4))"
        if self.op == "product":
            return f"values = [{values}]\nresult = 1.0\nfor v in values:\n    result *= v\nprint(round(result, 4))"
        return f"values = [{values}]\nprint(round(sum(values), 4))"

    def formula(self) -> str:
        sign = {"sum": " + ", "difference": " − ", "product": " × "}[self.op]
        return sign.join(o.text for o in self.operands)


def asks_for_arithmetic(question: str) -> str:
    """"difference", "sum" or '' (a product is recognised from the table, see :func:`plan_aggregate`)."""
    if _DIFFERENCE.search(question) and _THAN.search(question):
        return "difference"
    if _SUM.search(question):
        return "sum"
    return ""


def _number(text: str) -> float | None:
    m = _NUMBER.match(text)
    if m:
        return float(m.group(1).replace(",", ""))
    word = fold(text.strip())
    return float(_WORDS[word]) if word in _WORDS else None


def _records(passages: list[Passage]) -> list[tuple[dict[str, str], str, Passage]]:
    """Each distinct table row as (column -> cell, the row as written, its passage)."""
    seen: set[str] = set()
    out = []
    for p in passages:
        for row in passage_sentences(p):
            cells = [c.partition(":") for c in row.split(";")]
            record = {name.strip(): value.strip() for name, sep, value in cells if sep and name.strip()}
            if len(record) < 2 or row in seen:
                continue
            seen.add(row)
            out.append((record, row, p))
    return out


def _column(records: list[dict[str, str]], question: str) -> str | None:
    """The numeric column the question asks about (see the module text)."""
    want = stems(question)
    numeric = [c for c in dict.fromkeys(k for r in records for k in r)
               if all(_number(r[c]) is not None for r in records if c in r)]
    if not numeric:
        return None
    scored = sorted(((len(stems(c) & want), i, c) for i, c in enumerate(numeric)), key=lambda t: (-t[0], t[1]))
    if scored[0][0] > 0 and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][2]
    money = [c for c in numeric if _MONEY.search(c)]
    return money[0] if len(money) == 1 and scored[0][0] == 0 else None


def _row_items(records: list[tuple[dict[str, str], str, Passage]], question: str,
               column: str) -> list[tuple[dict[str, str], str, Passage]]:
    """The rows holding a question word that not every row holds, in the order the question names them."""
    rows = [item for item in records if column in item[0]]
    words = re.findall(r"[\w\-]+", question)

    def hits(word: str, record: dict[str, str]) -> bool:
        cells = [fold(v) for k, v in record.items() if k != column and _number(v) is None]
        if fold(word) in cells:
            return True
        # A name matches a cell that holds it ("Meridian" / "Meridian Circuits Oy"); a common word only a cell of
        # one word ("paid" / "Paid").
        return bool(stems(word)) and any(stems(word) == stems(c) or (word[:1].isupper() and stems(word) <= stems(c))
                                         for c in cells)

    named: dict[int, int] = {}
    other: dict[int, int] = {}
    for j, word in enumerate(words):
        matched = [i for i, (record, _, _) in enumerate(rows) if hits(word, record)]
        if matched and len(matched) < len(rows):  # a word every row holds picks nothing
            for i in matched:
                (named if j > 0 and word[:1].isupper() else other).setdefault(i, j)
    # The names the question gives pick the rows; its other words only when it names none ("already paid").
    first = named or other
    return [rows[i] for i in sorted(first, key=lambda i: (first[i], i))]


def _product_row(records: list[tuple[dict[str, str], str, Passage]], question: str) -> Aggregate | None:
    """"total X" over a row giving X per unit and a count of those units (a rate times a quantity)."""
    if not re.search(r"\btotal\b", question, re.IGNORECASE):
        return None
    want = stems(question)
    for record, row, p in records:
        cells = {fold(v) for v in record.values() if _number(v) is None}
        if not any(fold(w) in cells for w in re.findall(r"[\w\-]+", question)):
            continue
        for name, value in record.items():
            m = _PER.match(name)
            rate = _number(value)
            if not m or rate is None or not (stems(m.group(1)) & want):
                continue
            unit_stems = stems(m.group(2))
            for other, count_text in record.items():
                count = _number(count_text)
                if other != name and count is not None and stems(other) & unit_stems:
                    ops = [Operand(count, count_text, row, p), Operand(rate, value, row, p)]
                    return Aggregate("product", ops, m.group(1).strip(), unit=m.group(3).strip())
    return None


def _named_counts(passages: list[Passage], question: str) -> list[Operand]:
    """For each name the question gives, the number written next to it in a sentence naming it."""
    names = [span for span, pos in entity_spans(question) if pos > 0]
    names = [part for n in names for part in re.split(r"\s+(?:and|or|plus|&)\s+", n)]
    found: list[Operand] = []
    for name in names:
        key = fold(name)
        for p in passages:
            hit = None
            for sentence in passage_sentences(p):
                at = fold(sentence).find(key)
                if at < 0:
                    continue
                near = [m for m in _IN_TEXT.finditer(sentence)
                        if abs(m.start() - at) <= 25 and not _YEAR.match(m.group(1))]
                if near:
                    m = min(near, key=lambda m: abs(m.start() - at))
                    value = _number(m.group(1))
                    if value is not None:
                        hit = Operand(value, m.group(1), sentence, p)
                        break
            if hit is not None:
                found.append(hit)
                break
    return found


def plan_aggregate(question: str, passages: list[Passage]) -> Aggregate | None:
    """The arithmetic the question asks for over the numbers found, or None."""
    if not _ASKS_QUANTITY.search(question):
        return None  # "Who played together with ...?" asks for no number
    op = asks_for_arithmetic(question)
    records = _records(passages)
    product = _product_row(records, question) if records else None
    if product is not None:
        product.inputs = list(product.operands)
        return product
    if not op:
        return None
    found: list[Operand] = []
    label = ""
    if records:
        column = _column([r for r, _, _ in records], question)
        if column is not None:
            rows = _row_items(records, question, column)
            found = [Operand(v, r[column], row, p) for r, row, p in rows
                     if (v := _number(r[column])) is not None]
            label = column
    if len(found) < 2:
        found = _named_counts(passages, question)
        label = ""
    if len(found) < 2 or (op == "difference" and len(found) != 2):
        return None
    agg = Aggregate(op, found, label)
    agg.inputs = list(found)
    return agg


def _cited(text: str, ref: str) -> str:
    body = text.rstrip().rstrip(".;:,")
    return f"{body} [{ref}]."


def aggregate_answer(agg: Aggregate, output: str | None, offered: bool = True) -> str:
    """Each row or sentence a number came from, cited, then the result and the numbers it used.

    ``output``: what the ``run_python`` program printed (None when it did not run); ``offered``: whether the run
    may call ``run_python`` at all. Without a result the answer gives the numbers and says why it did not
    compute."""
    from hopgraph.policies.answer.compute import format_amount, printed_numbers

    lines = list(dict.fromkeys(_cited(o.source, o.passage.ref) for o in agg.inputs))
    marks = "".join(f"[{r}]" for r in dict.fromkeys(o.passage.ref for o in agg.inputs))
    what = f" ({agg.label})" if agg.label else ""
    numbers = printed_numbers(output or "")
    if numbers:
        result = format_amount(numbers[0], agg.unit)
        lines.append(f"Calculated with run_python from these numbers: {agg.formula()} = {result}{what} {marks}.")
    elif not offered:
        lines.append(f"Not calculated: run_python is not available here. The numbers are {agg.formula()}{what}.")
    else:
        lines.append(f"Not calculated: run_python did not return a result. The numbers are {agg.formula()}{what}.")
    return " ".join(lines)


_SUPERLATIVE = re.compile(r"\b(?:(lowest|least|smallest|fewest|worst|cheapest|shortest|minimum)|"
                          r"(highest|most|largest|biggest|best|greatest|dearest|longest|maximum))\b", re.IGNORECASE)


@dataclass(frozen=True)
class Extreme:
    """The table row with the lowest or highest value of the column a question names."""

    record: dict[str, str]
    row: str
    passage: Passage
    column: str
    word: str  # "lowest", "highest", ...
    value: str
    compared: int  # how many rows were compared

    @property
    def name(self) -> str:
        """The row's first cell that is not a number (what the row is about: "Baltic Freight Services AB")."""
        return next((v for v in self.record.values() if _number(v) is None), "")


def extreme_row(question: str, passages: list[Passage]) -> Extreme | None:
    """"Which supplier has the lowest quality score?": the row whose value in the column the question names (by
    its header's words) is the lowest (or highest: "highest", "most", "best", ...) of the rows found; None without
    such a column, with fewer than two rows, or when two rows share the extreme value."""
    m = _SUPERLATIVE.search(question)
    records = _records(passages) if m else []
    if m is None or not records:
        return None
    want = stems(question)
    numeric = [c for c in dict.fromkeys(k for r, _, _ in records for k in r)
               if all(_number(r[c]) is not None for r, _, _ in records if c in r)]
    # The column sharing the most words with the question; of two alike, the one the question names whole
    # ("the most ovens": Ovens, not Power per oven kW).
    scored = sorted(((len(stems(c) & want), len(stems(c) & want) / max(1, len(stems(c))), i, c)
                     for i, c in enumerate(numeric)), key=lambda t: (-t[0], -t[1], t[2]))
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][:2] == scored[0][:2]):
        return None
    column = scored[0][3]
    rows = [(v, r) for r in records if column in r[0] and (v := _number(r[0][column])) is not None]
    if len(rows) < 2:
        return None
    lowest = m.group(1) is not None
    best = min(v for v, _ in rows) if lowest else max(v for v, _ in rows)
    winners = [r for v, r in rows if v == best]
    if len(winners) != 1:
        return None
    record, row, passage = winners[0]
    return Extreme(record, row, passage, column, m.group(0).lower(), record[column], len(rows))


def extreme_answer(found: Extreme) -> str:
    """The row, cited, and what it was compared with."""
    return (f"{_cited(found.row, found.passage.ref)} It has the {found.word} {found.column} ({found.value}) of the "
            f"{found.compared} rows found [{found.passage.ref}].")
