"""What a question names as the thing it asks about, so an answer about another thing is "not found".

"What is the insurance excess on the vans?" asks for an excess of insurance: a sentence about insurance alone does
not answer it (:func:`asked_thing`, for "what is the X of ...?"). "When is the refurbishment of the children's area
due to be finished?" asks a date of a refurbishment: a date of another task does not answer it
(:func:`asked_subject`, for "when / where / who / how many"). Both give stems the answer must speak of, or nothing
when the question names no such thing or only a generic one ("the name of", "the value of").
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.bridge import MEASURES
from hopgraph.policies.answer.evidence import stems

# "What is the parking policy for ...", "What was the root cause of ...": the thing the question asks for by name.
_ASKED_THING = re.compile(r"^\s*[Ww]hat\s+(?:is|was|are|were)\s+(?:the|our|their|its|a|an)\s+((?:[a-z][\w\-]*\s+){0,2}?"
                          r"[a-z][\w\-]*)\s+(?:of|for|at|in|on|to|with|that|which|who|when|where|under|between|"
                          r"does|do|did|is|was|are|were|has|have)\b")
# Heads that name no thing of their own ("the name of", "the value of"): the answer's words may differ.
_GENERIC_HEADS = MEASURES | frozenset({"kind", "type", "sort", "role", "reason", "purpose", "meaning", "status",
                                       "acronym", "abbreviation", "word", "nickname", "spelling", "symbol",
                                       "term", "one", "part", "first", "last", "main", "same", "other"})


def asked_thing(part: str) -> set[str]:
    """Stems of the thing a "what is the X of ...?" question asks for by name, its head and the words that say
    which one ("insurance excess": a sentence about insurance alone does not speak of it; "serial number": nor
    does one with any number); empty for a generic head."""
    m = _ASKED_THING.search(part)
    if not m or m.group(1).split()[-1] in _GENERIC_HEADS:
        return set()
    words = m.group(1).split()
    # A superlative ("the most popular hotel", "the largest site") ranks the things; it does not name one.
    kept = [w for i, w in enumerate(words) if w not in _GENERIC_HEADS and w not in ("most", "least")
            and not (i and words[i - 1] in ("most", "least")) and not _superlative(w, i, words)]
    return {t for w in kept for t in stems(w)}


# "When is the refurbishment of ... due", "Where was the meeting held", "How many loans did ...": the thing the
# question asks a date, a place, a person or an amount of.
_ASKED_SUBJECT = re.compile(r"^\s*(?:[Ww]hen|[Ww]here|[Ww]ho|[Hh]ow\s+(?:many|much))\s+(?:(?:is|was|are|were|will|did|"
                            r"does|do|has|have|had)\s+)?(?:the|our|their|its|a|an)?\s*((?:[a-z][\w\-']*\s+){0,2}?"
                            r"[a-z][\w\-]*)\s+(?:of|for|at|in|on|to|with|that|which|who|due|be|been|being|"
                            r"did|do|does|is|was|are|were|has|have|had|will|would|should|must|can|could)\b")
_DETERMINERS = frozenset({"the", "a", "an", "our", "their", "its", "his", "her", "my", "your", "this", "that"})
# "Who is the council's building inspector?": a thing named by its whole noun phrase after "is the".
_ASKED_SUBJECT_END = re.compile(r"^\s*(?:[Ww]hen|[Ww]here|[Ww]ho)\s+(?:is|was|are|were)\s+(?:the|our|their|its|a|an)\s+"
                                r"((?:[a-z][\w\-']*\s+){0,2}[a-z][\w\-]*)\s*\??\s*$")


def asked_subject(part: str) -> set[str]:
    """Stems of the head of the thing a "when / where / who / how many" question asks about by name
    ("refurbishment" of "When is the refurbishment of the children's area due to be finished?"): the answer's
    passage must speak of it. Empty when the question names no such thing or a generic one."""
    asked = _last_sentence(part)
    return _head_stems(_ASKED_SUBJECT.search(asked) or _ASKED_SUBJECT_END.search(asked))


def asked_role(part: str) -> set[str]:
    """Stems of the head of the job or thing a question ends by naming ("director" of "Big contracts need his
    signature. Who is our finance director?"); empty for any other wording ("Who is allowed to sign ...?")."""
    return _head_stems(_ASKED_SUBJECT_END.search(_last_sentence(part)))


def _last_sentence(part: str) -> str:
    """After a statement, the question is the last sentence: "Big contracts need his signature. Who is our finance
    director?"."""
    return re.split(r"(?<=[.!])\s+(?=[A-Z])", part.strip())[-1]


def _head_stems(m: re.Match[str] | None) -> set[str]:
    if not m:
        return set()
    words = m.group(1).split()
    if _DETERMINERS & set(words):
        # "Who was given the job of ...": a verb and its object, not a thing named. (A verb alone still is what
        # the answer must speak of: "Who has been appointed to ...".)
        return set()
    head = words[-1]
    if head in _GENERIC_HEADS or head in _SUBJECT_VERBS:
        return set()
    return stems(head)


# Words the pattern can take for a head that are verbs or pronouns: "Who manages the ...", "When did it ...".
_SUBJECT_VERBS = frozenset({"it", "they", "he", "she", "we", "you", "i", "this", "that", "there", "people",
                            "times", "much", "many", "long", "often"})


# Words ending in "est" that are no superlatives.
_NOT_SUPERLATIVE = frozenset({"test", "guest", "request", "interest", "forest", "contest", "harvest", "chest", "vest",
                              "nest", "west", "crest", "quest", "rest", "pest", "arrest", "protest", "digest"})


def _superlative(word: str, at: int, words: list[str]) -> bool:
    """"largest" of "the largest site": a word ending in -est before the head that is no noun of that ending."""
    return at < len(words) - 1 and (word in ("best", "worst") or (
        word.endswith("est") and len(word) > 4 and word not in _NOT_SUPERLATIVE))
