"""The answer's sentences that come from where a bridge leads: the bridge's own document, its record, or a
document a named one leads to.

For a one-part question that followed a bridge: the sentence naming the bridge, then the answer from the bridge's
record in a list (:func:`hopgraph.policies.answer.records.record_answer`), its own document, or its entry in a list
found in any round, a paragraph that opens with it ("Eastgate bakery: 7 Foundry Lane, Sheffield.") before a document
that only mentions it (:func:`bridge_answer`); for an answer found in another document than the bridge's, the bridge
sentence first (:func:`bridge_first`); for a question that passes through something it names ("the area where
Intrepid Wind Farm is located"), a sentence from the document a named one names by its title (:func:`hop_sentences`).
"""

from __future__ import annotations

from hopgraph.policies.answer.asked import asked_role
from hopgraph.policies.answer.bridge import find_bridge_evidence
from hopgraph.policies.answer.evidence import AnswerState, Passage, stems
from hopgraph.policies.answer.paragraphs import paragraph_leads, paragraph_of, passage_sentences, sentence_heading
from hopgraph.policies.answer.records import record_answer
from hopgraph.policies.answer.select import Candidate, best_sentences
from hopgraph.policies.answer.tables import row_record
from hopgraph.policies.answer.types import THING, YESNO, restates
from hopgraph.policies.text import base_title, fold

# A sentence from the document a named one leads to, for a question that passes through something: at least
# this share of the best sentence's score.
HOP_SECOND = 0.65


def bridge_answer(state: AnswerState, question: str, bridge: str, kind: str,
                  evidence: tuple[str, str, Passage] | None = None, hop: int = 1) -> list[tuple[str, Passage]]:
    """For a one-part question that followed a bridge: the sentence naming the bridge (``evidence``, else the best
    bridge candidate's), then the answer from the bridge's own document (what the question asks that the first
    sentence does not say). ``hop``: the search that followed the bridge (the second, or the third after one for
    the bridge itself)."""
    if len(state.searched) <= hop or not state.searched[hop].startswith(bridge):
        return []  # that search was not the hop
    evidence = evidence or find_bridge_evidence(state, question)
    if evidence is None or evidence[0] != bridge:
        return []
    # "Who is our finance director?": the answer's passage must speak of a director.
    head = asked_role(question) if kind not in (THING, YESNO) else set()
    record = record_answer(question, bridge, state.passages, skip={evidence[1]})
    if record is not None:
        # The bridge's record in a list or directory, with the field the question asks of it.
        return [(evidence[1], evidence[2]), (record[1], record[2])] if speaks_of(record[2], record[1], head) else []
    key = fold(bridge)
    # The bridge's own document, or a passage the hop found that names the bridge.
    # ... or a paragraph of a list that opens with the bridge ("Eastgate bakery: 7 Foundry Lane, Sheffield."), found
    # in any round: a directory read before the hop does not come back in the hop's own results.
    listed = {p.ref for p in state.passages if p.ref != evidence[2].ref and _entry(p, key)}
    entry_only = {p.ref for p in state.passages if p.ref in listed and not is_about_titled(p.title, key)
                  and 2 not in p.ranks}
    own = [p for p in state.passages if p.ref != evidence[2].ref and p.title != evidence[2].title
           and (is_about_titled(p.title, key) or (2 in p.ranks and key in fold(p.text)) or p.ref in entry_only)]
    if not own:
        return []
    rest = (stems(question) - stems(evidence[1])) or stems(question)
    # The bridge's own document first; other passages that name the bridge only when it holds nothing.
    titled = [p for p in own if is_about_titled(p.title, key)]
    # A document titled by the bridge alone, then the bridge's entry in a list, then one whose title mentions it
    # ("Incident OV-2026-07: oven breaker tripped at Eastgate"), then any that names it.
    exact = [p for p in titled if _title_is(p.title, key)]
    entries = [p for p in own if p.ref in listed]
    best = None
    for group, entry in ((exact, False), (entries, True), (titled, False), (own, False)):
        if not group:
            continue
        ranked = [c for c in best_sentences(group, rest, question, kind, about=stems(bridge), loose=True)
                  if not (entry or c.passage.ref in entry_only) or _opens_with(paragraph_of(c.passage, c.text), key)]
        # In a table the hop reached, the row naming the bridge before one that does not: the budget row whose owner
        # is "Priya Raman", not the row that shares "team" with the question. (Prose keeps its order: the sentence
        # that names the bridge is seldom the one that answers about it.)
        # Then a sentence of the paragraph about the bridge (one that opens with it) before one that mentions it.
        best = next((c for c in ranked if c.holds and key in fold(c.text) and _is_row(c.text)), None) or next(
            (c for c in ranked if c.holds and _opens_with(paragraph_of(c.passage, c.text), key)), None) or next(
            (c for c in ranked if c.holds), None)
        if best is not None:
            break
    if best is None or not speaks_of(best.passage, best.text, head):
        return []
    return [(evidence[1], evidence[2]), (best.text, best.passage)]


def speaks_of(passage: Passage, text: str, head: set[str]) -> bool:
    """The sentence's paragraph, heading or document title speaks of what the question asks about (``head``, from
    :func:`~hopgraph.policies.answer.asked.asked_subject`; none: nothing to speak of)."""
    return not head or bool(head & stems(" ".join((passage.title, sentence_heading(passage, text),
                                                    paragraph_of(passage, text)))))


def _title_is(title: str, key: str) -> bool:
    """The title is the bridge, or part of it, or the bridge qualifies it ("Leader of Opposition (Uganda)")."""
    own = fold(base_title(title))
    return own == key or (len(own.split()) > 1 and own in key) or (len(key) > 2 and f"({key})" in fold(title))


def _opens_with(text: str, key: str) -> bool:
    """The text begins with the bridge, as whole words ("Eastgate bakery: ..." for Eastgate, not "Eastgates")."""
    opening = fold(text).lstrip("#*- ")
    return opening.startswith(key) and not opening[len(key):len(key) + 1].isalnum()


def _entry(passage: Passage, key: str) -> bool:
    """A paragraph of the passage opens with the bridge: its entry in a list or directory."""
    return any(_opens_with(lead or sentence, key)
               for lead, sentence in zip(paragraph_leads(passage), passage_sentences(passage), strict=True))


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


def named_link_first(chosen: list[tuple[str, Passage]], passages: list[Passage], links: dict[str, float],
                     used: set[str]) -> None:
    """When the answer's one sentence comes from a document the question reaches only through one it names ("the town
    where Harbour Mill stands": Elsmere's page), the named document's sentence that names it first ("Harbour Mill is
    a restored grain mill in Elsmere."), so the answer shows the link."""
    if len(chosen) != 1 or links.get(chosen[0][1].title, 0.0) != 1.0:
        return
    key = fold(base_title(chosen[0][1].title))
    if len(key) < 3:
        return
    for p in sorted(passages, key=lambda p: (p.round, p.rank)):
        if links.get(p.title, 0.0) < 2.0:
            continue
        for sentence in passage_sentences(p):
            if key in fold(sentence) and sentence not in used:
                chosen.insert(0, (sentence, p))
                used.add(sentence)
                return


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
