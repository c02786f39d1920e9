"""Counts a paragraph gives one after another for the members of a set the question names only by number.

"How many dogs and cats got vaccinated ... at the two small-animal clinics put together?" over "Over the six weeks
the Kestrel Road nurses vaccinated 386 dogs and cats under the offer. The Orchard Vale team managed 412, helped by
the extra Sunday clinics.": the first sentence gives a number of the thing counted ("386 dogs"), the next ones a
bare number each ("managed 412,"); as many numbers as the question says ("the two", "both", "all three") are added.
A number followed by a word ("64 of the animals", "six weeks") or a year is not one of them.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.sentences import prose_paragraphs
from hopgraph.policies.answer.tables import NUMBER_WORDS, YEAR, cell_number

_HOW_MANY = re.compile(r"\bhow many\s+((?:[a-z][\w-]*\s+){0,3}?[a-z][\w-]*)\s+"
                       r"(?:got|were|was|did|do|does|have|has|had|are|is|will|can|could|would)\b", re.IGNORECASE)
_MEMBERS = re.compile(r"\b(?:the|all|our)\s+(two|three|four)\b|\b(both)\b", re.IGNORECASE)
_NUMBER = r"\d{1,3}(?:,\d{3})+|\d+"
# A bare number: not part of a figure, not followed by a word, a unit or a percent sign.
_BARE = re.compile(rf"(?<![\w.,£€$-])({_NUMBER})(?![\w%]|[.,]\d|\s*(?:%|[A-Za-z]))")


def parallel_counts(question: str, passages: list[Passage]) -> list[tuple[float, str, str, Passage]]:
    """(value, as written, sentence, passage) for each member's count (see the module text), or []."""
    asked, members = _HOW_MANY.search(question), _MEMBERS.search(question)
    if asked is None or members is None:
        return []
    wanted = NUMBER_WORDS[(members.group(1) or "two").lower()]  # "both": two
    counted = asked.group(1).split()[0]
    first = re.compile(rf"(?<![\w.,£€$-])({_NUMBER})\s+{re.escape(counted)}\b", re.IGNORECASE)
    for p in passages:
        for paragraph in prose_paragraphs(p.text):
            for i, sentence in enumerate(paragraph):
                m = first.search(sentence)
                if m is None:
                    continue
                found = [(m.group(1), sentence)]
                for later in paragraph[i + 1:]:
                    bare = [b.group(1) for b in _BARE.finditer(later) if not YEAR.match(b.group(1))]
                    if len(bare) != 1:
                        break
                    found.append((bare[0], later))
                if len(found) == wanted:
                    values = [(cell_number(text), text, s) for text, s in found]
                    return [(v, text, s, p) for v, text, s in values if v is not None]
    return []
