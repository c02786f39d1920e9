"""What a question names as the thing it asks about, so an answer about another thing is "not found".

"What is the insurance excess on the vans?" asks for an excess of insurance: a sentence about insurance alone does
not answer it (:func:`asked_thing`, for "what is the X of ...?"). "When is the refurbishment of the children's area
due to be finished?" asks a date of a refurbishment: a date of another task does not answer it
(:func:`asked_subject`, for "when / where / who / how many", and the job a person is asked by: "which lawyer ...",
"what's the finance director's name?"). Both give stems the answer must speak of, or nothing when the question names
no such thing or only a generic one ("the name of", "the value of").
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.bridge import MEASURES
from hopgraph.policies.answer.evidence import stems
from hopgraph.policies.answer.types import PERSON_NOUNS

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
_ASKED_SUBJECT = re.compile(r"^\s*(?:[Ww]hen|[Ww]here|[Ww]ho|[Hh]ow\s+(?:many|much))\s+"
                            r"(?:(?:is|was|are|were|will|did|does|do|has|have|had)\s+)?(?:the|our|their|its|a|an)?\s*"
                            r"((?:[a-z][\w\-']*\s+){0,2}?[a-z][\w\-]*)\s+(?:of|for|at|in|on|to|with|that|which|who|"
                            r"due|be|been|being|did|do|does|is|was|are|were|has|have|had|will|would|should|must|can|"
                            r"could)\b")
_DETERMINERS = frozenset({"the", "a", "an", "our", "their", "its", "his", "her", "my", "your", "this", "that"})
# "Who is the council's building inspector?": a thing named by its whole noun phrase after "is the".
_ASKED_SUBJECT_END = re.compile(r"^\s*(?:[Ww]hen|[Ww]here|[Ww]ho)\s+(?:is|was|are|were)\s+"
                                r"(?:the|our|their|its|a|an)\s+((?:[a-z][\w\-']*\s+){0,2}[a-z][\w\-]*)\s*\??\s*$")

# "What's the finance director's name?", "What is the name of the site manager?": the person named by a job.
_NAME_ASKED = re.compile(r"^\s*[Ww]hat(?:'s|’s|\s+is|\s+was)\s+(?:(?:the|our|their|its)\s+((?:[a-z][\w\-]*\s+){0,2}"
                         r"[a-z][\w\-]*)(?:'s|’s)\s+name|the\s+name\s+of\s+(?:the|our|their|its)\s+"
                         r"((?:[a-z][\w\-]*\s+){0,2}[a-z][\w\-]*))\s*\??\s*$")

# "Which lawyer wrote ...", "which of the firmware engineers fixed ...": the person asked for by their job.
_WHICH_JOB = re.compile(rf"^\s*[Ww]hich\s+(?:of\s+(?:the|our|their|your)\s+)?((?:[a-z][\w\-]*\s+)?"
                        rf"(?:{'|'.join(PERSON_NOUNS)}))s?\b")


def asked_subject(part: str) -> set[str]:
    """Stems of the head of the thing a "when / where / who / how many" question asks about by name
    ("refurbishment" of "When is the refurbishment of the children's area due to be finished?"), or of the job a
    person is asked by ("lawyer" of "Which lawyer wrote ...?", "director" of "What's the finance director's
    name?"): the answer's passage must speak of it. Empty when the question names no such thing or a generic one."""
    asked = _last_sentence(part)
    return _job_stems(asked) or _head_stems(_ASKED_SUBJECT.search(asked) or _ASKED_SUBJECT_END.search(asked)
                                            or _NAME_ASKED.search(asked))


def asked_role(part: str) -> set[str]:
    """Stems of the head of the job or thing a question ends by naming ("director" of "Big contracts need his
    signature. Who is our finance director?", "What's the finance director's name?"), or of the job it asks a person
    by ("Which lawyer wrote ...?"); empty for any other wording ("Who is allowed to sign ...?")."""
    asked = _last_sentence(part)
    return _job_stems(asked) or _head_stems(_ASKED_SUBJECT_END.search(asked) or _NAME_ASKED.search(asked))


def _last_sentence(part: str) -> str:
    """After a statement, the question is the last sentence: "Big contracts need his signature. Who is our finance
    director?"."""
    return re.split(r"(?<=[.!])\s+(?=[A-Z])", part.strip())[-1]


def _job_stems(asked: str) -> set[str]:
    """Stems of the job a "which <job>" question asks for, with the word before it: a passage may speak of the
    team rather than the job ("which of the firmware engineers": "Tomasz Kowal of the firmware team")."""
    m = _WHICH_JOB.search(asked)
    return stems(m.group(1)) if m else set()


def _head_stems(m: re.Match[str] | None) -> set[str]:
    if not m:
        return set()
    words = next(g for g in m.groups() if g).split()
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
