"""A numbered step of a procedure that a question asks for by its place: "what is its first step?".

Procedures, runbooks and checklists number their steps ("1. Switch the oven off ..."). A question that asks for
the first, second, ... or last step (or "step 3") of a document reached on the way is answered by that item of the
document's numbered list, not by a sentence that shares the question's words (a step rarely says "step").
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.text import sentences

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "last": -1, "final": -1}
_ASKED_STEP = re.compile(rf"\b({'|'.join(_ORDINALS)})\s+(?:step|thing to do|action)\b|\bstep\s+(\d+)\b",
                         re.IGNORECASE)
_ITEM = re.compile(r"^\s*(\d{1,2})[.)]\s+(\S.*)$")


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
