"""An answer the documents themselves say is not settled yet.

"Who's been appointed to take over from Gwen?" finds the minutes saying "Gwen will retire on 31 December ... No
appointment has been made yet"; "What's the hourly rate for an agency nurse?" finds "Vetcover's nurse rates are
still being negotiated". The sentence that speaks of the asked thing says it is undecided, and quoting it as the
answer would read as one. The policy says "not found" instead and offers that passage, labelled as the closest.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.evidence import Passage, entities, name_like, stems
from hopgraph.policies.answer.paragraphs import paragraph_of, passage_sentences
from hopgraph.policies.answer.types import (
    AMOUNT,
    DATE,
    PERSON,
    PLACE,
    PLACE_WORDS,
    THING,
    asks_money,
    holds_kind,
    is_job_title,
    states_money,
)

_SETTLED = r"(?:decided|agreed|confirmed|appointed|set|fixed|known|scheduled|chosen|signed|made|invoiced|billed)"
_UNDECIDED = re.compile(
    rf"\bstill (?:being|to be) (?:negotiated|discussed|{_SETTLED})\b|"
    rf"\bnot (?:yet )?(?:been )?{_SETTLED}(?: yet)?\b|"
    rf"\bno (?:\w+ ){{1,2}}(?:has|have) (?:yet )?been {_SETTLED}(?: yet)?\b|"
    rf"\b(?:is|are|remains?) (?:still )?(?:yet )?to be (?:tendered|announced|{_SETTLED})\b|"
    rf"\byet to be (?:tendered|announced|{_SETTLED})\b|\bTB[CDA]\b|"
    r"\(to be (?:tendered|decided|confirmed|agreed|appointed|announced)\b|"
    r"\b(?:under|in) negotiation\b|\bnot (?:yet )?(?:clear|certain)\b|"
    # Other everyday ways of saying it: the tenders are being weighed, the post is out to be filled, the decision
    # is still to come.
    r"\bstill being (?:assessed|reviewed|considered|evaluated|weighed)\b|\b(?:invited|out) to tender\b|"
    r"\b(?:has|have) been advertised\b|\bprovisional until\b|\bawaiting (?:a |the )?(?:decision|approval)\b|"
    r"\b(?:decision|choice)\b[^.]{0,60}\b(?:is|was) (?:now )?(?:expected|due|deferred|postponed|put off)\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\b(?:not|never|yet)\b|n['’]t\b", re.IGNORECASE)
# "Head Brewer", "Senior Nurse": a job, whatever its last word.
_RANKED = re.compile(r"^(?:Head|Chief|Senior|Deputy|Lead|Assistant|Principal|Duty)\s")
# How many of the best sentences are looked at when nothing answered.
_CLOSEST = 3
# "Which contractor ...", "what company ...": a thing asked for by its kind.
_ASKS_WHICH = re.compile(r"^\s*(?:which|what)\s+(?!is\b|was\b|are\b|were\b|did\b|does\b|do\b)[a-z]+", re.IGNORECASE)
# Kinds of answer a sentence saying "not yet decided" leaves open; a thing or a yes/no it may well answer.
_SPECIFIC = (PERSON, DATE, AMOUNT, PLACE)


def _says_unsettled(sentence: str, kind: str, question: str) -> bool:
    """The sentence says something is undecided and holds no answer of the asked kind."""
    return _UNDECIDED.search(sentence) is not None and not holds_kind(sentence, kind, question)


def _answers(sentence: str, kind: str, question: str) -> bool:
    """The sentence gives an answer of the asked kind outright: a sum of money for a price or a rate, a person's
    full name (not a job, not one word that may be a place), a date, a place."""
    if kind == AMOUNT:
        return states_money(sentence) if asks_money(question) else holds_kind(sentence, kind, question)
    if kind == PERSON:
        return any(name_like(span) and len(span.split()) > 1 and not is_job_title(span)
                   and not _RANKED.match(span) and not stems(span) & PLACE_WORDS
                   for span, _ in entities(sentence, question))
    return holds_kind(sentence, kind, question)


def unsettled(question: str, kind: str, chosen: list[tuple[str, Passage]]) -> tuple[str, Passage] | None:
    """The sentence saying the asked thing is undecided, in the paragraph of the first chosen sentence, when that
    sentence gives no answer outright ("Casual cellar hands are paid £13.20 per hour" beside "Keelby's rate card has
    not been agreed" answers) and the undecided one shares a word with the question; else None."""
    if not chosen or _NEGATED.search(question):
        return None  # "Vetcover still haven't billed us: what should we expect?" knows it is not done
    text, passage = chosen[0]
    if kind not in _SPECIFIC:
        # "Which contractor is replacing the roof?": a thing, said undecided in the very sentence chosen ("roof
        # replacement (to be tendered in the new year)") or in its paragraph ("Colm reported damp along the malt
        # store wall. Three firms have been invited to tender for relining it").
        if kind != THING or not _ASKS_WHICH.match(question):
            return None
        paragraph = paragraph_of(passage, text)
        around = [t for t in passage_sentences(passage) if t != text and t in paragraph]
        return next(((t, passage) for t in (text, *around)
                     if _UNDECIDED.search(t) and (t == text or stems(t) & stems(question))), None)
    if _answers(text, kind, question):
        return None
    paragraph = paragraph_of(passage, text)
    for sentence in passage_sentences(passage):
        if ((sentence in paragraph or sentence in text) and _says_unsettled(sentence, kind, question)
                and stems(sentence) & stems(question)):
            return sentence, passage
    return None


def closest_unsettled(question: str, kind: str, candidates: list[tuple[str, Passage]]) -> tuple[str, Passage] | None:
    """When nothing answers: of the best few sentences for the question's words, the first saying the asked thing is
    undecided ("No successor has been appointed yet"), with a word of the question in its paragraph; else None."""
    if kind not in _SPECIFIC or _NEGATED.search(question):
        return None
    for sentence, passage in candidates[:_CLOSEST]:
        if _says_unsettled(sentence, kind, question) and stems(paragraph_of(passage, sentence)) & stems(question):
            return sentence, passage
    return None
