"""What a question names (names, codes, version numbers) and whether the evidence found names it.

An answer is only as good as its subject: a question about "Orchard Vale" answered from passages that never name
it, or about "firmware 4.4.0" from the notes of 4.1.0, is answered "not found" instead. A name counts as named when
most of its words are there, not counting the words every yard or road has ("North Yard" is not "South Yard"); a
version number counts only when written exactly. A sentence about another code of the same series ("TS-40" for a
question about the "TS-60") answers nothing about it.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.evidence import CODE, Passage, name_like, stems
from hopgraph.policies.answer.paragraphs import paragraph_of
from hopgraph.policies.answer.types import PLACE_WORDS
from hopgraph.policies.text import entity_spans, fold, terms

# A version number names one release exactly ("4.4.0" is not "4.1.0").
_VERSION = re.compile(r"\b\d+\.\d+\.\d+\b")


def question_anchors(question: str) -> list[str]:
    """Names and codes the question gives (not its capitalized first word)."""
    found = [m.group() for m in CODE.finditer(question)]
    # A name the question opens with counts when it is a full name ("Little Caesars and Pizza Hut ..."); a
    # year or decade ("the 1950s") is no name.
    # The first word of a later sentence is no name either ("... the upgrade. What's that person's job title?").
    found += [span for span, pos in entity_spans(question)
              if ((pos > 0 and not question[:pos].rstrip().endswith((".", "?", "!"))) or name_like(span))
              and len(span) > 2 and not re.fullmatch(r"\d+s?", span)]
    return found


def mentioned(anchor: str, passages: list[Passage]) -> bool:
    """Some passage names the anchor, or one of the names it joins ("Never Cry Wolf and Big Hero 6")."""
    return named_in(anchor, [p.title + " " + p.text for p in passages])


def named_in(anchor: str, texts: list[str]) -> bool:
    """One of ``texts`` names the anchor (most of its words), or one of the names it joins."""
    texts = [fold(t) for t in texts]
    for name in re.split(r"\s+(?:and|&|or)\s+", anchor):
        words = [re.sub(r"['’]s$", "", w) for w in terms(name)]  # "Kenji's" -> "kenji"
        # "North Yard" is not named by "South Yard": a word every yard or road has does not pick one out.
        words = [w for w in words if not stems(w) <= PLACE_WORDS] or words
        if not words or any(sum(w in text for w in words) * 2 >= len(words) for text in texts):
            return True
    return False


def unknown_version(question: str, passages: list[Passage]) -> bool:
    """The question names a version number ("firmware 4.4.0") that no passage found writes."""
    versions = _VERSION.findall(question)
    return bool(versions) and not any(v in p.title + " " + p.text for v in versions for p in passages)


def about_another_code(question: str, sentence: str, passage: Passage) -> bool:
    """The sentence is about another code of a series the question names one of ("the warranty on the TS-60"
    answered by "The TS-40 sensor carries a warranty of three years"; BUG-901 for BUG-882): it names another code
    with the same prefix, and neither it, its paragraph nor its document's title names the question's own."""
    asked = {m.group() for m in CODE.finditer(question)}
    if not asked:
        return False
    around = fold(" ".join((passage.title, paragraph_of(passage, sentence), sentence)))
    others = {m.group() for m in CODE.finditer(sentence)} - asked
    return any(code.split("-")[0] == other.split("-")[0] and fold(code) not in around
               for code in asked for other in others)
