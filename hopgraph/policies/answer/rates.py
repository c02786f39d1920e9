"""A price per unit times a quantity of those units, each stated in its own place.

"At the rate we pay volunteers for mileage, how much do we owe the drivers for the miles they drove in October?"
over "Mileage in the volunteer's own car: 45p per mile" (a policy) and "In October they ... covered 1,180 miles"
(a report) is 1,180 × 0.45 GBP. The question asks "how much" and speaks of a number of the unit ("the miles",
not only "per mile"); the rate is a money amount per that unit ("45p per mile", "£12.50 an hour", "EUR 30 per
day"), the quantity a number of it written elsewhere; of several of either, the one whose sentence shares the
most words with the question.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.aggregate import Aggregate, Operand, asks_for_arithmetic
from hopgraph.policies.answer.evidence import Passage, passage_sentences, stem, stems
from hopgraph.policies.answer.types import states_money

_HOW_MUCH = re.compile(r"\bhow much\b|\bwhat (?:did|do|does|will|would) (?:[\w'’-]+ ){1,10}?(?:cost|come to)\b",
                       re.IGNORECASE)
_PER_WORDS = ("per", "a", "an", "each", "for each", "for every", "every")
_PER_ALTERNATION = "|".join(sorted(_PER_WORDS, key=len, reverse=True))
_RATE = re.compile(
    r"(?:(?P<symbol>[£€$])\s?(?P<amount>\d+(?:\.\d+)?)|(?P<pence>\d+(?:\.\d+)?)\s?p|"
    r"(?P<code>EUR|GBP|USD|CHF)\s?(?P<coded>\d+(?:\.\d+)?)|(?P<plain>\d+(?:\.\d+)?)\s?(?P<after>EUR|GBP|USD|CHF))"
    rf"\s+(?:{_PER_ALTERNATION})\s+(?P<unit>[a-z]+)\b",
    re.IGNORECASE,
)
_CURRENCY = {"£": "GBP", "€": "EUR", "$": "USD"}
_PER = re.compile(rf"\s+(?:{_PER_ALTERNATION})\s+", re.IGNORECASE)


def _rate(match: re.Match[str]) -> tuple[float, str]:
    """The rate's value and currency: "45p" is 0.45 GBP."""
    if match.group("pence"):
        return float(match.group("pence")) / 100, "GBP"
    if match.group("symbol"):
        return float(match.group("amount")), _CURRENCY[match.group("symbol")]
    if match.group("code"):
        return float(match.group("coded")), match.group("code").upper()
    return float(match.group("plain")), match.group("after").upper()


def _counts_units(question: str, unit: str) -> bool:
    """The question speaks of a number of the unit ("the miles they drove"), not only of a rate per it ("How much
    can an employee claim for meals per day?")."""
    unit_stems = stems(unit)
    if not unit_stems:
        return False  # "for", "the": no unit
    words = re.findall(r"[\w']+", question.lower())
    # "the mileage", "the tonnage": a number of miles, of tons.
    return any((stems(w) == unit_stems or w == f"{stem(unit)}age") and (i == 0 or words[i - 1] not in _PER_WORDS)
               for i, w in enumerate(words))


# A number of some unit: "384 miles", "14 days".
_QUANTITY = re.compile(r"(?<![\w.,£€$])(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s+(?P<unit>[a-z]+)\b", re.IGNORECASE)


def rate_query(question: str, passages: list[Passage]) -> str | None:
    """A search for the rate per unit when a quantity the question counts is found and no rate for its unit.

    "How much should she get back for the mileage?" over "Esme drove 384 miles ... and will claim the mileage
    under the staff expenses policy": the rate per mile sits in a document of its own; search "rate per mile"."""
    if not _HOW_MUCH.search(question) or asks_for_arithmetic(question) not in ("", "sum"):
        return None
    want = stems(question)
    sentences = [s for p in passages for s in passage_sentences(p)]
    if any(states_money(s) and len(stems(s) & want) >= 2 for s in sentences):
        return None  # a sum of money about what is asked is found: the answer may be that, not a product
    rated = {stem(m.group("unit")) for s in sentences for m in _RATE.finditer(s)}
    for sentence in sentences:
        if not stems(sentence) & want:
            continue
        for m in _QUANTITY.finditer(sentence):
            unit = stem(m.group("unit"))
            if _counts_units(question, unit) and unit not in rated:
                return f"rate per {unit}"
    return None


def rate_times_quantity(question: str, passages: list[Passage]) -> Aggregate | None:
    """The rate per unit and the quantity of units the question asks to multiply (see the module text), or None."""
    if not _HOW_MUCH.search(question) or asks_for_arithmetic(question) not in ("", "sum"):
        return None
    want = stems(question)
    sentences = [(s, p) for p in passages for s in passage_sentences(p)]
    rates: list[tuple[int, int, re.Match[str], str, Passage]] = []
    for order, (sentence, passage) in enumerate(sentences):
        for m in _RATE.finditer(sentence):
            if _counts_units(question, m.group("unit")):
                rates.append((len(stems(sentence) & want), -order, m, sentence, passage))
    if not rates:
        return None
    _, _, rate, rate_sentence, rate_passage = max(rates, key=lambda r: (r[0], r[1]))
    unit = rate.group("unit").lower()
    # "1,180 miles", "14 locum vet days": a number of the unit, perhaps with a few words saying which.
    counted = re.compile(rf"(?<![\w.,£€$])(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)\s+(?:[a-z]+\s+){{0,3}}?"
                         rf"{re.escape(unit)}s?\b", re.IGNORECASE)
    quantities: list[tuple[int, int, re.Match[str], str, Passage]] = []
    for order, (sentence, passage) in enumerate(sentences):
        if sentence == rate_sentence:
            continue
        for m in counted.finditer(sentence):
            quantities.append((len(stems(sentence) & want), -order, m, sentence, passage))
    if not quantities:
        return None
    _, _, quantity, quantity_sentence, quantity_passage = max(quantities, key=lambda q: (q[0], q[1]))
    value, currency = _rate(rate)
    operands = [Operand(float(quantity.group(1).replace(",", "")), quantity.group(1), quantity_sentence,
                        quantity_passage),
                Operand(value, _PER.split(rate.group(0))[0], rate_sentence, rate_passage)]
    agg = Aggregate("product", operands, "", unit=currency)
    agg.inputs = list(operands)
    return agg
