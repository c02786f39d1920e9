"""Quantities derived from stated numbers: a rate applied to a value over a count of periods, with a cap.

"How much is the delay penalty for it?" over "1.5 percent of the value of the delayed purchase order for
each full week of delay ... capped at 10 percent", "PO-4471 ... Value EUR ... 48,200" and "three weeks
late" gives ``48200 * 1.5 / 100 * 3``, capped at ``48200 * 10 / 100``. The policy runs the program through
``run_python`` and states the result with the calculation and the sources of every input. Each number
is read from one sentence (or table row) of one cited passage, or from the question itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.text import fold

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1}
_UNITS = ("day", "week", "month", "year", "hour")
_UNIT = r"(?:working\s+|business\s+|calendar\s+|full\s+|started\s+|complete\s+)?(day|week|month|year|hour)s?"
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:percent|per cent|%)", re.IGNORECASE)
_PER_UNIT = re.compile(rf"\b(?:per|for each|for every|each|every|a)\s+{_UNIT}\b", re.IGNORECASE)
_CAP = re.compile(r"\b(?:capped at|limited to|up to|at most|maximum of|not exceed(?:ing)?|no more than)\s+"
                  r"(\d+(?:\.\d+)?)\s*(?:percent|per cent|%)", re.IGNORECASE)
_COUNT = re.compile(rf"\b(\d+|{'|'.join(k for k in _NUMBER_WORDS if len(k) > 2)})\s+{_UNIT}\b", re.IGNORECASE)
_AMOUNT = re.compile(r"(?<![\w.-])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w-])")
_CURRENCY = re.compile(r"\b(EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|JPY)\b|([€$£])", re.IGNORECASE)
_VALUE_LABEL = re.compile(r"\b(?:value|amount|price|cost|total|sum|fee|charge)\b", re.IGNORECASE)
_NUMERIC_LABELS = ("quantity", "qty", "units", "count", "value", "amount", "price", "cost", "total", "sum", "fee",
                   "charge", "weight", "volume")
# Questions that ask for a derived quantity.
_ASKS_AMOUNT = re.compile(r"\bhow much\b|\bwhat (?:is|was|would be) the (?:amount|total|sum)\b|\bcalculate\b|"
                          # "What delay penalty are we owed ...?", "the most they could owe us": a sum due.
                          r"\b(?:are|is) (?:we|they|you) owed\b|\bowe us\b|"
                          r"\bwhat does (?:it|that) come to\b", re.IGNORECASE)


@dataclass
class Quantity:
    value: float
    text: str  # as written: "48,200", "1.5 percent", "three weeks"
    passage: Passage | None  # None: stated in the question


@dataclass
class Calculation:
    base: Quantity
    rate: Quantity
    unit: str = ""  # the period the rate is per ("week"), '' for a one-off rate
    count: Quantity | None = None
    cap: Quantity | None = None
    currency: str = ""
    inputs: list[Quantity] = field(default_factory=list)

    def code(self) -> str:
        lines = [f"base = {self.base.value!r}", f"rate = {self.rate.value!r} / 100"]
        amount = "base * rate"
        if self.count is not None:
            lines.append(f"periods = {self.count.value!r}")
            amount += " * periods"
        lines.append(f"amount = {amount}")
        if self.cap is not None:
            lines.append(f"cap = base * {self.cap.value!r} / 100")
            lines.append("print(round(min(amount, cap), 2))")
            lines.append("print(round(cap, 2))")
        else:
            lines.append("print(round(amount, 2))")
        return "\n".join(lines)

    def formula(self) -> str:
        parts = [self.base.text, self.rate.text]
        if self.count is not None:
            parts.append(self.count.text)
        return " × ".join(parts)


def asks_for_amount(part: str) -> bool:
    return bool(_ASKS_AMOUNT.search(part))


def _number(text: str) -> float | None:
    word = fold(text)
    if word in _NUMBER_WORDS:
        return float(_NUMBER_WORDS[word])
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def _find_rate(ranked: list[tuple[str, Passage]]) -> tuple[Quantity, str, Quantity | None] | None:
    """(rate, unit, cap) from the best sentence stating a percentage of a value."""
    for sentence, passage in ranked:
        m = _PERCENT.search(sentence)
        if not m or _CAP.search(sentence[max(0, m.start() - 30):m.end()]):
            continue
        if not _VALUE_LABEL.search(sentence):
            continue  # a rate applied to nothing the documents give a value for
        per = _PER_UNIT.search(sentence, m.end())
        unit = fold(per.group(1)) if per else ""
        cap = _find_cap(sentence, passage)
        return Quantity(float(m.group(1)), m.group(0), passage), unit, cap
    return None


def _find_cap(sentence: str, passage: Passage) -> Quantity | None:
    """A cap in the same sentence or the one right after it in the same passage."""
    sents = passage_sentences(passage)
    follow = sents[sents.index(sentence) + 1:sents.index(sentence) + 2] if sentence in sents else []
    for text in [sentence, *follow]:
        m = _CAP.search(text)
        if m:
            return Quantity(float(m.group(1)), f"{m.group(1)} percent", passage)
    return None


def _row_value(row: str, header: str) -> str | None:
    """The value cell of a table row: a labelled field ("Amount EUR: 48,200"), or the number under the
    header's value column, counting only the numeric columns."""
    for field_text in row.split(";"):
        name, _, value = field_text.partition(":")
        if value and _VALUE_LABEL.search(name.replace("_", " ")):  # "value_gbp" is a value column
            m = _AMOUNT.search(value)
            if m:
                return m.group(1)
    if header:
        labels = [w for w in re.findall(r"[A-Za-z]+", header.lower()) if w in _NUMERIC_LABELS]
        numbers = [m.group(1) for m in _AMOUNT.finditer(row) if not _is_date_part(row, m)]
        for i, label in enumerate(labels):
            if _VALUE_LABEL.match(label) and i < len(numbers):
                return numbers[i]
    return None


def _is_date_part(row: str, m: re.Match[str]) -> bool:
    before, after = row[max(0, m.start() - 1):m.start()], row[m.end():m.end() + 1]
    return before in ("-", "/") or after in ("-", "/") or (len(m.group(1)) == 4 and m.group(1).startswith(("19", "20"))
                                                            and "," not in m.group(1))


def _header_of(passage: Passage) -> str:
    for line in passage.text.splitlines():
        if line.strip() and not any(c.isdigit() for c in line) and len(line.split()) >= 3:
            return line
    return ""


def _find_base(passages: list[Passage], key: str) -> tuple[Quantity, str] | None:
    """(the value of the item named ``key``, its currency) from a table row or record naming it."""
    for p in passages:
        header = _header_of(p)
        for row in passage_sentences(p):
            if key not in row:
                continue
            value = _row_value(row, header)
            if value is None:
                continue
            number = _number(value)
            if number is None:
                continue
            # ("value_gbp": the currency in a column name written in lower case.)
            cur = _CURRENCY.search(row.replace("_", " ")) or _CURRENCY.search(header.replace("_", " "))
            currency = (cur.group(1) or cur.group(2)).upper() if cur else ""
            return Quantity(number, value, p), currency
    return None


def _find_count(question: str, passages: list[Passage], unit: str, key: str) -> Quantity | None:
    """How many periods: said in the question, or in a sentence naming ``key`` (or its passage)."""
    for m in _COUNT.finditer(question):
        if fold(m.group(2)) == unit:
            value = _number(m.group(1))
            if value is not None:
                return Quantity(value, m.group(0), None)
    for p in passages:
        if key not in p.text:
            continue
        for sentence in passage_sentences(p):
            for m in _COUNT.finditer(sentence):
                if fold(m.group(2)) == unit and re.search(r"\b(?:late|after|delay|overdue|behind)\b", sentence):
                    value = _number(m.group(1))
                    if value is not None:
                        return Quantity(value, m.group(0), p)
    return None


def plan_calculation(question: str, part: str, key: str, ranked: list[tuple[str, Passage]],
                     passages: list[Passage]) -> Calculation | None:
    """The calculation a part of the question asks for, or None when the evidence lacks an input.

    ``key``: the item the rate applies to (the bridge: an order code, a name); ``ranked``: the part's
    evidence sentences, best first.
    """
    if not key or not asks_for_amount(part):
        return None
    found = _find_rate(ranked)
    if found is None:
        return None
    rate, unit, cap = found
    base = _find_base(passages, key)
    if base is None:
        return None
    count = None
    if unit:
        count = _find_count(question, passages, unit, key)
        if count is None:
            return None
    calc = Calculation(base=base[0], rate=rate, unit=unit, count=count, cap=cap, currency=base[1])
    calc.inputs = [q for q in (calc.base, calc.rate, calc.count, calc.cap) if q is not None]
    return calc


def printed_numbers(output: str) -> list[float]:
    """The numbers the program printed, one a line; [] when a line is not a number."""
    try:
        return [float(line) for line in output.split()]
    except ValueError:
        return []


def format_amount(value: float, currency: str) -> str:
    """2169.0 -> '2,169 EUR'."""
    text = f"{value:,.2f}".removesuffix(".00")
    return f"{text} {currency}".strip()
