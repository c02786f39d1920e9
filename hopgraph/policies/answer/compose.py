"""The answer text of the offline answer policy: which sentences, in which order, with which references.

One sentence per part of the question, preferring sentences that hold an answer of the asked kind: for parts
chained through a bridge, see :mod:`hopgraph.policies.answer.chained`; for a one-part question (its hop included),
a follow-up or parts asked side by side, :mod:`hopgraph.policies.answer.direct`. Here: "A or B" and yes/no
questions answered by the decision; a computed amount added with its calculation and the references of its inputs;
"not found" (naming the containers) when nothing of the asked kind is there, or the passage saying it is not
settled yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from hopgraph.policies.answer.anchors import mentioned, question_anchors, unknown_version
from hopgraph.policies.answer.bridge import MEASURES, find_bridge_evidence, focus_stems, heading_bridge
from hopgraph.policies.answer.chained import answer_through_bridge
from hopgraph.policies.answer.choice import decide_choice, decide_yes_no, is_choice, is_yes_no
from hopgraph.policies.answer.compute import Calculation
from hopgraph.policies.answer.direct import answer_directly
from hopgraph.policies.answer.evidence import AnswerState, Passage, split_question, stems, tidy_question
from hopgraph.policies.answer.prune import prune
from hopgraph.policies.answer.records import owner_named
from hopgraph.policies.answer.select import best_sentences
from hopgraph.policies.answer.steps import CITED, cited_documents
from hopgraph.policies.answer.types import THING, asked_kind
from hopgraph.policies.answer.unsettled import closest_unsettled, unsettled
from hopgraph.policies.answer.wording import calculation_sentence, cited, decision, titled, unrepeated, with_antecedent
from hopgraph.policies.text import fold, terms

NOT_FOUND = "Not found in the documents you can search."


def not_found(containers: Sequence[str] = ()) -> str:
    """The answer when the evidence holds nothing of the asked kind, naming what was searched."""
    names = [c for c in dict.fromkeys(containers) if c]
    if not names:
        return NOT_FOUND
    label = "container" if len(names) == 1 else "containers"
    return f"{NOT_FOUND[:-1]} ({label}: {', '.join(names)})."


def not_settled(containers: Sequence[str], sentence: str, passage: Passage) -> str:
    """"Not found", and the passage saying the asked thing is undecided ("No appointment has been made yet"), labelled
    as the closest."""
    return f"{not_found(containers)} The closest passage says it is not settled yet: {cited(sentence, passage.ref)}"


def describe(part: str) -> str:
    """A search for what a part of the question describes, without what kind of thing it is or which of
    its attributes is asked for: "the value of the purchase order that arrived three weeks late" ->
    "arrived three weeks late"."""
    focus = focus_stems(part)
    words = [w for w in terms(part) if w not in MEASURES and not (stems(w) and stems(w) <= focus)]
    return " ".join(words) if len(words) >= 2 else tidy_question(part)


def bridge_round(state: AnswerState, parts: list[str]) -> int:
    """The round whose results hold the bridge: the first, or the second when it searched the first part of
    the question (or the person through whom it names a company) on its own."""
    # (The search may add the status the part speaks of in other words: "... argument Disputed".)
    if len(parts) > 1 and len(state.searched) > 1 and fold(state.searched[1]).startswith(fold(describe(parts[0]))):
        return 2
    named = owner_named(parts[0])
    if named and len(state.searched) > 1 and fold(state.searched[1]) == fold(named[0]):
        return 2  # "Katrin Vogel's company": her name was searched on its own
    return 1



def compose_answer(state: AnswerState, bridge: str | None, question: str = "", containers: Sequence[str] = (),
                   calculation: tuple[Calculation, str] | None = None, subject: str = "") -> str:
    """2-4 sentences: one per part of the question, each with its reference; or "not found".

    ``subject``: for a follow-up, the thread's subject (the question then carries it too).
    """
    question = question or state.question
    if not state.passages:
        return not_found(containers)
    anchors = question_anchors(question)
    if anchors and not any(mentioned(a, state.passages) for a in anchors):
        return not_found(containers)  # nothing found names what the question is about
    if unknown_version(question, state.passages):
        return not_found(containers)  # "firmware 4.4.0": no document speaks of that version
    parts = split_question(question)
    if len(parts) == 1:
        decided = decide_choice(question, state.passages) if is_choice(question) else None
        if decided is None and is_yes_no(question):
            decided = decide_yes_no(question, state.passages)
        if decided is not None:
            return decision(*decided)
    cited_docs = cited_documents(question, state.passages)  # "under the procedure the report cites"
    if cited_docs and len(parts) > 1 and CITED.search(parts[0]):
        bridge = None  # every part is asked of the procedure the report names, not of a bridge's document
    first = bridge_round(state, parts)
    evidence = find_bridge_evidence(state, parts[0], first) if bridge is not None and len(parts) > 1 else None
    if bridge is not None and evidence is not None and heading_bridge(state.question, bridge, evidence):
        bridge = None  # the parts are asked side by side of the document whose heading gave the bridge
    multi = len(parts) > 1 and bridge is not None
    last_round = max(max(p.ranks, default=p.round) for p in state.passages)
    chosen: list[tuple[str, Passage]] = []
    used: set[str] = set()
    kinds = [asked_kind(p) for p in parts]
    if multi and last_round > first:
        assert bridge is not None
        answer_through_bridge(state, question, parts, kinds, bridge, first, last_round, evidence, cited_docs,
                              chosen, used)
    elif not answer_directly(state, question, parts, kinds, bridge, first, last_round, anchors, cited_docs,
                             calculation, subject, chosen, used):
        return not_found(containers)
    if not chosen:
        undecided = closest_unsettled(question, kinds[0], [(c.text, c.passage) for c in best_sentences(
            state.passages, stems(question), question, THING)]) if len(parts) == 1 else None
        return not_found(containers) if undecided is None else not_settled(containers, *undecided)
    undecided = unsettled(question, kinds[0], chosen) if len(parts) == 1 and calculation is None else None
    if undecided is not None:
        return not_settled(containers, *undecided)
    chosen = unrepeated(with_antecedent(prune(question, kinds, chosen, state.passages, bridge or "")))
    lines = [cited(s, p.ref) for s, p in chosen]
    if len(parts) == 1 and kinds[0] == THING and lines:
        lines[0] = titled(parts[0], *chosen[0], lines[0])
    if calculation is not None:
        lines.append(calculation_sentence(*calculation))
    return " ".join(lines)

