"""Which chosen sentences an answer keeps: only those on the question's chain of evidence.

An answer cites what carries the answer and the bridge to it. A sentence from a document off the chain
(neither named by the question, nor linked by name to a document it names, nor the document of a bridge
that such a document names) goes when the sentences on the chain already hold an answer of the asked kind.
Of documents sharing a title ("Scott Howell (footballer)", "Scott Howell (political consultant)"), the
one whose qualifier the question speaks of stays, the others go.
"""

from __future__ import annotations

from hopgraph.policies.answer.evidence import Passage, stems
from hopgraph.policies.answer.select import doc_links
from hopgraph.policies.answer.types import THING, YESNO, holds_kind
from hopgraph.policies.text import base_title, fold

Chosen = list[tuple[str, Passage]]


def _qualifier(title: str) -> str:
    """'Scott Howell (political consultant)' -> 'political consultant'."""
    base = base_title(title)
    return title[len(base):].strip(" ()#") if title.startswith(base) else ""


def same_title_mismatches(question: str, titles: set[str]) -> set[str]:
    """Titles whose base title another found document shares, when the question speaks of the other's
    qualifier and not of theirs."""
    want = stems(question)
    by_base: dict[str, list[str]] = {}
    for t in titles:
        by_base.setdefault(fold(base_title(t)), []).append(t)
    out: set[str] = set()
    for group in by_base.values():
        if len(group) < 2:
            continue
        fits = {t for t in group if stems(_qualifier(t)) & want}
        if fits:
            out |= set(group) - fits
    return out


def prune(question: str, kinds: list[str], chosen: Chosen, passages: list[Passage], bridge: str = "") -> Chosen:
    """The chosen sentences without those off the question's chain of evidence (see the module text).

    ``kinds``: what each part of the question asks for.
    """
    if len(chosen) < 2:
        return chosen
    wrong = same_title_mismatches(question, {p.title for p in passages})
    kept = [(s, p) for s, p in chosen if p.title not in wrong]
    chosen = kept or chosen
    links = doc_links(question, passages)
    if not links:
        return chosen
    if bridge and _reached(bridge, links, passages):
        links = doc_links(question, passages, bridge)
    kept = [(s, p) for s, p in chosen if links.get(p.title, 0.0) > 0.0]
    if not kept or len(kept) == len(chosen):
        return chosen
    if any(k in (THING, YESNO) for k in kinds) or any(holds_kind(s, k, question) for s, _ in kept for k in kinds):
        return kept
    return chosen


def _reached(bridge: str, links: dict[str, float], passages: list[Passage]) -> bool:
    """A document on the chain (besides the bridge's own) names the bridge: its document joins the chain."""
    key = fold(bridge)
    return len(key) > 2 and any(links.get(p.title, 0.0) > 0.0 and fold(base_title(p.title)) != key
                                and key in fold(p.text) for p in passages)
