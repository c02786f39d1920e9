"""Bridges: the name or code in the first results that a question passes through to its answer.

"Which supplier missed the deadline?" passes through Nordlicht Components GmbH; "who directed the film that
was shot in Leland?" through Maximum Overdrive. Candidates are names and codes the question does not give,
in sentences that share words with it; a multi-word name, a name that is another found document's title, a
name in a document the question names, and a name next to the kind of thing the question describes ("the
film that ...", "which supplier") rank higher.
"""

from __future__ import annotations

import re
from collections import Counter

from hopgraph.policies.answer_evidence import (
    NOT_SEARCH_TERMS,
    AnswerState,
    Passage,
    entities,
    name_like,
    passage_sentences,
    split_question,
    stems,
)
from hopgraph.policies.text import base_title, fold

MEASURES = frozenset({"value", "amount", "name", "number", "price", "cost", "total", "size", "date", "title"})


def focus_stems(part: str) -> set[str]:
    """What the part asks for: the noun after which/what ("the value of the purchase order": the purchase
    order), or after "who was the" ("on-call engineer")."""
    m = re.search(r"\b(?:which|what)\s+(?:(?:is|was|are|were)\s+)?(?:the\s+)?([\w\-]+)"
                  r"(?:\s+of\s+(?:the\s+|a\s+|an\s+)?([\w\-]+(?:\s+[\w\-]+)?))?", part, re.IGNORECASE)
    if m and fold(m.group(1)) in MEASURES and m.group(2):
        return stems(m.group(2))
    if not m:
        m = re.search(r"\bwho\s+(?:was|is|were|are)\s+(?:the\s+)?([\w\-]+(?:\s+[\w\-]+)?)", part, re.IGNORECASE)
    return stems(m.group(1)) if m else set()


# "a network founded by ...", "the film that was shot ...", "an NFL team based in ...": the noun before a
# relative clause or a participle names the kind of thing a one-part question passes through.
_DESCRIBED = re.compile(r"\b((?:[a-z][\w\-]*\s+)?[a-z][\w\-]*)\s+(?:that|which|who|whose|where|"
                        r"(?:[a-z]+ed|built|written|made|held|born|known|run|shot|sung|led)\s+(?:by|in|on|at|from|for|"
                        r"with|as)\b)")


# "the painter of The Copper Lantern", "the author of ...": a role of something the question names.
_ROLE_OF = re.compile(r"\b(?:[Tt]he|[Aa]n?|its|their)\s+([a-z][\w\-]*)\s+of\s+(?:the\s+)?(?:[a-z]+\s+){0,2}\s*"
                      r"[\"“]?[A-Z0-9]")


def bridge_kind(question: str) -> set[str]:
    """Stems of the nouns that describe what a one-part question passes through."""
    found: set[str] = set()
    for m in _DESCRIBED.finditer(fold(question)):
        found |= stems(m.group(1))
    for m in _ROLE_OF.finditer(question):
        found |= stems(m.group(1))
    return found



_DEFINED_TERM = re.compile(r"\b(?:this|that|these|those|such)\s+$", re.IGNORECASE)


def find_bridge(state: AnswerState, first_part: str, round_no: int = 1) -> str | None:
    found = find_bridge_evidence(state, first_part, round_no)
    return found[0] if found else None


def find_bridge_evidence(state: AnswerState, first_part: str, round_no: int = 1) -> tuple[str, str, Passage] | None:
    """(bridge, the sentence naming it, its passage): a name or code from the results of round
    ``round_no`` (the first) that the question does not mention.

    Candidates come from sentences that share words with the first part of the question;
    a multi-word name helps, and so does matching what the question asks for ("which
    supplier" -> a name right after "supplier"; "which bug" -> BUG-882).
    """
    want = stems(first_part)
    # In a two-part question "which supplier ..." names the bridge's kind; in a one-part question the
    # noun after which/what is the kind of the final answer, not of the bridge.
    multi = len(split_question(state.question)) > 1
    focus = focus_stems(first_part) if multi else bridge_kind(first_part)
    focus_bonus = 4.0 if multi else 1.5
    question = fold(state.question)
    # Only what was found by then: the bridge stays the same when later rounds bring more documents.
    titles = {fold(base_title(p.title)): p.title for p in state.passages if p.round <= round_no}
    best: tuple[float, str, str, Passage] | None = None
    for p in state.passages:
        if p.round != round_no or p.rank > 4:
            continue
        own_title = fold(base_title(p.title))
        # A document the question names by title is where a chain of evidence starts.
        anchor = 1.0 if len(own_title) > 2 and own_title in question else 0.0
        for sentence in passage_sentences(p):
            got = stems(sentence)
            relevance = len(got & want)
            if relevance == 0:
                continue
            for span, pos in entities(sentence, state.question):
                score = float(relevance) - 0.05 * p.rank + anchor
                before = sentence[max(0, pos - 40):pos]
                linked = titles.get(fold(span))
                if linked is not None and linked != p.title:
                    score += 2.0  # the name is the title of another document found: a link to follow
                near = sentence[max(0, pos - 25):pos] + " " + sentence[pos + len(span):pos + len(span) + 25]
                if stems(near) & want:
                    score += 0.5  # said right next to words of the question
                if stems(span) & want:
                    score += 1.0  # "Cartoon Network" for "a network founded by ...": the kind the question names
                if name_like(span):
                    score += 1.5
                elif pos == 0:
                    score -= 1.5  # a capitalized first word is not evidence of a name
                if _DEFINED_TERM.search(before):
                    score -= 1.5  # "this Agreement": a defined term of the document, not a name
                if focus and (stems(span) & focus or stems(" ".join(before.split()[-3:])) & focus):
                    score += focus_bonus
                if best is None or score > best[0]:
                    best = (score, span, sentence, p)
    return (best[1], best[2], best[3]) if best else None


def follow_up_query(bridge: str, part: str) -> str:
    words = [w for w in re.findall(r"[\w\-.,%]+", part) if fold(w).strip(".,") not in NOT_SEARCH_TERMS]
    return " ".join([bridge, *[w.strip(".,") for w in words]]).strip()


def named_in_titles(question: str, passages: list[Passage]) -> set[str]:
    """Question words that pick out some documents by title ("Nordlicht", even spelt "nordlict"; stems
    keep five letters), leaving out words most titles share ("agreement")."""
    titles = {p.title for p in passages}
    counts = Counter(t for title in titles for t in stems(title))
    return {t for t in stems(question) if 0 < counts[t] <= len(titles) / 2}
