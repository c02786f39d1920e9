"""Sentences about a sibling of what the question names: "the bread team" when it asks about "the pastry team".

Word overlap counts the shared head ("team") and misses that the words in front of it pick another member of the
same kind. The documents themselves say when two such phrases are siblings: when what was read holds the
question's own phrase ("pastry team") somewhere, a sentence that puts another word in front of the same head
("bread team") and never says the question's word speaks of the other one. A phrase the documents never use
("the total cost") contrasts with nothing, so other wordings of it are left alone.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from hopgraph.policies.answer.evidence import stem
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
