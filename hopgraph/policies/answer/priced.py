"""A quantity the question gives, times the price the documents give for one of it, with a surcharge it names.

"What would it cost to send five full pallets from Hull to Rotterdam as an express shipment at the 2026 rates?" over
a rate card saying "Hull to Rotterdam, full pallet: EUR 210" and "Express surcharge: 60 percent" is 5 × 210 × 1.6 EUR.
The question asks what something costs and counts the units itself ("five full pallets", "3 nights"); the price is a
sum of money said right after the unit (its label, "full pallet: EUR 210", or "EUR 210 per pallet"), in the sentence
sharing the most words with the question (the route; a name the question gives is enough); a surcharge counts when
the question says the word it is for ("express"). The rows and sentences the price and the surcharge came from are
cited; the quantity is the question's.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.aggregate import Aggregate, Operand, asks_for_arithmetic
from hopgraph.policies.answer.evidence import Passage, named_stems, stems
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.rates import asks_cost
from hopgraph.policies.answer.tables import NUMBER_WORDS
from hopgraph.policies.answer.types import CURRENCY_OF_SYMBOL

_COUNTED = re.compile(rf"\b(\d+|{'|'.join(NUMBER_WORDS)})\s+((?:[a-z-]+\s+){{0,2}}?[a-z]+s)\b", re.IGNORECASE)
# "one full pallet", "a single pallet": one unit, named in the singular.
_ONE = re.compile(r"\b(?:one|1|a single)\s+((?:[a-z-]+\s+){0,2}?[a-z]+)\s+(?:to|from|by|for|at|on|in|of|with)\b",
                  re.IGNORECASE)
_MONEY = re.compile(r"(?:(?P<code>EUR|GBP|USD|CHF)\s?|(?P<symbol>[£€$]))(?P<amount>\d{1,3}(?:,\d{3})*(?:\.\d+)?|"
                    r"\d+(?:\.\d+)?)")
_SURCHARGE = re.compile(r"\b(?P<what>[a-z]+)\s+(?:surcharge|supplement)\s*:?\s*(?:of\s+)?(?P<pct>\d+(?:\.\d+)?)\s*"
                        r"(?:percent|per cent|%)", re.IGNORECASE)
# The price follows its unit within this many characters ("full pallet: EUR 210").
_NEAR = 12
# A price is taken only from a sentence sharing at least this many of the question's words besides the unit.
_SHARED = 2


def priced_quantity(question: str, passages: list[Passage]) -> Aggregate | None:
    """The number of units the question gives times the price of one, with a surcharge it names; or None."""
    if not asks_cost(question) or asks_for_arithmetic(question) not in ("", "product"):
        return None
    counted = _COUNTED.search(question)
    one = _ONE.search(question) if counted is None else None
    if counted is not None:
        number, phrase = counted.group(1).lower(), counted.group(2).lower()
        quantity = float(number) if number.isdigit() else float(NUMBER_WORDS[number])
        unit = phrase[:-1]  # "full pallets" -> "full pallet"
        said = f"{counted.group(1)} {phrase}"
    elif one is not None:
        quantity, unit = 1.0, one.group(1).lower()
        said = f"1 {unit}"
    else:
        return None
    want = stems(question) - stems(unit)
    # A place or a name the question gives picks the row by itself ("to Gdansk": "Hull to Gdansk, full pallet").
    named = named_stems(question) & want
    prices: list[tuple[int, int, float, str, str, str, Passage]] = []
    order = 0
    for passage in passages:
        for sentence in passage_sentences(passage):
            order += 1
            for at in (m.end() for m in re.finditer(rf"\b{re.escape(unit)}s?\b", sentence, re.IGNORECASE)):
                money = _MONEY.search(sentence, at, at + _NEAR + 12)
                if money is None or money.start() - at > _NEAR:
                    continue
                shared = len(stems(sentence) & want)
                if shared >= _SHARED or (shared and stems(sentence) & named):
                    currency = money.group("code") or CURRENCY_OF_SYMBOL[money.group("symbol")]
                    prices.append((shared, -order, float(money.group("amount").replace(",", "")), money.group(0),
                                   currency.upper(), sentence, passage))
    if not prices:
        return None
    _, _, price, price_text, currency, price_sentence, price_passage = max(prices, key=lambda p: (p[0], p[1]))
    operands = [Operand(quantity, said, price_sentence, price_passage),
                Operand(price, price_text, price_sentence, price_passage)]
    inputs = [operands[1]]
    asked = stems(question)
    for passage in passages:
        for sentence in passage_sentences(passage):
            for m in _SURCHARGE.finditer(sentence):
                if stems(m.group("what")) & asked and len(operands) == 2:
                    factor = Operand(1 + float(m.group("pct")) / 100, f"(1 + {m.group('pct')}%)", sentence, passage)
                    operands.append(factor)
                    inputs.append(factor)
    agg = Aggregate("product", operands, "", unit=currency)
    agg.inputs = inputs
    return agg
