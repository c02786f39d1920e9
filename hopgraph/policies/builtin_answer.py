"""The offline policy for answer mode: search, hop once, compute if asked, answer extractively.

Round 1: ``search_documents`` on the question (preceded by ``rewrite_query`` when the question is visibly
untidy, or when it is a follow-up that names nothing: then the rewrite carries the thread's subject).
Round 2: a search anchored on a bridge found in the first results (a name or code the question does not
contain), for the second part of a two-part question, or for a one-part question whose first results do not
hold an answer of the asked kind or that asks about something it only describes ("the association which
published ..."). Then, when the question asks for a derived amount, a ``run_python`` call computes it from
the numbers found (see :mod:`hopgraph.policies.answer_compute`). Then a final message without tool calls:
an extractive answer, one sentence per part of the question, each followed by its ``[Sn]`` reference,
preferring sentences that hold an answer of the kind asked for (see :mod:`hopgraph.policies.answer_types`).
When the evidence holds no such answer, the answer says so and names the containers searched.

Only structured data is read: the tool artifacts and the policy's own earlier tool calls, never the text of
tool messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from hopgraph.policies.answer_choice import Evidence, decide_choice, decide_yes_no, is_choice, is_yes_no
from hopgraph.policies.answer_compute import (
    Calculation,
    asks_for_amount,
    format_amount,
    plan_calculation,
    printed_numbers,
)
from hopgraph.policies.answer_evidence import (
    CODE,
    MEASURES,
    REWRITE,
    RUN_PYTHON,
    SEARCH,
    AnswerState,
    Passage,
    bridge_kind,
    find_bridge,
    find_bridge_evidence,
    focus_stems,
    follow_up_query,
    named_in_titles,
    passage_sentences,
    read_state,
    split_question,
    stems,
    tidy_question,
)
from hopgraph.policies.answer_select import Candidate, best_sentences, doc_links
from hopgraph.policies.answer_thread import thread_subject
from hopgraph.policies.answer_types import THING, YESNO, asked_kind, holds_kind, restates
from hopgraph.policies.base import ScriptedPolicy, _call_id
from hopgraph.policies.text import base_title, entity_spans, fold, terms
from hopgraph.tools.rewrite_query import contextual_question, is_follow_up

MAX_SENTENCES = 4
# How close to the best sentence a second one must score: from the same document, from another.
SECOND_SAME = 0.85
SECOND_OTHER = 0.75
NOT_FOUND = "Not found in the documents you can search."

__all__ = ["NOT_FOUND", "BuiltinAnswerPolicy", "compose_answer", "compose_extractive_answer", "not_found",
           "split_question", "tidy_question"]


def not_found(containers: Sequence[str] = ()) -> str:
    """The answer when the evidence holds nothing of the asked kind, naming what was searched."""
    names = [c for c in dict.fromkeys(containers) if c]
    if not names:
        return NOT_FOUND
    label = "container" if len(names) == 1 else "containers"
    return f"{NOT_FOUND[:-1]} ({label}: {', '.join(names)})."


def follow_up_subject(state: AnswerState) -> str:
    """The thread's subject when the question is a follow-up that names nothing, else ''."""
    if state.history and is_follow_up(state.question):
        return thread_subject(state.history, state.question)
    return ""


def effective_question(state: AnswerState) -> str:
    """The question with the thread's subject when it is a follow-up that names nothing."""
    subject = follow_up_subject(state)
    return contextual_question(tidy_question(state.question), subject) if subject else state.question


def _anchors(question: str) -> list[str]:
    """Names and codes the question gives (not its capitalized first word)."""
    found = [m.group() for m in CODE.finditer(question)]
    found += [span for span, pos in entity_spans(question) if pos > 0 and len(span) > 2]
    return found


def _mentioned(anchor: str, passages: list[Passage]) -> bool:
    """Some passage names the anchor, or one of the names it joins ("Never Cry Wolf and Big Hero 6")."""
    texts = [fold(p.title + " " + p.text) for p in passages]
    for name in re.split(r"\s+(?:and|&|or)\s+", anchor):
        words = [re.sub(r"['’]s$", "", w) for w in terms(name)]  # "Kenji's" -> "kenji"
        if not words or any(sum(w in text for w in words) * 2 >= len(words) for text in texts):
            return True
    return False


def describe(part: str) -> str:
    """A search for what a part of the question describes, without what kind of thing it is or which of
    its attributes is asked for: "the value of the purchase order that arrived three weeks late" ->
    "arrived three weeks late"."""
    focus = focus_stems(part)
    words = [w for w in terms(part) if w not in MEASURES and not (stems(w) and stems(w) <= focus)]
    return " ".join(words) if len(words) >= 2 else tidy_question(part)


def bridge_round(state: AnswerState, parts: list[str]) -> int:
    """The round whose results hold the bridge: the first, or the second when it searched the first part of
    the question on its own."""
    if len(parts) > 1 and len(state.searched) > 1 and fold(state.searched[1]) == fold(describe(parts[0])):
        return 2
    return 1


def _first_part_unanswered(state: AnswerState, parts: list[str]) -> bool:
    """The first results name no bridge for the first part apart from in the sentence that best answers a
    later part: the search was about the later part."""
    evidence = find_bridge_evidence(state, parts[0])
    if evidence is None:
        return True
    later = best_sentences([p for p in state.passages if p.round == 1], stems(parts[1]), parts[1],
                           asked_kind(parts[1]))
    return bool(later) and later[0].text.endswith(evidence[1])


def _worth_following(state: AnswerState, question: str, bridge: str) -> bool:
    """A one-part question follows a bridge (a name or a code) when its best first-round sentence holds no
    answer of the asked kind, or when the question describes what it passes through ("an NFL team based
    in ..."): the answer is then in the bridge's own document ("He played for the Philadelphia Eagles":
    in which state?)."""
    if not any(w[:1].isupper() and w.isalpha() for w in bridge.split()) and not CODE.fullmatch(bridge):
        return False
    ranked = best_sentences([p for p in state.passages if p.round == 1], stems(question), question,
                            asked_kind(question), links=doc_links(question, state.passages))
    if not ranked or not ranked[0].holds:
        return True
    # "Who painted X?" is answered by the name itself; "who directed the film that ...?" goes through it.
    return bool(bridge_kind(question))


def _hop_query(state: AnswerState, question: str, bridge: str) -> str:
    """The bridge with the question's words that the bridge sentence's document does not already cover."""
    evidence = find_bridge_evidence(state, question)
    covered = stems(evidence[2].title) if evidence else set()
    rest = " ".join(w for w in question.split() if not (stems(w) and stems(w) <= covered))
    return follow_up_query(bridge, rest)


def compose_answer(state: AnswerState, bridge: str | None, question: str = "", containers: Sequence[str] = (),
                   calculation: tuple[Calculation, str] | None = None, subject: str = "") -> str:
    """2-4 sentences: one per part of the question, each with its reference; or "not found".

    ``subject``: for a follow-up, the thread's subject (the question then carries it too).
    """
    question = question or state.question
    if not state.passages:
        return not_found(containers)
    anchors = _anchors(question)
    if anchors and not any(_mentioned(a, state.passages) for a in anchors):
        return not_found(containers)  # nothing found names what the question is about
    parts = split_question(question)
    if len(parts) == 1:
        decided = decide_choice(question, state.passages) if is_choice(question) else None
        if decided is None and is_yes_no(question):
            decided = decide_yes_no(question, state.passages)
        if decided is not None:
            return _decision(*decided)
    multi = len(parts) > 1 and bridge is not None
    last_round = max(max(p.ranks, default=p.round) for p in state.passages)
    chosen: list[tuple[str, Passage]] = []
    used: set[str] = set()

    def take(ranked: list[Candidate], limit: int, floor: float, covered: bool = False) -> bool:
        """Adds up to ``limit`` candidates scoring at least ``floor``; True when one was added or present."""
        added = False
        for c in ranked:
            if len(chosen) >= MAX_SENTENCES or limit <= 0:
                break
            if c.text in used and covered:
                return True  # the best sentence for this part is already in the answer
            if c.text in used or c.score < floor:
                continue
            chosen.append((c.text, c.passage))
            used.add(c.text)
            limit -= 1
            added = True
        return added

    kinds = [asked_kind(p) for p in parts]
    first = bridge_round(state, parts)
    if multi and last_round > first:
        assert bridge is not None
        evidence = find_bridge_evidence(state, parts[0], first)
        if evidence is not None and evidence[0] == bridge:
            # Part one is answered by the sentence the bridge came from.
            chosen.append((evidence[1], evidence[2]))
            used.add(evidence[1])
        else:
            take(best_sentences(state.passages, stems(parts[0]), question, kinds[0], stems(bridge),
                                only_round=first), 1, 0.3)
        # The later parts were searched for, with the bridge, in the last round.
        for part, kind in zip(parts[1:], kinds[1:], strict=True):
            ranked = best_sentences(state.passages, stems(part), part, kind, only_round=last_round,
                                    about=stems(bridge))
            take(ranked, 1, 0.3, covered=True)
            _continue(ranked, chosen, used)
    else:
        named = named_in_titles(question, state.passages)
        bridge_stems = stems(bridge) if bridge and last_round > 1 and len(parts) > 1 else None
        about = stems(subject) if subject else named or bridge_stems
        links = doc_links(question, state.passages, bridge or "") if len(parts) == 1 else {}
        followed = len(parts) == 1 and bool(bridge) and len(state.searched) > 1 and not subject
        found = _bridge_answer(state, question, bridge or "", kinds[0]) if followed else []
        for text, passage in found:
            chosen.append((text, passage))
            used.add(text)
        for part, kind in zip(parts if not found else [], kinds, strict=False):
            # A follow-up's subject picks the documents; its own words pick the sentence.
            want = (stems(part) - stems(subject)) or stems(part) if subject else stems(part)
            ranked = best_sentences(state.passages, want | (bridge_stems or set()), part, kind,
                                    bridge=bridge_stems, about=about, loose=bool(subject), links=links)
            # Words the question asks with, besides the names it gives ("chief executive" of Tidewater).
            asking = want - {t for a in anchors for t in stems(a)}
            if kind not in (THING, YESNO) and not any(
                    c.holds and (not asking or stems(c.text) & asking) for c in ranked[:8]):
                continue  # nothing of the asked kind about what was asked: this part stays unanswered
            if bridge and last_round > 1 and ranked and len(parts) == 1:
                _bridge_first(state, question, bridge, ranked[0], chosen, used)
            fitting = [c for c in ranked if c.holds or kind in (THING, YESNO)] or ranked
            # When the question names documents, the answer comes from its chain of evidence if it can.
            linked = [c for c in fitting if links.get(c.passage.title, 0.0) >= 1.0]
            take(linked or fitting, 1, 0.3, covered=True)
        if subject:
            ranked = best_sentences(state.passages, (stems(question) - stems(subject)) or stems(question), question,
                                    kinds[0], about=about)
            ranked = [r for r in ranked if stems(r.passage.title + " " + r.passage.text) & stems(subject)]
        else:
            ranked = best_sentences(state.passages, stems(question), question, kinds[0], about=named, links=links)
        if named and not subject:
            # A second sentence stays with the documents the question named.
            ranked = [r for r in ranked if stems(r.passage.title) & named]
        settled = kinds[0] not in (THING, YESNO) and any(_holds(t, kinds[0], question) for t, _ in chosen)
        if chosen and ranked and len(parts) == 1 and len(chosen) < 2:
            # A second sentence only when it matches the question nearly as well as the best one, and
            # says more than the question; once the answer holds what was asked, only from another
            # document (the other half of a bridge).
            docs = {p.title for _, p in chosen}
            # Another document only as the other half of a bridge (its title is the bridge).
            second = [r for r in ranked if r.holds and not restates(r.text, question)
                      and not (settled and r.passage.title in docs)
                      and (r.passage.title in docs or links.get(r.passage.title, 0.0) >= 1.5)]
            take(second, 1, floor=max(1.0, (SECOND_OTHER if settled else SECOND_SAME) * ranked[0].score))
    if not chosen:
        return not_found(containers)
    lines = [_cited(s, p.ref) for s, p in chosen]
    if calculation is not None:
        lines.append(_calculation_sentence(*calculation))
    return " ".join(lines)


def _decision(label: str, evidence: list[Evidence]) -> str:
    """The decision first, then the evidence for it, each sentence cited."""
    lines = [f"{label}."]
    for e in evidence:
        cited = _cited(e.sentence, e.passage.ref)
        if cited not in lines:
            lines.append(cited)
    return " ".join(lines)


def _holds(text: str, kind: str, question: str) -> bool:
    return holds_kind(text.split(". ")[-1], kind, question)


def _bridge_answer(state: AnswerState, question: str, bridge: str, kind: str) -> list[tuple[str, Passage]]:
    """For a one-part question that followed a bridge: the sentence naming the bridge, then the answer
    from the bridge's own document (what the question asks that the first sentence does not say)."""
    if not state.searched[1].startswith(bridge):
        return []  # the second search was not the hop
    evidence = find_bridge_evidence(state, question)
    if evidence is None or evidence[0] != bridge:
        return []
    key = fold(bridge)
    # The bridge's own document, or a passage the hop found that names the bridge.
    own = [p for p in state.passages if p.ref != evidence[2].ref and p.title != evidence[2].title
           and (_is_about(fold(base_title(p.title)), key) or (2 in p.ranks and key in fold(p.text)))]
    if not own:
        return []
    rest = (stems(question) - stems(evidence[1])) or stems(question)
    ranked = best_sentences(own, rest, question, kind, about=stems(bridge), loose=True)
    best = next((c for c in ranked if c.holds), None)
    if best is None:
        return []
    return [(evidence[1], evidence[2]), (best.text, best.passage)]


def _is_about(title: str, key: str) -> bool:
    """The document's title is the bridge, or one holds the other ("Supply Agreement - Nordlicht ...")."""
    return len(title) > 2 and (title == key or key in title or (len(title.split()) > 1 and title in key))


def _bridge_first(state: AnswerState, question: str, bridge: str | None, best: Candidate,
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


def _continue(ranked: list[Candidate], chosen: list[tuple[str, Passage]], used: set[str]) -> None:
    """The sentence right after the chosen one, when it goes on about the same figure (a cap after a rate)."""
    if not chosen or len(chosen) >= MAX_SENTENCES:
        return
    text, passage = chosen[-1]
    sents = passage_sentences(passage)
    last = text.split(". ")[-1] if text not in sents else text
    if last not in sents:
        return
    i = sents.index(last)
    if i + 1 >= len(sents):
        return
    nxt = sents[i + 1]
    if nxt in used or not any(c.isdigit() for c in nxt) or not (stems(nxt) & stems(last)):
        return
    if any(c.text == nxt or c.text.endswith(nxt) for c in ranked):
        chosen.append((nxt, passage))
        used.add(nxt)


def _cited(sentence: str, ref: str) -> str:
    s = sentence.rstrip().rstrip(";:,").rstrip()
    end = s[-1] if s[-1] in ".!?" else "."
    body = s[:-1] if s[-1] in ".!?" else s
    return f"{body} [{ref}]{end}"


def _calculation_sentence(calc: Calculation, output: str) -> str:
    """The result, how it was computed, and the sources of its inputs."""
    numbers = printed_numbers(output)
    refs = list(dict.fromkeys(q.passage.ref for q in calc.inputs if q.passage is not None))
    marks = "".join(f"[{r}]" for r in refs)
    amount = format_amount(numbers[0], calc.currency)
    base = format_amount(calc.base.value, calc.currency)
    text = f"Calculated with run_python: {base} × {calc.rate.text}"
    if calc.count is not None:
        text += f" × {calc.count.text}"
    text += f" = {amount}"
    if calc.cap is not None and len(numbers) > 1:
        cap = format_amount(numbers[1], calc.currency)
        text += (f", which is the cap of {calc.cap.text} ({cap})" if numbers[0] >= numbers[1]
                 else f", below the cap of {calc.cap.text} ({cap})")
    return f"{text} {marks}."


def compose_extractive_answer(question: str, refs: Mapping[str, Mapping[str, Any]],
                              containers: Sequence[str] = ()) -> str:
    """An answer from the turn's ref registry alone (for a run that stopped without one).

    Uses the passage text stored with each ref by ``search_documents``; the first search
    of the turn plays the first round, so a bridge is found the same way.
    """
    state = AnswerState(question=question.strip())
    for ref_id, ref in refs.items():
        text = ref.get("text")
        if not isinstance(text, str) or not text.strip():
            continue
        search = ref.get("search")
        state.passages.append(Passage(
            ref=str(ref_id), title=str(ref.get("title") or ""), text=text, rank=int(ref.get("rank") or 1),
            round=1 if search in (None, 1) else 2, page=ref.get("page"), kind=str(ref.get("kind") or ""),
            source=str(ref.get("source") or ""), container=str(ref.get("container") or ""),
            ranks={1 if search in (None, 1) else 2: int(ref.get("rank") or 1)},
        ))
    if not state.question or not state.passages:
        return not_found(containers)
    parts = split_question(state.question)
    bridge = find_bridge(state, parts[0], bridge_round(state, parts))
    return compose_answer(state, bridge, containers=containers)


class BuiltinAnswerPolicy(ScriptedPolicy):
    """Deterministic answer-mode policy; no key, no network.

    ``containers``: the containers the run searches, named when nothing is found.
    """

    max_search_rounds: int = 2
    containers: list[str] = []

    def plan(self, messages: Sequence[BaseMessage]) -> tuple[list[tuple[str, dict[str, Any]]], str]:
        """The next tool calls, or ([], final answer text)."""
        state = read_state(messages)
        if not state.question:
            return [], not_found(self.containers)
        question = effective_question(state)
        search_rounds = sum(1 for r in state.rounds if any(name == SEARCH for name, _ in r))
        if search_rounds == 0:
            tidy = tidy_question(question)
            calls: list[tuple[str, dict[str, Any]]] = []
            if tidy != state.question.strip():
                calls.append((REWRITE, {"query": tidy}))
            calls.append((SEARCH, {"query": tidy}))
            return calls, ""
        parts = split_question(question)
        first = bridge_round(state, parts)
        bridge = find_bridge(state, parts[0], first) if state.passages else None
        searched = {fold(q) for q in state.searched}
        if search_rounds == 1 and len(parts) > 1 and state.passages and _first_part_unanswered(state, parts):
            # The first search went to the later part: search the first part alone, then hop.
            return [(SEARCH, {"query": describe(parts[0])})], ""
        if search_rounds == first and search_rounds < self.max_search_rounds + first - 1:
            if not state.passages:
                keywords = " ".join(dict.fromkeys(terms(question)))
                if keywords and fold(keywords) not in searched:
                    return [(SEARCH, {"query": keywords})], ""
            elif bridge and len(parts) > 1:
                query = follow_up_query(bridge, " ".join(parts[1:]))
                if fold(query) not in searched:
                    return [(SEARCH, {"query": query})], ""
            elif (bridge and question == state.question and not is_choice(question) and not is_yes_no(question)
                  and _worth_following(state, question, bridge)):
                # One part: follow the bridge too, the answer may sit in the document it names. (A
                # follow-up is about the thread's subject, and a choice names its candidates: no hop.)
                query = _hop_query(state, question, bridge)
                if fold(query) not in {fold(q) for q in state.searched}:
                    return [(SEARCH, {"query": query})], ""
        calculation = self._calculation(state, question, parts, bridge)
        if calculation is not None and not state.computed:
            return [(RUN_PYTHON, {"code": calculation.code()})], ""
        done = state.computed[-1] if state.computed else None
        computed = None
        if calculation is not None and done is not None and done.ok and printed_numbers(done.output):
            computed = (calculation, done.output)
        return [], compose_answer(state, bridge, question, self._searched(state), computed,
                                  follow_up_subject(state))

    def _calculation(self, state: AnswerState, question: str, parts: list[str],
                     bridge: str | None) -> Calculation | None:
        part = parts[-1]
        if not state.passages or not bridge or not asks_for_amount(part):
            return None
        ranked = best_sentences(state.passages, stems(part), part, asked_kind(part), about=stems(bridge))
        return plan_calculation(question, part, bridge, [(c.text, c.passage) for c in ranked], state.passages)

    def _searched(self, state: AnswerState) -> list[str]:
        return list(self.containers) or sorted({p.container for p in state.passages if p.container})

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        calls, text = self.plan(messages)
        turn = len(read_state(messages).rounds) + 1
        tool_calls = [
            {"name": name, "args": args, "id": _call_id(turn, i, name, args), "type": "tool_call"}
            for i, (name, args) in enumerate(calls)
        ]
        message = AIMessage(content=text, tool_calls=tool_calls)
        return ChatResult(generations=[ChatGeneration(message=message)])
