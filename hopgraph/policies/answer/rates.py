"""A price per unit times a quantity of those units, each stated in its own place.

"At the rate we pay volunteers for mileage, how much do we owe the drivers for the miles they drove in October?"
over "Mileage in the volunteer's own car: 45p per mile" (a policy) and "In October they ... covered 1,180 miles"
(a report) is 1,180 × 0.45 GBP. The question asks "how much" and speaks of a number of the unit ("the miles",
not only "per mile"); the rate is a money amount per that unit ("45p per mile", "£12.50 an hour", "EUR 30 per
day"), the quantity a number of it written elsewhere; of several of either, the one whose sentence shares the
most words with the question. A question that names no unit ("What did the agency lifeguards we got in for August
cost us?") takes a rate and a number of its unit that are each said, in their paragraph, with two of its words
("Agency lifeguards: £21.90 an hour"; "In August Alys booked 46 hours of agency lifeguard cover"); a number said of
another month than the one the question names is of another period.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.aggregate import Aggregate, Operand, asks_for_arithmetic
from hopgraph.policies.answer.evidence import Passage, stem, stems
from hopgraph.policies.answer.paragraphs import paragraph_of, passage_sentences
from hopgraph.policies.answer.row_filter import named_months
from hopgraph.policies.answer.types import CURRENCY_OF_SYMBOL, states_money

# ("How much notice ...", "how much time ...": an amount of something else than money.)
_HOW_MUCH = re.compile(r"\bhow much\b(?!\s+(?:notice|time|warning|leave|space|room|data|memory|weight|longer|"
                       r"sooner|earlier|later)\b)|"
                       r"\bwhat (?:did|do|does|will|would|should|could|might) (?:[\w'’-]+ ){1,14}?"
                       r"(?:cost|costing|come to)\b|"
                       # "What should we expect the bill to be?", "What will the invoice be?"
                       r"\bwhat (?:will|would|should|might) (?:[\w'’-]+ ){0,6}?(?:bill|invoice|cost|total)s? "
                       r"(?:to )?be\b|"
                       # "What's the damage if we send ...", "What do we pay ...", "What will it set us back?"
                       r"\bwhat(?:'s|’s| is| would be| will be) the (?:damage(?!\s+(?:to|on|of|done|caused)\b)|"
                       r"(?:total |full )?(?:cost|price|bill))\b|"
                       r"\bwhat (?:do|would|will|should) (?:we|I|they|you) (?:have to )?pay\b|"
                       r"\bset (?:us|me|them|you) back\b", re.IGNORECASE)
_PER_WORDS = ("per", "a", "an", "each", "for each", "for every", "every")
_PER_ALTERNATION = "|".join(sorted(_PER_WORDS, key=len, reverse=True))
_MONEY_AMOUNT = (r"(?:(?P<symbol>[£€$])\s?(?P<amount>\d+(?:\.\d+)?)|(?P<pence>\d+(?:\.\d+)?)\s?p|"
                 r"(?P<code>EUR|GBP|USD|CHF)\s?(?P<coded>\d+(?:\.\d+)?)|(?P<plain>\d+(?:\.\d+)?)\s?(?P<after>EUR|GBP|USD|CHF))")
_RATE = re.compile(rf"{_MONEY_AMOUNT}\s+(?:{_PER_ALTERNATION})\s+(?P<unit>[a-z]+)\b", re.IGNORECASE)
# A rate whose unit a table's column names: "Weekday rate per hour: £15.80".
_HEADED_RATE = re.compile(rf"\bper\s+(?P<unit>[a-z]+)\s*:\s*{_MONEY_AMOUNT}", re.IGNORECASE)


def _rates_in(sentence: str) -> list[re.Match[str]]:
    """The rates a sentence or table row states: "£12.50 an hour", "Rate per hour: £12.50"."""
    return [*_RATE.finditer(sentence), *_HEADED_RATE.finditer(sentence)]


def _amount_text(match: re.Match[str]) -> str:
    """The money a rate states, as written ("45p", "£12.50")."""
    start = min(match.start(g) for g in ("symbol", "pence", "code", "plain") if match.group(g) is not None)
    end = max(match.end(g) for g in ("amount", "pence", "coded", "after") if match.group(g) is not None)
    text = match.string[start:end]
    return text if not match.group("pence") else f"{text}p"
# A rate and a quantity the question names no unit of: each said with at least this many of its words.
IMPLIED_WORDS = 2


def asks_cost(question: str) -> bool:
    """The question asks what something costs ("how much ...", "what would it cost ...")."""
    return _HOW_MUCH.search(question) is not None


def _rate(match: re.Match[str]) -> tuple[float, str]:
    """The rate's value and currency: "45p" is 0.45 GBP."""
    if match.group("pence"):
        return float(match.group("pence")) / 100, "GBP"
    if match.group("symbol"):
        return float(match.group("amount")), CURRENCY_OF_SYMBOL[match.group("symbol")]
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
    # "the mileage", "a mileage claim", "the tonnage": a number of miles, of tons, whatever word comes before it.
    return any(w == f"{stem(unit)}age" or (stems(w) == unit_stems and (i == 0 or words[i - 1] not in _PER_WORDS))
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
    rated = {stem(m.group("unit")) for s in sentences for m in _rates_in(s)}
    for sentence in sentences:
        if not stems(sentence) & want:
            continue
        for m in _QUANTITY.finditer(sentence):
            unit = stem(m.group("unit"))
            if _counts_units(question, unit) and unit not in rated:
                return f"rate per {_singular(m.group('unit'))}"
    for sentence in sentences:
        # "What did the agency lifeguards cost us?" over "46 hours of agency lifeguard cover": a unit of time or
        # distance the question does not name, said with what it asks about; search its rate with those words.
        shared = [w for w in re.findall(r"[\w'’-]+", question) if stems(w) & stems(sentence) and len(w) > 2]
        if len(stems(" ".join(shared))) < IMPLIED_WORDS:
            continue
        for m in _TIMED.finditer(sentence):
            unit = stem(m.group("unit"))
            if unit not in rated:
                return f"{' '.join(dict.fromkeys(shared))} rate per {_singular(m.group('unit'))}"
    return None


def _singular(word: str) -> str:
    """The unit as a search would name it: the word as written, in the singular ("housings" -> "housing"), not its
    stem ("housi")."""
    word = word.lower()
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


# A number of hours, days, miles ...: "46 hours", "6 school days".
_TIMED = re.compile(r"(?<![\w.,£€$])\d+(?:\.\d+)?\s+(?:[a-z]+\s+)?(?P<unit>hour|day|week|month|night|mile|kilometre|km|"
                    r"session|shift|visit)s?\b", re.IGNORECASE)


def rate_times_quantity(question: str, passages: list[Passage]) -> Aggregate | None:
    """The rate per unit and the quantity of units the question asks to multiply (see the module text), or None."""
    if not _HOW_MUCH.search(question) or asks_for_arithmetic(question) not in ("", "sum"):
        return None
    want = stems(question)
    sentences = [(s, p) for p in passages for s in passage_sentences(p)]
    rates: list[tuple[int, int, re.Match[str], str, Passage]] = []
    for order, (sentence, passage) in enumerate(sentences):
        for m in _rates_in(sentence):
            if _counts_units(question, m.group("unit")):
                rates.append((len(stems(sentence) & want), -order, m, sentence, passage))
    # "What did the agency lifeguards cost us?" names no unit: a rate said of what it asks about ("Agency lifeguards:
    # £21.90 an hour"), when a number of that unit is said of it too ("46 hours of agency lifeguard cover").
    implied = not rates
    if implied:
        rates = [(len(stems(paragraph_of(passage, sentence)) & want), -order, m, sentence, passage)
                 for order, (sentence, passage) in enumerate(sentences) for m in _rates_in(sentence)
                 if len(stems(paragraph_of(passage, sentence)) & want) >= IMPLIED_WORDS
                 and not stems(m.group("unit")) & want]  # "... for meals per day?" asks for the rate itself
    if not rates:
        return None
    _, _, rate, rate_sentence, rate_passage = max(rates, key=lambda r: (r[0], r[1]))
    unit = rate.group("unit").lower()
    # "1,180 miles", "14 locum vet days": a number of the unit, perhaps with a few words saying which.
    counted = re.compile(rf"(?<![\w.,£€$])(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)\s+(?:[a-z]+\s+){{0,3}}?"
                         rf"{re.escape(unit)}s?\b", re.IGNORECASE)
    months = set(named_months(question))
    quantities: list[tuple[int, int, re.Match[str], str, Passage]] = []
    for order, (sentence, passage) in enumerate(sentences):
        if sentence == rate_sentence:
            continue
        # Said of what the question asks about in its sentence or, for an implied unit, in its paragraph ("The
        # minibus gearbox failed ... The bus was off the road for 6 school days").
        shared = len(stems(paragraph_of(passage, sentence) if implied else sentence) & want)
        # "in August": a number said of another month is of another period (the June invoice's 26 hours).
        dated = set(named_months(sentence))
        if months and dated and not dated & months:
            continue
        for m in counted.finditer(sentence):
            if not implied or shared >= IMPLIED_WORDS:
                quantities.append((shared + (2 if dated & months else 0), -order, m, sentence, passage))
    if not quantities:
        return None
    _, _, quantity, quantity_sentence, quantity_passage = max(quantities, key=lambda q: (q[0], q[1]))
    # Of rates for that unit that fit the question alike, the one said of what the quantity is of ("an equine locum
    # vet for 9 days" takes "Equine locum vet, day: £520.00", not the small animal rate above it).
    best = max(r[0] for r in rates)
    tied = [r for r in rates if r[0] == best and r[2].group("unit").lower() == unit]
    _, _, rate, rate_sentence, rate_passage = max(
        tied, key=lambda r: (len(stems(r[3]) & stems(quantity_sentence)), r[1]))
    value, currency = _rate(rate)
    operands = [Operand(float(quantity.group(1).replace(",", "")), quantity.group(1), quantity_sentence,
                        quantity_passage),
                Operand(value, _amount_text(rate), rate_sentence, rate_passage)]
    agg = Aggregate("product", operands, "", unit=currency)
    agg.inputs = list(operands)
    return agg
