"""Sentences about a sibling of what the question names: "the bread team" when it asks about "the pastry team".

Word overlap counts the shared head ("team") and misses that the words in front of it pick another member of the
same kind. The documents themselves say when two such phrases are siblings: when what was read holds the
question's own phrase ("pastry team") somewhere, a sentence that puts another word in front of the same head
("bread team") and never says the question's word speaks of the other one. A phrase the documents never use
("the total cost") contrasts with nothing, so other wordings of it are left alone.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from hopgraph.policies.answer.evidence import stem, stems
from hopgraph.policies.text import STOPWORDS, words


@functools.lru_cache(maxsize=1 << 14)
def word_pairs(text: str) -> frozenset[tuple[str, str]]:
    """Stems of each two adjacent words that are neither stop words nor numbers: (modifier, head)."""
    tokens = words(text)
    return frozenset((stem(a), stem(b)) for a, b in zip(tokens, tokens[1:], strict=False)
                     if a not in STOPWORDS and b not in STOPWORDS and a.isalpha() and b.isalpha())


def sibling_pairs(question: str, texts: Iterable[str]) -> dict[str, str]:
    """The question's (modifier, head) pairs that the documents read also use, as head -> modifier."""
    asked = word_pairs(question)
    said: set[tuple[str, str]] = set()
    for text in texts:
        said |= asked & word_pairs(text)
    return {head: modifier for modifier, head in said}


def speaks_of_sibling(text: str, siblings: dict[str, str], question_stems: set[str]) -> bool:
    """The text puts another word than the question's in front of a head the question names ("bread team"), and
    never says the question's own word ("pastry")."""
    if not siblings:
        return False
    own = {stem(w) for w in words(text)}
    return any(head in siblings and modifier != siblings[head] and siblings[head] not in own
               and modifier not in question_stems for modifier, head in word_pairs(text))


# Groups of a few alternatives of the same thing (a half pallet or a full one, a weekday rate or a weekend one), and
# the words naming each alternative: a sentence giving another alternative and not the asked one is about something
# else, though the documents never use the question's phrase.
_GROUPS: dict[str, dict[str, tuple[str, ...]]] = {
    "share": {"full": ("full",), "half": ("half",), "quarter": ("quarter",)},
    "days": {"weekday": ("weekday", "weekdays", "monday", "tuesday", "wednesday", "thursday", "friday"),
             "weekend": ("weekend", "weekends", "saturday", "sunday", "saturdays", "sundays")},
    "age": {"adult": ("adult",), "child": ("child",), "junior": ("junior",)},
    "beds": {"single": ("single",), "double": ("double",), "twin": ("twin",)},
    "season": {"summer": ("summer",), "winter": ("winter",)},
}
_ALTERNATIVE_OF = {word: (group, alternative) for group, alternatives in _GROUPS.items()
                   for alternative, named in alternatives.items() for word in named}


def _alternatives(text: str) -> dict[str, set[str]]:
    """The alternatives the text names, by their group: {"share": {"full"}}."""
    found: dict[str, set[str]] = {}
    for word in words(text):
        if word in _ALTERNATIVE_OF:
            group, alternative = _ALTERNATIVE_OF[word]
            found.setdefault(group, set()).add(alternative)
    return found


def another_alternative(question: str, text: str) -> bool:
    """The text names another of the alternatives the question picks one of, and not the question's ("Hull to
    Rotterdam, full pallet: EUR 210" for "a half pallet"; "Weekday rate per hour" for "on a Saturday")."""
    said = _alternatives(text)
    return any(group in said and not asked & said[group] for group, asked in _alternatives(question).items())


# "every 5 minutes", "a 15 minute wake-up interval", "at 30-second intervals": an interval a setting is given in.
_TIME_UNIT = r"(second|minute|hour|day|week|month)s?"
_EVERY = re.compile(rf"\bevery\s+(\d+(?:\.\d+)?)\s+{_TIME_UNIT}\b", re.IGNORECASE)
_INTERVAL = re.compile(rf"\b(\d+(?:\.\d+)?)[\s\-]+{_TIME_UNIT}\b(?:\s+[\w\-]+)?\s+intervals?\b", re.IGNORECASE)


def _intervals(pattern: re.Pattern[str], text: str) -> set[tuple[str, str]]:
    """(number, unit) of each interval the pattern finds."""
    return {(m.group(1), m.group(2).lower()) for m in pattern.finditer(text)}


def another_interval(question: str, text: str) -> bool:
    """The question sets an interval ("wake up every 5 minutes") and the text gives its figure for another interval of
    the same unit ("about five years at a 15 minute wake-up interval"), not for the question's: it says nothing of the
    setting asked about."""
    asked = _intervals(_EVERY, question)
    if not asked:
        return False
    given = _intervals(_INTERVAL, text) | _intervals(_EVERY, text)
    units = {unit for _, unit in asked}
    return any(unit in units for _, unit in given) and not asked & given


# "on their side", "on Meridian's side", "for them": the question asks about the other party to an agreement.
_THEIR_SIDE = re.compile(r"\bon\s+(?:their|the\s+other|the\s+supplier'?s|[A-Z][\w&-]*(?:'s|’s))\s+side\b|"
                         r"\bfor\s+them\b")
# A line given for one party: "Signed for Tidewater Instruments Ltd: Helen Marsh".
_FOR_PARTY = re.compile(r"\b(?:[Ss]igned\s+)?(?:for|on behalf of)\s+([A-Z][^:;]{1,60}?):")


def another_side(question: str, text: str) -> bool:
    """The question asks about the other party's side ("Who signed the Carrow agreement on their side?") and the text
    is a line given for a party the question does not name ("Signed for Tidewater Instruments Ltd: Helen Marsh")."""
    if not _THEIR_SIDE.search(question):
        return False
    party = _FOR_PARTY.search(text)
    return party is not None and not stems(party.group(1)) & stems(question)


def named_party_lines(question: str, texts: Iterable[str]) -> list[str]:
    """When the question asks about a party's side, the lines of the texts given for a party it names ("Signed for
    Meridian Circuits Oy: authorised representative" for "Who signed ... on Meridian's side?"): where the answer
    stands, if the documents give it."""
    if not _THEIR_SIDE.search(question):
        return []
    asked = stems(question)
    return [line.strip() for text in texts for line in text.splitlines()
            if (party := _FOR_PARTY.search(line)) and stems(party.group(1)) & asked]
