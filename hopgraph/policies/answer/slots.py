"""Where the answer sits in a sentence, by the question's wording.

"Which Danish heavy metal band ...": the words after the question word describe the answer itself. "created by
who?": the verb and preposition before the question word leave a slot that a sentence fills with a name or a number
("It was created by TV executive Reg Watson").
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.evidence import stem, stems

# "Which Danish heavy metal band ...", "starred which television and movie actor": the words after the
# question word describe the answer itself.
_WH_PHRASE = re.compile(r"\b(?:which|what|whose)\s+(?:(?:is|was|are|were)\s+)?(?:(?:the|an?)\s+)?"
                        r"((?:[\w\-]+\s+){0,4}[\w\-]+)", re.IGNORECASE)


def described_answer(question: str) -> set[str]:
    """Stems of the words right after the question word, when at least two say what the answer is."""
    m = _WH_PHRASE.search(question)
    # Only the words in lower case: a name the question gives ("Ostrava Optics") is no description.
    found = stems(" ".join(w for w in m.group(1).split() if not w[:1].isupper())) if m else set()
    return found if len(found) >= 2 else set()


# "created by who?", "written by whom?", "premiered on which date?": the verb and the preposition right
# before the question word; a sentence that follows them with a name or a number says the answer.
_ANSWER_SLOT = re.compile(r"\b([a-z]{3,})\s+(by|in|on|at|from|for|to|with|of)\s+(?:who|whom|what|which)\b",
                          re.IGNORECASE)
# A word of a sentence or a cell: letters, digits, hyphens and apostrophes ("on-call", "Moira's").
WORD = re.compile(r"[\w\-']+")


def answer_slots(question: str) -> set[tuple[str, str]]:
    """(verb stem, preposition) the question puts right before its question word."""
    return {(stem(m.group(1)), m.group(2).lower()) for m in _ANSWER_SLOT.finditer(question)}


def fills_answer_slot(sentence: str, slots: set[tuple[str, str]]) -> bool:
    """The sentence has a slot's verb, its preposition within a few words, and then a name or number."""
    words = WORD.findall(sentence)
    for i, w in enumerate(words):
        for verb, prep in slots:
            if stem(w) != verb:
                continue
            for j in range(i + 1, min(i + 5, len(words) - 1)):
                if words[j].lower() == prep:
                    nxt = words[j + 1] if words[j + 1].lower() not in ("the", "a", "an") else (
                        words[j + 2] if j + 2 < len(words) else "")
                    if nxt[:1].isupper() or nxt[:1].isdigit():
                        return True
                    break
    return False


# "Root cause: the renewal job had been disabled ...", "The reason was ...": a sentence that says it gives the cause.
_GIVES_CAUSE = re.compile(r"^\W*(?:the\s+)?(?:root\s+)?(?:cause|reason)(?:\s+(?:was|is))?\s*[:\-]?\s", re.IGNORECASE)


def gives_cause(sentence: str) -> bool:
    return _GIVES_CAUSE.match(sentence) is not None
