"""Questions that name their candidates: "Who is older, A or B?" and "Are A and B both X?".

A choice question names two options; the answer picks one. When the question compares in time (older,
first, earlier; younger, later, more recent), the option whose evidence gives the earlier (or later) year
wins; otherwise the option whose evidence shares more of the question's other words. A yes/no question
about named things checks each thing's evidence for the words the question asks about ("film director"),
or, for "the same X", whether the two pieces of evidence share a name. Every decision is stated first and
followed by the evidence for each option, each cited.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from hopgraph.policies.answer.evidence import Passage, stems, weights
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.text import GENERIC_NAMES, base_title, entity_spans, fold, terms

_EARLIER = re.compile(r"\b(?:first|older|oldest|earlier|earliest|before|predates?)\b", re.IGNORECASE)
_LATER = re.compile(r"\b(?:younger|youngest|later|latest|last|more recent|most recent|newer|newest)\b",
                    re.IGNORECASE)
_YEAR = re.compile(r"\b(1[0-9]\d\d|20\d\d)\b")
_OR = re.compile(r"\s+or\s+", re.IGNORECASE)
_AUX = re.compile(r"^(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|no longer|neither|nor)\b", re.IGNORECASE)
_SAME_NOUN = re.compile(r"\bsame\s+([a-z]+)", re.IGNORECASE)
# Words that say how to compare or ask, not what about.
_FRAME = frozenset({"which", "what", "who", "whom", "first", "older", "oldest", "earlier", "earliest", "younger",
                    "youngest", "later", "latest", "last", "recent", "newer", "newest", "both", "same", "also",
                    "one", "more", "most", "less", "larger", "largest", "bigger", "smaller", "came", "come"})


@dataclass(frozen=True)
class Evidence:
    option: str
    sentence: str
    passage: Passage
    score: float


def options(question: str) -> list[str]:
    """The two names a question offers ("..., A or B?", "Are A and B ...?"), or []."""
    spans = [_without_adjective(s, question[pos + len(s):]).strip(" ,?") for s, pos in entity_spans(question)
             if pos > 0 or not _AUX.match(question)]
    spans = [s for s in spans if fold(s) not in ("which", "who", "what", "between") and not re.fullmatch(r"\d+s?", s)]
    joined = [part for s in spans for part in re.split(r"\s+(?:and|or|&)\s+", s) if part]
    if _OR.search(question) or re.search(r"\b(?:both|and)\b", question, re.IGNORECASE):
        names = [n for n in joined if fold(n) not in GENERIC_NAMES]
        return names[-2:] if len(names) >= 2 else []
    return []


def _without_adjective(span: str, after: str) -> str:
    """"Pick Me Up, British" before "publications": the last piece describes the noun that follows."""
    head, _, last = span.rpartition(",")
    if head and len(last.split()) == 1 and re.match(r"\s*[a-z]", after):
        return head
    return span


def is_choice(question: str) -> bool:
    """"..., A or B?", or two names and then "which was the first ...?" (a comparison in time)."""
    if _AUX.match(question.strip()) or len(options(question)) != 2:
        return False
    in_time = _EARLIER.search(question) or _LATER.search(question)
    return bool(_OR.search(question) or (in_time and re.search(r"\bwhich\b", question, re.IGNORECASE)))


def is_yes_no(question: str) -> bool:
    text = question.strip()
    if re.search(r"\.\s+(?:is|are|was|were|do|does|did)\b", text, re.IGNORECASE):
        text = re.split(r"\.\s+", text)[-1]  # "The director X has an OBE. Does Y also have one?"
    return bool(_AUX.match(text)) and not _OR.search(text)


def _evidence(option: str, passages: list[Passage], want: set[str]) -> Evidence | None:
    """The best sentence about ``option``: from a passage titled or opening with it, sharing ``want``."""
    key = terms(option)
    if not key:
        return None
    weight = weights(passages)
    best: Evidence | None = None
    for p in passages:
        title = fold(p.title)
        in_title = all(k in title for k in key)
        exact = fold(base_title(p.title)) == fold(option.strip(' "'))  # "Pterocarya", not "Cryptantha pterocarya"
        for i, s in enumerate(passage_sentences(p)):
            names_it = all(k in fold(s) for k in key)
            if not (in_title or names_it):
                continue
            score = math.fsum(weight.get(t, 1.0) for t in stems(s) & want)
            score += (1.5 if in_title else 0.0) + (1.0 if exact else 0.0) + (0.5 if names_it else 0.0)
            score -= 0.1 * i + 0.05 * p.rank
            if best is None or score > best.score:
                best = Evidence(option, s, p, score)
    return best


def _first_year(text: str) -> int | None:
    m = _YEAR.search(text)
    return int(m.group(1)) if m else None


def decide_choice(question: str, passages: list[Passage]) -> tuple[str, list[Evidence]] | None:
    """(the chosen option, the evidence for each option), or None without evidence for both."""
    names = options(question)
    if len(names) != 2:
        return None
    want = stems(question) - {s for n in names for s in stems(n)} - {s for w in _FRAME for s in stems(w)}
    found = [_evidence(n, passages, want) for n in names]
    if found[0] is None or found[1] is None:
        return None
    a, b = found[0], found[1]
    if _EARLIER.search(question) or _LATER.search(question):
        years = [_first_year(e.sentence) or _first_year(e.passage.text) for e in (a, b)]
        if years[0] is not None and years[1] is not None and years[0] != years[1]:
            earlier = a if years[0] < years[1] else b
            later = b if earlier is a else a
            chosen = earlier if _EARLIER.search(question) else later
            return chosen.option, [a, b]
    # Otherwise: the option whose evidence says more of what the question asks about.
    overlap = [len(stems(e.sentence) & want) for e in (a, b)]
    chosen = a if overlap[0] >= overlap[1] else b
    return chosen.option, [a, b]


def decide_yes_no(question: str, passages: list[Passage]) -> tuple[str, list[Evidence]] | None:
    """("Yes" or "No", the evidence checked), or None when the question names nothing to check."""
    text = re.split(r"\.\s+", question.strip())[-1]
    names = options(text) or [s.strip(" ,?") for s, pos in entity_spans(text) if pos > 0][:1]
    if not names:
        return None
    # Everything the question says besides the names it asks about must hold for each of them.
    want = stems(question) - {s for n in names for s in stems(n)} - {s for w in _FRAME for s in stems(w)}
    found = [_evidence(n, passages, want) for n in names]
    checked = [e for e in found if e is not None]
    if not checked:
        return None
    same = _SAME_NOUN.search(text)
    if same and len(checked) == 2:
        places = [_named_with(e, same.group(1)) for e in checked]
        return ("Yes" if places[0] & places[1] else "No"), checked
    if len(checked) < len(names):
        return "No", checked
    # A proper adjective the question asks about ("both British publications") must hold for each.
    named = {s for n in names for s in stems(n)}
    required = {t for w in re.findall(r"(?<=\s)[A-Z][a-z]+\b", text) for t in stems(w)} - named
    for e in checked:
        description = " ".join(passage_sentences(e.passage)[:2]) if e.passage else e.sentence
        got = stems(description)
        if not want or len(got & want) < max(1, math.ceil(0.6 * len(want))) or _NEGATION.search(e.sentence):
            return "No", checked
        if required - got:
            return "No", checked
    return "Yes", checked


def _named_with(e: Evidence, noun: str) -> set[str]:
    """Names the evidence puts next to ``noun``: "in Jiangxi province", "the state of Louisiana"."""
    text = " ".join(passage_sentences(e.passage)[:3])
    name = r"([A-Z][\w\-']+(?:\s+[A-Z][\w\-']+)*)"
    found = re.findall(rf"{name}\s+{noun}s?\b", text) + re.findall(rf"\b{noun}s?\s+of\s+{name}", text)
    return {fold(f) for f in found if fold(f) not in GENERIC_NAMES}
