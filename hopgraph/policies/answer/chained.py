"""The answer of a question in parts chained through a bridge: the first part answered by the sentence (or the table
row) that gave the bridge, each later part by a sentence of the bridge's document, found in the round that searched
for it ("Which supplier ..., and what is its penalty?").
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.aggregate import extreme_row, lookup_row
from hopgraph.policies.answer.bridge import asked_through, pointed_back_kind
from hopgraph.policies.answer.evidence import AnswerState, Passage, stems
from hopgraph.policies.answer.extend import continued, runner_up, take
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.reached import is_about_titled
from hopgraph.policies.answer.records import record_answer, status_row
from hopgraph.policies.answer.reorder import from_cited, held_anew, is_row
from hopgraph.policies.answer.select import best_sentences
from hopgraph.policies.answer.steps import step_sentence
from hopgraph.policies.answer.tables import asking_words
from hopgraph.policies.answer.types import quoted_holds_kind
from hopgraph.policies.text import fold

_ELSE = re.compile(r"\b(?:who|what|which|anyone|anybody|someone|somebody)\s+else\b|\bother (?:members?|people|staff)\b",
                   re.IGNORECASE)
_WHICH_KIND = re.compile(r"^\s*(?:which|what)\s+(?:of\s+(?:our|the|your|their)\s+)?([a-z]+)", re.IGNORECASE)


def _asks_for_kind_of(part: str, name: str) -> bool:
    """The part asks "which <kind>" and the name is one of that kind ("Which of our pools ..." of "Hollins Lane
    Pool")."""
    m = _WHICH_KIND.match(part)
    return m is not None and bool(stems(m.group(1)) & stems(name))


def answer_through_bridge(state: AnswerState, question: str, parts: list[str], kinds: list[str], bridge: str,
                          first: int, last_round: int, evidence: tuple[str, str, Passage] | None,
                          cited_docs: set[str], chosen: list[tuple[str, Passage]], used: set[str]) -> None:
    """Adds to ``chosen`` one sentence for the first part (from round ``first``, which found the bridge) and one or
    two for each later part (from ``last_round``, which searched the bridge with them)."""
    status = status_row(parts[0], state.passages)
    if status is not None and status[1] == bridge:
        # Part one is answered by the row its status picked ("the bill we're in an argument about").
        chosen.append((status[0][1], status[0][2]))
        used.add(status[0][1])
    elif (extreme := extreme_row(parts[0], state.passages)) is not None and extreme.name == bridge:
        # Part one is answered by the row with the extreme value ("which supplier delivered every order on
        # time"), not by a sentence sharing its words about another.
        chosen.append((extreme.row, extreme.passage))
        used.add(extreme.row)
    elif evidence is not None and evidence[0] == bridge:
        # Part one is answered by the sentence the bridge came from.
        chosen.append((evidence[1], evidence[2]))
        used.add(evidence[1])
    else:
        take(chosen, used, best_sentences(state.passages, stems(parts[0]), question, kinds[0], stems(bridge),
                                          only_round=first), 1, 0.3)
    # The later parts were searched for, with the bridge, in the last round: its passages, the bridge's own first.
    reached = sorted((p for p in state.passages if last_round in p.ranks),
                     key=lambda p: (not is_about_titled(p.title, fold(bridge)), p.ranks[last_round]))
    # Of a first part the bridge's sentence does not answer, what it asks is in the bridge's document too.
    through = asked_through(state, parts, bridge, first)
    for i, (part, kind) in list(enumerate(zip(parts, kinds, strict=True), start=1))[0 if through else 1:]:
        if status is not None and status[1] == bridge and _asks_for_kind_of(part, bridge):
            continue  # "Which of our pools was it charged to?": the row's own site, quoted for part one
        if i == 2 and pointed_back_kind(part) and evidence is not None and evidence[0] == bridge:
            continue  # "Which version is that?": the bridge itself, in the sentence quoted for the statement before
        if not stems(part) and chosen:
            # "..., and when was that?": asked of what the first part found; the first sentence of its document
            # that holds the asked kind ("Date: 18 July 2026.").
            said = next(((text, p) for p in sorted(state.passages, key=lambda p: (p.chunk_index, p.rank))
                         if p.title == chosen[0][1].title for text in passage_sentences(p)
                         if text not in used and quoted_holds_kind(text, kind, part)), None)
            if said is not None:
                chosen.append(said)
                used.add(said[0])
            continue
        # "..., and what is its first step?": that item of the numbered list of the document reached.
        step = step_sentence(part, reached)
        if step is not None and step[0] not in used:
            chosen.append(step)
            used.add(step[0])
            continue
        # A sentence reached that says every word the part asks with ("penalty") answers before a record's field
        # that is only close in meaning (an invoice's Status).
        asked = stems(asking_words(part))
        worded = bool(asked) and any(asked <= stems(s) for p in reached for s in passage_sentences(p))
        looked_up = lookup_row(f"{part} {bridge}", state.passages) or record_answer(
            part, bridge, state.passages, skip=used, about=question, by_meaning=not worded)
        if looked_up is not None and looked_up[1] not in used:
            # "..., and how many loans did it issue in Q1?": the table row the bridge and the part name.
            chosen.append((looked_up[1], looked_up[2]))
            used.add(looked_up[1])
            continue
        # "... and who else is on it?" says nothing of its own but "else": it is asked of the bridge.
        want = stems(part) | stems(bridge) if _ELSE.search(part) else stems(part)
        # Asked of the bridge, so naming the bridge answers nothing ("The Field Operations team installs ..." for
        # "who else is on it?"); nor, for "who else", naming whom the answer already gave.
        given = " ".join(text for text, _ in chosen) if _ELSE.search(part) else ""
        ranked = held_anew(best_sentences(state.passages, want, part, kind, only_round=last_round,
                                           about=stems(bridge)), kind, f"{part} ({bridge}) {given}")
        ranked = from_cited(ranked, cited_docs, kind)
        # A later part is asked of the place a status row names: of the table rows, the place's own before
        # another's (the depot list's Kestrel row for "what number do I ring there", not the Heron row above it).
        own_rows = [c for c in ranked[:8] if c.holds and is_row(c) and fold(bridge) in fold(c.text)
                    ] if status is not None and status[1] == bridge else []
        if own_rows and is_row(ranked[0]) and ranked[0] not in own_rows:
            ranked = own_rows + [c for c in ranked if c not in own_rows]
        take(chosen, used, ranked, 1, 0.3, covered=True)
        continued(ranked, chosen, used)
        runner_up(ranked, chosen, used, kind, later=len(parts) - i)
