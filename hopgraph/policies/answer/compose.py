"""The answer text of the offline answer policy: which sentences, in which order, with which references.

One sentence per part of the question, preferring sentences that hold an answer of the asked kind; for a
one-part bridge question, the sentence naming the bridge and then the answer from the bridge's document
(:mod:`hopgraph.policies.answer.reached`); for "A or B" and yes/no questions, the decision first; a computed
amount with its calculation and the references of its inputs; "not found" (naming the containers) when nothing
of the asked kind is there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hopgraph.policies.answer.aggregate import extreme_row, lookup_row
from hopgraph.policies.answer.anchors import (
    about_another_code,
    mentioned,
    named_in,
    question_anchors,
    unknown_version,
)
from hopgraph.policies.answer.asked import asked_subject, asked_thing
from hopgraph.policies.answer.bridge import (
    MEASURES,
    asked_through,
    bridge_kind,
    find_bridge_evidence,
    focus_stems,
    heading_bridge,
    named_in_titles,
)
from hopgraph.policies.answer.choice import decide_choice, decide_yes_no, is_choice, is_yes_no
from hopgraph.policies.answer.compute import (
    Calculation,
)
from hopgraph.policies.answer.evidence import AnswerState, Passage, split_question, stems, tidy_question
from hopgraph.policies.answer.extend import MAX_SENTENCES, continued, runner_up
from hopgraph.policies.answer.paragraphs import paragraph_of, passage_sentences, sentence_heading
from hopgraph.policies.answer.prune import prune
from hopgraph.policies.answer.reached import (
    bridge_answer,
    bridge_first,
    hop_sentences,
    is_about_titled,
    is_named,
    named_link_first,
    speaks_of,
)
from hopgraph.policies.answer.records import (
    opens_with,
    owner_named,
    owner_row,
    record_answer,
    status_row,
    subject_chain,
)
from hopgraph.policies.answer.reorder import from_cited, held_anew, is_row, not_given_yet
from hopgraph.policies.answer.select import Candidate, best_sentences, doc_links, named_row
from hopgraph.policies.answer.steps import CITED, asked_step, cited_documents, named_procedure, step_sentence
from hopgraph.policies.answer.tables import asking_words, row_record
from hopgraph.policies.answer.types import THING, YESNO, asked_kind, asks_money, holds_kind, restates, states_money
from hopgraph.policies.answer.unsettled import closest_unsettled, unsettled
from hopgraph.policies.answer.wording import calculation_sentence, cited, decision, titled, unrepeated, with_antecedent
from hopgraph.policies.text import fold, terms

# Words that say how a question asks, not what about: "how often is he supposed to do it?" asks for a frequency of
# the thread's subject, which a sentence gives without these words ("... every two hours").
_HOW_ASKED = frozenset(stems("often supposed meant expected usually normally typically"))
# How close to the best sentence a second one must score: from the same document, from another.
SECOND_SAME = 0.85
SECOND_OTHER = 0.75
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



_DOES_IT = re.compile(r"\b(?:do|does|did|doing|done)\s+(?:it|that|this)\b", re.IGNORECASE)
_ELSE = re.compile(r"\b(?:who|what|which|anyone|anybody|someone|somebody)\s+else\b|\bother (?:members?|people|staff)\b",
                   re.IGNORECASE)
_WHICH_KIND = re.compile(r"^\s*(?:which|what)\s+(?:of\s+(?:our|the|your|their)\s+)?([a-z]+)", re.IGNORECASE)


def _asks_for_kind_of(part: str, name: str) -> bool:
    """The part asks "which <kind>" and the name is one of that kind ("Which of our pools ..." of "Hollins Lane
    Pool")."""
    m = _WHICH_KIND.match(part)
    return m is not None and bool(stems(m.group(1)) & stems(name))


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
    if multi and last_round > first:
        assert bridge is not None
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
            take(best_sentences(state.passages, stems(parts[0]), question, kinds[0], stems(bridge),
                                only_round=first), 1, 0.3)
        # The later parts were searched for, with the bridge, in the last round: its passages, the bridge's own first.
        reached = sorted((p for p in state.passages if last_round in p.ranks),
                         key=lambda p: (not is_about_titled(p.title, fold(bridge)), p.ranks[last_round]))
        # Of a first part the bridge's sentence does not answer, what it asks is in the bridge's document too.
        through = asked_through(state, parts, bridge, first)
        for i, (part, kind) in list(enumerate(zip(parts, kinds, strict=True), start=1))[0 if through else 1:]:
            if status is not None and status[1] == bridge and _asks_for_kind_of(part, bridge):
                continue  # "Which of our pools was it charged to?": the row's own site, quoted for part one
            if not stems(part) and chosen:
                # "..., and when was that?": asked of what the first part found; the first sentence of its document
                # that holds the asked kind ("Date: 18 July 2026.").
                said = next(((text, p) for p in sorted(state.passages, key=lambda p: (p.chunk_index, p.rank))
                             if p.title == chosen[0][1].title for text in passage_sentences(p)
                             if text not in used and _holds(text, kind, part)), None)
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
            take(ranked, 1, 0.3, covered=True)
            continued(ranked, chosen, used)
            runner_up(ranked, chosen, used, kind, later=len(parts) - i)
    else:
        named = named_in_titles(question, state.passages)
        bridge_stems = stems(bridge) if bridge and last_round > 1 and len(parts) > 1 else None
        about = stems(subject) if subject else named or bridge_stems
        links = doc_links(question, state.passages, bridge or "") if len(parts) == 1 else {}
        followed = len(parts) == 1 and bool(bridge) and len(state.searched) > 1 and not subject
        # The row a status said in other words picked ("the invoice we're refusing to pay") names the bridge.
        status = status_row(question, state.passages) if followed else None
        # ... as does the row listing the person through whom it names a company ("the firm Ruth Amble works for").
        owner = owner_row(question, state.passages) if followed and status is None else None
        picked = status or owner
        evidence = (bridge or "", picked[0][1], picked[0][2]) if picked is not None and picked[1] == bridge else None
        found = bridge_answer(state, question, bridge or "", kinds[0], evidence, first) if followed else []
        if subject and len(parts) == 1 and not found and asked_step(question) is not None:
            # "What's the first thing the procedure it mentions tells staff to do?": that step of the procedure the
            # thread's report names (after the report's line naming it), or of the thread's subject itself.
            procedure = named_procedure(question, subject, state.passages)
            for code in ([procedure[0]] if procedure is not None else []) + [subject]:
                step = step_sentence(question, sorted(
                    (p for p in state.passages if fold(code) in fold(p.title + " " + p.text)),
                    key=lambda p: (p.round, p.rank)))
                if step is not None:
                    naming = [(procedure[1], procedure[2])] if procedure is not None and code == procedure[0] else []
                    found = [*naming, step]
                    break
        chain = subject_chain(question, state.passages) if not found and not subject and len(parts) == 1 else None
        if chain is not None:
            # The row the question describes names the thing whose record holds the answer.
            found = [(record[1], record[2]) for record in chain]
        for text, passage in found:
            chosen.append((text, passage))
            used.add(text)
        one_row = False  # the answer is the one table row a follow-up's subject names: nothing to add to it
        for i, (part, kind) in enumerate(zip(parts if not found else [], kinds, strict=False), start=1):
            # A follow-up's subject picks the documents; its own words pick the sentence.
            want = (stems(part) - stems(subject)) or stems(part) if subject else stems(part)
            if subject and state.history and _DOES_IT.search(part):
                # "How often is he supposed to do it?": "it" is what the last question asked about.
                want |= stems(state.history[-1][0])
            if cited_docs and CITED.search(part) and ", " in part:
                # "At what temperature must frozen food be binned, when the freezer at Whinfield died ... under the
                # procedure named in the report": the procedure is read for what is asked, not for the story.
                want = stems(part.split(", ")[0]) or want
            ranked = best_sentences(state.passages, want | (bridge_stems or set()), part, kind,
                                    bridge=bridge_stems, about=about, loose=bool(subject), links=links)
            if kind == THING and state.history:
                ranked = not_given_yet(ranked, state.history[-1][1], part)
            if part != parts[0] or len(parts) == 1 or CITED.search(part):
                # The first of several parts describes the report, unless it asks under the procedure itself.
                ranked = from_cited(ranked, cited_docs, kind, asked_of=bool(CITED.search(part)))
            # Words the question asks with, besides the names it gives ("chief executive" of Tidewater).
            asking = want - {t for a in anchors for t in stems(a)} - _HOW_ASKED
            row = named_row(ranked, subject or part, part)
            if kind not in (THING, YESNO) and not (row is not None and row.holds) and not any(
                    c.holds and (not asking or stems(f"{c.text} {sentence_heading(c.passage, c.text)}") & asking)
                    for c in ranked[:8]):
                continue  # nothing of the asked kind about what was asked: this part stays unanswered
            thing = asked_thing(part)
            if kind == THING and thing and not any(thing <= stems(c.text) for c in ranked[:8]):
                continue  # "What is the parking policy ...?": no sentence speaks of a parking policy
            head = asked_subject(part)
            if kind != THING and head and not any(c.holds and speaks_of(c.passage, c.text, head) for c in ranked[:8]):
                continue  # "When is the refurbishment ... due?": no paragraph with a date speaks of a refurbishment
            if bridge and last_round > 1 and ranked and len(parts) == 1:
                bridge_first(state, question, bridge, ranked[0], chosen, used)
            fitting = [c for c in ranked if c.holds or kind in (THING, YESNO)] or ranked
            # When the question names documents, the answer comes from its chain of evidence if it can.
            linked = [c for c in fitting if links.get(c.passage.title, 0.0) >= 1.0]
            # A follow-up about what one table row names ("Where is she based?" after Yasmin Farouk): that row.
            one_row = bool(subject) and row is not None and row.holds
            # A follow-up's answer from the sentence that is about its subject (opens with it: "Millbrook bakery:
            # 12 Canal Street, Leeds." for "And where is it?"), before one that only mentions it.
            own = [c for c in fitting[:8] if c.holds and opens_with(c.text, subject)] if subject else []
            take([row] if one_row and row is not None else own or linked or fitting, 1, 0.3, covered=True)
            if len(parts) > 1:
                runner_up(own or linked or fitting, chosen, used, kind, later=len(parts) - i)
        if (len(parts) == 1 and not subject and not found and chosen and len(row_record(chosen[0][0])) > 1
                and not all(named_in(a, [chosen[0][0], *_prose(chosen[0][1])]) for a in anchors)):
            # A row about another thing than the one the question names ("the autoclave at Stonegate" answered
            # with Kestrel Road's autoclave): no answer. (The prose around a table may name what all its rows are
            # of: "all locum cover is booked through Locumline".)
            return not_found(containers)
        if len(parts) == 1 and not subject and not found and chosen and about_another_code(question, *chosen[0]):
            return not_found(containers)  # "the warranty on the TS-60" answered with the TS-40's
        if (len(parts) == 1 and not subject and not found and chosen and calculation is None and asks_money(question)
                and not all(named_in(a, [chosen[0][1].title, paragraph_of(chosen[0][1], chosen[0][0]),
                                         *_prose(chosen[0][1])]) for a in anchors)):
            # A price for another thing than the one asked ("a pallet from Hull to Leeds" answered with the Hull to
            # Rotterdam rate): no answer.
            return not_found(containers)
        everything: list[Candidate] = []  # every sentence, best first for the question (not for a follow-up)
        if subject:
            ranked = best_sentences(state.passages, (stems(question) - stems(subject)) or stems(question), question,
                                    kinds[0], about=about)
            ranked = [r for r in ranked if stems(r.passage.title + " " + r.passage.text) & stems(subject)]
        else:
            ranked = everything = best_sentences(state.passages, stems(question), question, kinds[0], about=named,
                                                 links=links)
        if named and not subject:
            # A second sentence stays with the documents the question named.
            ranked = [r for r in ranked if is_named(r.passage.title, named, links)]
        settled = kinds[0] not in (THING, YESNO) and any(_holds(t, kinds[0], question) for t, _ in chosen)
        if chosen and ranked and len(parts) == 1 and len(chosen) < 2 and not one_row:
            # A second sentence only when it matches the question nearly as well as the best one, and
            # says more than the question; once the answer holds what was asked, only from another
            # document (the other half of a bridge).
            docs = {p.title for _, p in chosen}
            # Another document only as the other half of a bridge (its title is the bridge).
            second = [r for r in ranked if r.holds and not restates(r.text, question)
                      and not any(fold(r.text) in fold(text) for text, _ in chosen)  # already quoted with another
                      and not (settled and r.passage.title in docs)
                      and (r.passage.title in docs or links.get(r.passage.title, 0.0) >= 1.5)]
            take(second, 1, floor=max(1.0, (SECOND_OTHER if settled else SECOND_SAME) * ranked[0].score))
        if chosen and len(parts) == 1 and len(chosen) < 2 and not subject and links and bridge_kind(question):
            # The question passes through something ("the area where Intrepid Wind Farm is located"): the
            # answer may be in the document its named one leads to.
            hop, floor = hop_sentences(state.passages, question, chosen, everything, links)
            take(hop, 1, floor=floor)
        if len(parts) == 1 and not subject and not found and links and not bridge:
            named_link_first(chosen, state.passages, links, used)
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


def _prose(passage: Passage) -> list[str]:
    """The passage's sentences that state no money and are no table rows: what a price list says of itself ("all
    locum cover is booked through Locumline" above its rates), not the other prices or rows it lists ("Corran to
    Ardgour, full pallet: £95")."""
    return [s for s in passage_sentences(passage) if not states_money(s) and len(row_record(s)) < 2]


def _holds(text: str, kind: str, question: str) -> bool:
    return holds_kind(text.split(". ")[-1], kind, question)
