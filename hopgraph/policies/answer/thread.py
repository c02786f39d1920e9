"""The conversation a follow-up belongs to: the entity the earlier turns were about.

A turn is about the name or code its question named ("What penalty does Nordlicht pay?" -> Nordlicht); a
question that names nothing ("Which supplier missed the deadline?") is about the name its answer gave
(Nordlicht Components GmbH); and a follow-up that says "she" or "they" means whom the answer named. A
follow-up that names nothing itself keeps the subject it inherited.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from hopgraph.policies.answer.evidence import CODE, earlier_turns, entities, name_like, stems
from hopgraph.policies.answer.types import PERSON_NOUNS
from hopgraph.policies.text import GENERIC_NAMES, STOPWORDS, entity_spans, fold
from hopgraph.state import question_position
from hopgraph.tools.rewrite_query import is_follow_up


def _named_in_question(question: str) -> str:
    """The first name or code the question itself gives (not its capitalized first word)."""
    for m in CODE.finditer(question):
        return m.group()
    for span, pos in entity_spans(question):
        # "what number do I ring": "I" is the asker, never a name.
        if pos > 0 and fold(span) not in GENERIC_NAMES and fold(span.strip(" ?.,")) != "i":
            return span.strip(" ?.,")
    return ""


def _named_in_answer(question: str, answer: str, follow_up: str = "") -> str:
    """The first name the answer gives that the question did not: what the question asked for. Unless the
    follow-up says what the name did in the answer: "the person it gets reported to" after "the Practice Manager
    must report it to the Clinical Governance Lead" is the name the words just before it share with the follow-up."""
    found = []
    for span, pos in entities(answer, question):
        words = span.split()
        while words and fold(words[0]) in STOPWORDS:
            words.pop(0)  # "If the Supplier": a sentence opening, not part of the name
        if words:
            found.append((" ".join(words), pos + len(span) - len(" ".join(words))))
    asked = stems(follow_up)
    if asked:
        said = [(len(stems(answer[max(0, pos - _BEFORE):pos].split(".")[-1]) & asked), span) for span, pos in found]
        best = max((n for n, _ in said), default=0)
        if best:
            return next(span for n, span in said if n == best)
    if _CONTACT.search(follow_up):
        # "What number should they ring?" after "... are booked by the Client Care Supervisor at Pennock": a job has no
        # number of its own; the place the answer names does.
        places = [span for span, pos in found if pos > 0 and not _is_job(span) and fold(span) not in GENERIC_NAMES]
        if places and any(_is_job(span) for span, _ in found):
            return places[0]
    for span, _ in found:
        if name_like(span):
            return span
    for span, pos in found:
        if pos > 0 and fold(span) not in GENERIC_NAMES:
            return span
    return ""


# A follow-up asking how to reach whom the answer named: a number to ring, an address, an email.
_CONTACT = re.compile(r"\b(?:ring|call|phone|telephone|number|email|e-mail|address|contact)\b", re.IGNORECASE)


def _is_job(span: str) -> bool:
    """A job title rather than a name ("Client Care Supervisor", "Practice Manager")."""
    words = span.lower().split()
    return bool(words) and words[-1].rstrip("s") in PERSON_NOUNS


# How far before a name of the answer its words count as saying what the name did ("must report it to").
_BEFORE = 30
# A follow-up that says "she" or "they" points at whom the last answer named, not at what its question did; one
# that says "there" at the place it named ("Where is the X-ray unit?" ... "And who's the head nurse there?").
_PERSONAL = re.compile(r"\b(?:he|him|his|she|her|hers|they|them|their|there)\b", re.IGNORECASE)


_IT = re.compile(r"\b(?:it|its)\b", re.IGNORECASE)
# A question asking for a thing by its kind ("Which firmware version ...", "What supplier ..."), not about one.
_ASKS_WHICH = re.compile(r"^\s*(?:which|what)\s+(?!is\b|was\b|are\b|were\b|did\b|does\b|do\b|has\b|had\b|will\b)"
                         r"([a-z]+)", re.IGNORECASE)


def _numbered_thing(kind: str, answer: str) -> str:
    """The thing of the asked kind the answer names by number ("firmware 4.2.0" for "Which firmware version ..."),
    or ''."""
    m = re.search(rf"\b({re.escape(kind)})\s+(v?\d+(?:\.\d+)+[a-z]?)\b", answer, re.IGNORECASE)
    return f"{m.group(1)} {m.group(2)}" if m else ""


def turn_subject(question: str, answer: str, answered: bool = False, follow_up: str = "") -> str:
    """What one turn was about; '' when it names nothing. ``answered``: prefer what the answer named (what the
    ``follow_up`` asking about it points at)."""
    # Markdown emphasis is no text: "**Procedure followed:** FVG-P03" opens with "Procedure", not names it.
    answer = answer.replace("**", "").replace("__", "")
    if answered:
        return _named_in_answer(question, answer, follow_up) or _named_in_question(question)
    return _named_in_question(question) or _named_in_answer(question, answer)


def thread_subject(history: Sequence[tuple[str, str]], follow_up: str = "") -> str:
    """The subject a follow-up inherits: that of the latest turn that had one."""
    answered = bool(_PERSONAL.search(follow_up))
    for question, answer in reversed(history):
        # "Which firmware version fixed ...?" then "When was it released?": "it" is the version the answer named.
        which = _ASKS_WHICH.match(question) if _IT.search(follow_up) else None
        numbered = _numbered_thing(which.group(1), answer) if which else ""
        subject = numbered or turn_subject(question, answer, answered or bool(which), follow_up)
        if subject:
            return subject
    return ""


def follow_up_subject(messages: Sequence[BaseMessage]) -> str:
    """What the thread's earlier turns were about, when the current question is a follow-up that names
    nothing itself ("And the renewal clause?"); '' otherwise. For the query-rewrite safety net."""
    position = question_position(messages)
    if position < 1:
        return ""
    content = messages[position].content
    question = content if isinstance(content, str) else str(content)
    if not is_follow_up(question):
        return ""
    return thread_subject(earlier_turns(messages[:position]), question)
