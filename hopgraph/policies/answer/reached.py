"""The answer's sentences that come from where a bridge leads: the bridge's own document, its record, or a
document a named one leads to.

For a one-part question that followed a bridge: the sentence naming the bridge, then the answer from the bridge's
record in a list (:func:`hopgraph.policies.answer.records.record_answer`) or its own document
(:func:`bridge_answer`); for an answer found in another document than the bridge's, the bridge sentence first
(:func:`bridge_first`); for a question that passes through something it names ("the area where Intrepid Wind Farm
is located"), a sentence from the document a named one names by its title (:func:`hop_sentences`).
"""

from __future__ import annotations

from hopgraph.policies.answer.bridge import find_bridge_evidence
from hopgraph.policies.answer.evidence import AnswerState, Passage, stems
from hopgraph.policies.answer.records import record_answer
from hopgraph.policies.answer.select import Candidate, best_sentences
from hopgraph.policies.answer.tables import row_record
from hopgraph.policies.answer.types import restates
from hopgraph.policies.text import base_title, fold

# A sentence from the document a named one leads to, for a question that passes through something: at least
# this share of the best sentence's score.
HOP_SECOND = 0.65


def bridge_answer(state: AnswerState, question: str, bridge: str, kind: str) -> list[tuple[str, Passage]]:
    """For a one-part question that followed a bridge: the sentence naming the bridge, then the answer
    from the bridge's own document (what the question asks that the first sentence does not say)."""
    if not state.searched[1].startswith(bridge):
        return []  # the second search was not the hop
    evidence = find_bridge_evidence(state, question)
    if evidence is None or evidence[0] != bridge:
        return []
    record = record_answer(question, bridge, state.passages, skip={evidence[1]})
    if record is not None:
        # The bridge's record in a list or directory, with the field the question asks of it.
        return [(evidence[1], evidence[2]), (record[1], record[2])]
    key = fold(bridge)
    # The bridge's own document, or a passage the hop found that names the bridge.
    own = [p for p in state.passages if p.ref != evidence[2].ref and p.title != evidence[2].title
           and (is_about_titled(p.title, key) or (2 in p.ranks and key in fold(p.text)))]
    if not own:
        return []
    rest = (stems(question) - stems(evidence[1])) or stems(question)
    # The bridge's own document first; other passages that name the bridge only when it holds nothing.
    titled = [p for p in own if is_about_titled(p.title, key)]
    best = None
    for group in (titled, own) if titled else (own,):
        ranked = best_sentences(group, rest, question, kind, about=stems(bridge), loose=True)
        # In a table the hop reached, the row naming the bridge before one that does not: the budget row whose owner
        # is "Priya Raman", not the row that shares "team" with the question. (Prose keeps its order: the sentence
        # that names the bridge is seldom the one that answers about it.)
        best = next((c for c in ranked if c.holds and key in fold(c.text) and _is_row(c.text)), None) or next(
            (c for c in ranked if c.holds), None)
        if best is not None:
            break
    if best is None:
        return []
    return [(evidence[1], evidence[2]), (best.text, best.passage)]


def _is_row(text: str) -> bool:
    """A table row, as a sentence: "Cost centre: Platform Reliability; ..." or "... | Platform Reliability ..."."""
    return " | " in text or len(row_record(text)) > 1


def _is_about(title: str, key: str) -> bool:
    """The document's title is the bridge, or one holds the other ("Supply Agreement - Nordlicht ...")."""
    return len(title) > 2 and (title == key or key in title or (len(title.split()) > 1 and title in key))


def is_about_titled(title: str, key: str) -> bool:
    """As :func:`_is_about`, or the bridge is the title's qualifier ("Leader of Opposition (Uganda)")."""
    return _is_about(fold(base_title(title)), key) or (len(key) > 2 and f"({key})" in fold(title))


def bridge_first(state: AnswerState, question: str, bridge: str | None, best: Candidate,
                  chosen: list[tuple[str, Passage]], used: set[str]) -> None:
    """For a one-part question answered in another document than the bridge's, the bridge sentence first."""
    if not bridge:
        return
    evidence = find_bridge_evidence(state, question)
    if evidence is None or evidence[0] != bridge or evidence[2].ref == best.passage.ref:
        return
    if fold(bridge) not in fold(best.passage.title + " " + best.passage.text):
        return  # the answer's document is not reached through this bridge
    if evidence[1] not in used and evidence[1] not in best.text:
        chosen.append((evidence[1], evidence[2]))
        used.add(evidence[1])


def is_named(title: str, named: set[str], links: dict[str, float]) -> bool:
    """The question names the document: by a word that picks out few titles (``named_in_titles``), or by its
    whole title, also one that several found documents share ("Scaredy Squirrel" beside "Scaredy Squirrel (TV
    series)", whose words ``named_in_titles`` leaves out as too common)."""
    return bool(stems(title) & named) or links.get(title, 0.0) >= 2.0


def hop_sentences(passages: list[Passage], question: str, chosen: list[tuple[str, Passage]],
                   ranked: list[Candidate], links: dict[str, float]) -> tuple[list[Candidate], float]:
    """When the answer so far quotes only documents the question names: of ``ranked`` (every sentence, best
    first for the question), those of the asked kind from a document a named one names by its title (Iowa for
    the Intrepid Wind Farm "in north-west Iowa"), and the least score one must reach (``HOP_SECOND`` of the
    best)."""
    docs = {p.title for _, p in chosen}
    if not ranked or not all(links.get(t, 0.0) >= 2.0 for t in docs):
        return [], 0.0
    # Named by title in a named document, not merely naming one ("the decade" of a text is no link to Decade).
    named_text = " ".join(fold(p.text) for p in passages if links.get(p.title, 0.0) >= 2.0)
    hop = []
    for c in ranked:
        title = fold(base_title(c.passage.title))
        if (c.holds and c.passage.title not in docs and 1.0 <= links.get(c.passage.title, 0.0) < 2.0
                and len(title) > 2 and title in named_text and not restates(c.text, question)):
            hop.append(c)
    return hop, max(1.0, HOP_SECOND * ranked[0].score)
