"""Sums, differences, means and products of stated numbers that a question asks for.

A question asks for arithmetic when it says so: "total", "combined", "altogether", "together", "in all", "sum",
"plus" (a sum), "how much more ... than", "difference", "by how much did A exceed B" (a difference), "average",
"on average", "mean" (a mean), "in percentage terms, how much did A grow" (the change from the first number to the
second, in per cent), or asks for the total of a quantity that a table gives per unit ("total oven
power" over "Ovens: 6; Power per oven kW: 22": a rate times a quantity).

The numbers come from table rows (spelled out "Column: value; ..." by :mod:`hopgraph.policies.answer.evidence`)
or from sentences, never from the question alone:

- rows: the numeric column the question asks about and the rows it names, of the table it names by the most
  columns (:mod:`hopgraph.policies.answer.tables`: "the first half" of "Priory Library", every "outstanding"
  invoice). A table spans several chunks, so the policy first searches it again for rows not yet read
  (:mod:`hopgraph.policies.answer.table_search`);
- sentences: for each name the question gives ("the Fennel and Sorrel fleets"), the number written next to it
  in a sentence naming it ("The four Fennel vans ...").

A difference takes the item named first minus the one named after it ("how much more A than B"), or the other
way round when the question asks how much lower, less or fewer A was than B. A question that asks "how much" or
"how many" over a span of quarters ("from January to the end of September") adds up the rows of that span, and
one over rows picked by what they are not ("the invoices that haven't been paid") adds up those rows. Every
number keeps the row or sentence it
came from, so the answer cites each one and says which numbers it used. Nothing is computed when fewer than two
numbers are found (or, for a product, when the row lacks either).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hopgraph.policies.answer.evidence import Passage, stems
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.parallel import parallel_counts
from hopgraph.policies.answer.remainder import remainder_row
from hopgraph.policies.answer.row_filter import cell_quarters, left_out, named_quarters, named_rows
from hopgraph.policies.answer.tables import (
    NUMBER_WORDS,
    YEAR,
    Record,
    cell_number,
    column_match,
    table_records,
    table_rows,
)
from hopgraph.policies.answer.types import AMOUNT, holds_kind
from hopgraph.policies.text import entity_spans, fold

_SUM = re.compile(r"\b(?:total|totals|combined|altogether|together|in all|sum|plus|add(?:ed)? up|all told|overall|"
                  r"between them|across (?:all|both|every|each|the|our))\b", re.IGNORECASE)
_DIFFERENCE = re.compile(r"\bhow (?:much|many) (?:more|fewer|less|lower|higher|greater|bigger|smaller|larger|cheaper|"
                         r"dearer|longer|shorter)\b|\bdifference\b", re.IGNORECASE)
# "How much lower was A than B?": B minus A.
_SMALLER = re.compile(r"\bhow (?:much|many) (?:fewer|less|lower|smaller|cheaper|shorter)\b", re.IGNORECASE)
_THAN = re.compile(r"\bthan\b", re.IGNORECASE)
# "By how much did A exceed B?": a difference without "than".
_EXCEED = re.compile(r"\bhow (?:much|many)\b.*\b(?:exceed|exceeded|exceeds|overs?hoot|overshot)\b", re.IGNORECASE)
_MEAN = re.compile(r"\b(?:average|averaged|on average|mean)\b", re.IGNORECASE)
# "In percentage terms, how much did A grow between Q1 and Q2?", "by what percentage did it fall": (later - earlier)
# / earlier, in per cent.
_PERCENT = r"(?:percentage|per\s?cent|%)"
_MOVE = (r"(?:grow|grew|grown|growth|rise|rose|risen|increase[sd]?|fall|fell|fallen|drop(?:ped)?|decrease[sd]?|"
         r"change[sd]?)")
_CHANGE = re.compile(rf"\b{_PERCENT}.*\b{_MOVE}\b|\b{_MOVE}\b.*\b{_PERCENT}", re.IGNORECASE)
_IN_TEXT = re.compile(r"(?<![\w.,-])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|"
                      rf"{'|'.join(NUMBER_WORDS)})(?![\w-])", re.IGNORECASE)
ASKS_QUANTITY = re.compile(r"\bhow (?:much|many)\b|\bhow far (?:over|under|above|below)\b|"
                           r"\b(?:by )?what (?:percentage|per ?cent)\b|"
                           r"\b(?:what|which)(?: (?:is|was|were|are)|['’]s) the (?:total|sum|"
                            r"combined|difference)\b|\bwhat (?:total|sum)\b|\bin total\b|\badd(?:ing)? up\b|"
                            # "What did we spend on ...?", "what did the cover come to?": an amount of money.
                            r"\bwhat (?:did|do|does|will|would) (?:[\w'’-]+ ){1,10}?"
                            r"(?:spend|cost|pay|owe|earn|come to)\b",
                            re.IGNORECASE)
_PER = re.compile(r"^(.*?)\s+per\s+([a-z]+)\b(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Operand:
    value: float
    text: str  # as written: "84", "41,160", "four"
    source: str  # the row or sentence it came from
    passage: Passage


@dataclass
class Aggregate:
    op: str  # "sum", "difference", "change" (per cent), "mean" or "product"
    operands: list[Operand]
    label: str  # what is added up: a column header, or the noun after the numbers
    unit: str = ""
    inputs: list[Operand] = field(default_factory=list)
    # Table rows only: the cells the question named to pick them (column -> cells), for a search for more rows.
    conditions: dict[str, list[str]] = field(default_factory=dict)

    def code(self) -> str:
        values = ", ".join(repr(o.value) for o in self.operands)
        if self.op == "difference":
            return f"a, b = {values}\nprint(round(a - b, 4))"
        if self.op == "change":
            return f"a, b = {values}\nprint(round((b - a) / a * 100, 2))"
        if self.op == "mean":
            return f"values = [{values}]\nprint(round(sum(values) / len(values), 2))"
        if self.op == "product":
            return f"values = [{values}]\nresult = 1.0\nfor v in values:\n    result *= v\nprint(round(result, 4))"
        return f"values = [{values}]\nprint(round(sum(values), 4))"

    def formula(self) -> str:
        if self.op == "mean":
            return f"({' + '.join(o.text for o in self.operands)}) / {len(self.operands)}"
        if self.op == "change":
            first, then = (o.text for o in self.operands)
            return f"({then} − {first}) / {first} × 100"
        sign = {"sum": " + ", "difference": " − ", "product": " × "}[self.op]
        return sign.join(o.text for o in self.operands)


def asks_for_arithmetic(question: str) -> str:
    """"change", "difference", "mean", "sum" or '' (a product is recognised from the table, see
    :func:`plan_aggregate`)."""
    if _CHANGE.search(question):
        return "change"
    if (_DIFFERENCE.search(question) and _THAN.search(question)) or _EXCEED.search(question):
        return "difference"
    if _MEAN.search(question):
        return "mean"
    if _SUM.search(question):
        return "sum"
    return ""


# "put together", "added up": the verb goes with the word that asks for a sum.
_SUM_PHRASE = re.compile(r"\b(?:put|added|taken|lumped|all)\s+(?=together\b)", re.IGNORECASE)


def without_arithmetic_words(question: str) -> str:
    """The question with the words that ask for arithmetic taken out ("put together", "how much more", "on
    average"): they ask how to combine numbers and name nothing to look for."""
    for pattern in (_SUM_PHRASE, _SUM, _DIFFERENCE, _EXCEED, _MEAN):
        question = pattern.sub(" ", question)
    return question


def _product_row(records: list[tuple[dict[str, str], str, Passage]], question: str) -> Aggregate | None:
    """"total X" over a row giving X per unit and a count of those units (a rate times a quantity)."""
    if not re.search(r"\btotal\b", question, re.IGNORECASE):
        return None
    want = stems(question)
    for record, row, p in records:
        cells = {fold(v) for v in record.values() if cell_number(v) is None}
        if not any(fold(w) in cells for w in re.findall(r"[\w\-]+", question)):
            continue
        for name, value in record.items():
            m = _PER.match(name)
            rate = cell_number(value)
            if not m or rate is None or not (stems(m.group(1)) & want):
                continue
            unit_stems = stems(m.group(2))
            for other, count_text in record.items():
                count = cell_number(count_text)
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
                        if abs(m.start() - at) <= 25 and not YEAR.match(m.group(1))]
                if near:
                    m = min(near, key=lambda m: abs(m.start() - at))
                    value = cell_number(m.group(1))
                    if value is not None:
                        hit = Operand(value, m.group(1), sentence, p)
                        break
            if hit is not None:
                found.append(hit)
                break
    return found


def plan_aggregate(question: str, passages: list[Passage]) -> Aggregate | None:
    """The arithmetic the question asks for over the numbers found, or None."""
    if not ASKS_QUANTITY.search(question):
        return None  # "Who played together with ...?" asks for no number
    op = asks_for_arithmetic(question)
    records = table_records(passages)
    product = _product_row(records, question) if records else None
    if product is not None:
        product.inputs = list(product.operands)
        return product
    left = remainder_row(question, records) if op in ("", "difference") else None
    if left is not None:
        (cells, row, p), first, second = left
        ops = [Operand(value, cells[c], row, p) for c in (first, second)
               if (value := cell_number(cells[c])) is not None]
        remainder = Aggregate("difference", ops, f"{first} − {second}")
        remainder.inputs = list(ops)
        return remainder
    table = table_rows(question, records) if records else None
    if not op:
        # "How much did Stonegate spend on drugs from January to September?": the rows of those quarters, added;
        # "how much do we owe on the invoices that haven't been paid?": the rows picked by what they are not.
        spans = len(named_quarters(question)) > 1 and table is not None and len(
            {q for r, _, _ in table.rows for v in r.values() for q in cell_quarters(v)}) > 1
        if table is None or not (spans or left_out(question, table.conditions)):
            return None
        op = "sum"
    found = [Operand(v, r[table.column], row, p) for r, row, p in table.rows
             if (v := cell_number(r[table.column])) is not None] if table is not None else []
    label = table.column if table is not None else ""
    conditions = table.conditions if table is not None else {}
    if len(found) < 2:
        found = _named_counts(passages, question)
        label = ""
        conditions = {}
    if len(found) < 2 and op == "sum":
        # "... at the two clinics put together": a count per clinic, one sentence after another.
        found = [Operand(v, text, sentence, p) for v, text, sentence, p in parallel_counts(question, passages)]
    if len(found) < 2 or (op in ("difference", "change") and len(found) != 2):
        return None
    if op == "difference" and _SMALLER.search(question):
        found.reverse()
    agg = Aggregate(op, found, label, conditions=conditions)
    agg.inputs = list(found)
    return agg


def lookup_row(question: str, passages: list[Passage]) -> Record | None:
    """"How much did Central Library spend on energy in the third quarter?": the one table row the question
    names by its cells, when it asks for an amount of a column it names and no arithmetic; None otherwise."""
    if not ASKS_QUANTITY.search(question) or asks_for_arithmetic(question):
        return None
    records = table_records(passages)
    table = table_rows(question, records) if records else None
    if table is None or len(table.rows) != 1 or column_match(table.column, stems(question))[0] == 0:
        return None  # no row, several, or a column the question does not name (only a money one it asks of)
    if not holds_kind(table.rows[0][1], AMOUNT, question):
        return None  # "when we bought it" is not answered by a service bill
    return table.rows[0]


def lookup_answer(found: Record) -> str:
    """The row, cited."""
    _, row, passage = found
    return _cited(row, passage.ref)


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
        result = f"{numbers[0]:g}%" if agg.op == "change" else format_amount(numbers[0], agg.unit)
        lines.append(f"Calculated with run_python from these numbers: {agg.formula()} = {result}{what} {marks}.")
    elif not offered:
        lines.append(f"Not calculated: run_python is not available here. The numbers are {agg.formula()}{what}.")
    else:
        lines.append(f"Not calculated: run_python did not return a result. The numbers are {agg.formula()}{what}.")
    return " ".join(lines)


_SUPERLATIVE = re.compile(r"\b(?:(lowest|least|smallest|fewest|worst|cheapest|shortest|minimum)|"
                          r"(highest|most|largest|biggest|best|greatest|dearest|longest|maximum))\b", re.IGNORECASE)


# "delivered every order on time", "didn't miss a single delivery date", "never late": the highest on-time figure.
_ALWAYS_ON_TIME = re.compile(r"\b(?:every|each|all)\s+(?:\w+\s+){0,2}on[\s-]time\b|"
                             r"\b(?:did\s*n[o']t|didn’t|never)\s+miss(?:ed)?\s+(?:a\s+single|any|one)\b|"
                             r"\bnever\s+(?:\w+\s+)?late\b|\b(?:spotless|perfect|flawless)\s+on[\s-]time\b",
                             re.IGNORECASE)


def asks_for_extreme(question: str) -> bool:
    """"Which clinic spent the most ...?", "the lowest score": the question asks for the row with an extreme value."""
    return _SUPERLATIVE.search(question) is not None or _ALWAYS_ON_TIME.search(question) is not None


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
        return next((v for v in self.record.values() if cell_number(v) is None), "")


def extreme_row(question: str, passages: list[Passage]) -> Extreme | None:
    """"Which supplier has the lowest quality score?": the row whose value in the column the question names (by
    its header's words) is the lowest (or highest: "highest", "most", "best", ...) of the rows found (of those it
    names by their cells, "in the third quarter", when it names some); None without
    such a column, with fewer than two rows, or when two rows share the extreme value."""
    m = _SUPERLATIVE.search(question)
    always = _ALWAYS_ON_TIME.search(question) if m is None else None
    records = table_records(passages) if m or always else []
    if not records:
        return None
    # Never late: the row with the highest on-time figure.
    want = stems(question) | (stems("on time") if always else set())
    numeric = [c for c in dict.fromkeys(k for r, _, _ in records for k in r)
               if all(cell_number(r[c]) is not None for r, _, _ in records if c in r)]
    # The column sharing the most words with the question; of two alike, the one the question names whole
    # ("the most ovens": Ovens, not Power per oven kW).
    scored = sorted(((*column_match(c, want), i, c) for i, c in enumerate(numeric)), key=lambda t: (-t[0], -t[1], t[2]))
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][:2] == scored[0][:2]):
        return None
    column = scored[0][3]
    with_column = [r for r in records if column in r[0]]
    # "... the most on drugs in the third quarter": only the rows the question names, when it names some.
    named, _ = named_rows(with_column, lambda r: r[0], question, lambda cell: cell_number(cell) is not None,
                          skip=column)
    rows = [(v, r) for r in named or with_column if (v := cell_number(r[0][column])) is not None]
    if len(rows) < 2:
        return None
    lowest = m is not None and m.group(1) is not None
    best = min(v for v, _ in rows) if lowest else max(v for v, _ in rows)
    winners = [r for v, r in rows if v == best]
    if len(winners) != 1:
        return None
    record, row, passage = winners[0]
    word = m.group(0).lower() if m is not None else "highest"
    return Extreme(record, row, passage, column, word, record[column], len(rows))


def extreme_answer(found: Extreme) -> str:
    """The row, cited, and what it was compared with."""
    value = cell_number(found.value)
    # Written for reading: "66210" -> "66,210" (the row above keeps the cell as written).
    shown = f"{value:,.2f}".removesuffix(".00") if value is not None and abs(value) >= 1000 else found.value
    return (f"{_cited(found.row, found.passage.ref)} It has the {found.word} {found.column} ({shown}) of the "
            f"{found.compared} rows found [{found.passage.ref}].")
