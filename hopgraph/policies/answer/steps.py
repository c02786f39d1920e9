"""A numbered step of a procedure that a question asks for by its place: "what is its first step?".

Procedures, runbooks and checklists number their steps ("1. Switch the oven off ..."). A question that asks for
the first, second, ... or last step (or "step 3") of a document reached on the way is answered by that item of the
document's numbered list, not by a sentence that shares the question's words (a step rarely says "step").

A follow-up that asks for a step of "the procedure it mentions" (after an incident report was the answer) reaches
the procedure through the code the report gives it (:func:`named_procedure`); a question that says "under the
procedure the report cites" is answered from the document whose code the report gives (:func:`cited_documents`).
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.evidence import Passage, stems
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.sentences import DOCUMENT_CODE
from hopgraph.policies.text import fold, sentences

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "last": -1, "final": -1}
# "its first step", "the first thing (the procedure tells staff to do)", "step 3".
_ASKED_STEP = re.compile(rf"\b({'|'.join(_ORDINALS)})\s+(?:step|thing|action)\b|\bstep\s+(\d+)\b",
                         re.IGNORECASE)
_ITEM = re.compile(r"^\s*(\d{1,2})[.)]\s+(\S.*)$")
# A document's code: "FVG-P03", "BW-07", "LIB-P02".
_CODE = re.compile(DOCUMENT_CODE)


def asked_step(question: str) -> int | None:
    """Which step the question asks for: 1, 2, ..., or -1 for the last; None when it asks for none."""
    m = _ASKED_STEP.search(question)
    if not m:
        return None
    return _ORDINALS[m.group(1).lower()] if m.group(1) else int(m.group(2))


def numbered_items(text: str) -> list[tuple[int, str]]:
    """The numbered list items of a text, as (number, item text with its wrapped lines joined)."""
    items: list[tuple[int, str]] = []
    for line in text.splitlines():
        m = _ITEM.match(line)
        if m:
            items.append((int(m.group(1)), m.group(2).strip()))
        elif items and line.startswith((" ", "\t")) and line.strip():
            items[-1] = (items[-1][0], f"{items[-1][1]} {line.strip()}")
    return items


def step_sentence(question: str, passages: list[Passage]) -> tuple[str, Passage] | None:
    """The first sentence of the step the question asks for, from the first of ``passages`` (best first) whose
    numbered list, starting at 1, has it."""
    wanted = asked_step(question)
    if wanted is None:
        return None
    for p in passages:
        items = numbered_items(p.text)
        numbers = [n for n, _ in items]
        if not items or numbers[0] != 1 or numbers != list(range(1, len(items) + 1)):
            continue  # not a whole list from its first step (a chunk that starts mid-list, or clause numbers)
        index = len(items) - 1 if wanted == -1 else wanted - 1
        if 0 <= index < len(items):
            text = items[index][1]
            return next(iter(sentences(text)), text), p
    return None


def named_procedure(question: str, subject: str, passages: list[Passage]) -> tuple[str, str, Passage] | None:
    """(code, the sentence giving it, its passage): in the passages about the thread's ``subject`` (a report), the
    code other than the subject in the sentence sharing the most words with the question ("Procedure followed:
    FVG-P03 (animal loose on the premises)" for "the first thing the procedure it mentions tells staff to do");
    None when the question asks for no step or no such sentence gives a code."""
    if asked_step(question) is None or not subject:
        return None
    key, want = fold(subject), stems(question) - stems(subject)
    best: tuple[int, int, str, str, Passage] | None = None
    for order, p in enumerate(sorted(passages, key=lambda p: (p.round, p.rank))):
        if key not in fold(p.title + " " + p.text):
            continue
        for sentence in passage_sentences(p):
            codes = [c for c in _CODE.findall(sentence) if fold(c) != key and any(ch.isdigit() for ch in c)]
            shared = len(stems(sentence) & want)
            if codes and shared and (best is None or (shared, -order) > (best[0], best[1])):
                best = (shared, -order, codes[0], sentence, p)
    return (best[2], best[3], best[4]) if best is not None else None


_DOCUMENT_WORDS = r"(?:procedure|policy|runbook|playbook|guidance|plan|checklist|instructions)"
_RECORD_WORDS = r"(?:incident\s+)?(?:report|notes?|minutes|record|log)"
# "the procedure the report cites", "the runbook named in the incident report", "the procedure we followed".
CITED = re.compile(rf"\b{_DOCUMENT_WORDS}\s+(?:that\s+|which\s+)?(?:the|this|that|its)\s+{_RECORD_WORDS}\s+"
                    r"(?:cites|names|mentions|refers to|gives|follows|followed|quotes)\b|"
                    rf"\b{_DOCUMENT_WORDS}\s+(?:named|cited|mentioned|given|referred to|followed|quoted)\s+"
                    rf"(?:in|by)\s+(?:the|this|that)\s+{_RECORD_WORDS}\b|"
                    # "the procedure we followed", "the procedure the team used", "the procedure that was used".
                    rf"\b{_DOCUMENT_WORDS}\s+(?:(?:that|which)\s+)?(?:we|they|you|staff|the\s+(?:team|staff|crew))\s+"
                    r"(?:followed|used|applied|invoked|went by)\b|"
                    rf"\b{_DOCUMENT_WORDS}\s+(?:that|which)\s+(?:was|were)\s+(?:followed|used|applied|invoked)\b",
                    re.IGNORECASE)


def _spelled(text: str) -> str:
    return " ".join(re.sub(r"[^0-9a-z]+", " ", fold(text)).split())


def cited_code(question: str, passages: list[Passage]) -> str | None:
    """The code a record gives for the procedure the question asks under ("Procedure followed: FGN-P01" for "under
    the procedure named in the report"): in the best-ranked passage with a sentence that names a procedure by a code
    other than the passage's own, that code; None without such words or such a sentence."""
    if not CITED.search(question):
        return None
    for p in sorted(passages, key=lambda p: (p.round, p.rank)):
        own = f" {_spelled(p.title)} "
        for sentence in passage_sentences(p):
            if not re.search(rf"\b{_DOCUMENT_WORDS}\b", sentence, re.IGNORECASE):
                continue
            for code in _CODE.findall(sentence):
                if any(ch.isdigit() for ch in code) and f" {_spelled(code)} " not in own:
                    return code
    return None


def cited_documents(question: str, passages: list[Passage]) -> set[str]:
    """Titles of the documents a record's code names, when the question asks "under the procedure the report cites":
    in the best-ranked passage giving a code that is another found document's ("Procedure followed: HCL-P04" ->
    "HCL P04 suspected spinal injury in water"), the first such code. Empty without such words or such a code."""
    if not CITED.search(question):
        return set()
    titles = {p.title: f" {_spelled(p.title)} " for p in passages}
    for p in sorted(passages, key=lambda p: (p.round, p.rank)):
        for sentence in passage_sentences(p):
            for code in _CODE.findall(sentence):
                named = {t for t, spelled in titles.items() if t != p.title and f" {_spelled(code)} " in spelled}
                if named:
                    return named
    return set()
