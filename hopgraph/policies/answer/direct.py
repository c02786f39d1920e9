"""The answer of a question asked of what was found directly: a one-part question (with the hop it followed, the
row a status or an owner picked, the step of a cited procedure, the record a chain of rows leads to), a follow-up
about the thread's subject, or parts asked side by side. It may add a second sentence that matches nearly as
well, or the sentence a named document leads to.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.anchors import about_another_code, named_in
from hopgraph.policies.answer.asked import asked_subject, asked_thing
from hopgraph.policies.answer.bridge import bridge_kind, named_in_titles
from hopgraph.policies.answer.compute import Calculation
from hopgraph.policies.answer.contrast import another_alternative, another_interval, another_side, named_party_lines
from hopgraph.policies.answer.evidence import AnswerState, Passage, stems
from hopgraph.policies.answer.extend import runner_up, take
from hopgraph.policies.answer.paragraphs import paragraph_of, passage_sentences, sentence_heading
from hopgraph.policies.answer.reached import (
    bridge_answer,
    bridge_first,
    hop_sentences,
    is_named,
    named_link_first,
    speaks_of,
)
from hopgraph.policies.answer.records import opens_with, owner_row, status_row, subject_chain
from hopgraph.policies.answer.reorder import from_cited, not_given_yet
from hopgraph.policies.answer.select import Candidate, best_sentences, doc_links, named_row
from hopgraph.policies.answer.steps import CITED, asked_step, named_procedure, step_sentence
from hopgraph.policies.answer.tables import row_record
from hopgraph.policies.answer.types import (
    PERSON,
    PHONE_ASKED,
    THING,
    YESNO,
    asks_money,
    holds_kind,
    quoted_holds_kind,
    restates,
    states_money,
)
from hopgraph.policies.text import fold

# Words that say how a question asks, not what about: "how often is he supposed to do it?" asks for a frequency of
# the thread's subject, which a sentence gives without these words ("... every two hours").
_HOW_ASKED = frozenset(stems("often supposed meant expected usually normally typically"))
# How close to the best sentence a second one must score: from the same document, from another.
SECOND_SAME = 0.85
SECOND_OTHER = 0.75
_DOES_IT = re.compile(r"\b(?:do|does|did|doing|done)\s+(?:it|that|this)\b", re.IGNORECASE)


def answer_directly(state: AnswerState, question: str, parts: list[str], kinds: list[str], bridge: str | None,
                    first: int, last_round: int, anchors: list[str], cited_docs: set[str],
                    calculation: tuple[Calculation, str] | None, subject: str, chosen: list[tuple[str, Passage]],
                    used: set[str]) -> bool:
    """Adds to ``chosen`` the sentences answering each part; False when the best one speaks of another thing
    than the question names (the answer is then "not found")."""
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
        if PHONE_ASKED.search(part):
            asking = set()  # "what number should they ring?": a telephone number says it without those words
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
        take(chosen, used, [row] if one_row and row is not None else own or linked or fitting, 1, 0.3, covered=True)
        if len(parts) > 1:
            runner_up(own or linked or fitting, chosen, used, kind, later=len(parts) - i)
    # A one-part question's answer (not a follow-up's) about another thing than the one asked is none; ``unbridged``:
    # the answer is the question's own sentence, not one a bridge led to.
    single = len(parts) == 1 and not subject and bool(chosen)
    unbridged = single and not found
    if unbridged and len(row_record(chosen[0][0])) > 1 and not all(
            named_in(a, [chosen[0][0], *_prose(chosen[0][1])]) for a in anchors):
        # A row about another thing than the one the question names ("the autoclave at Stonegate" answered
        # with Kestrel Road's autoclave): no answer. (The prose around a table may name what all its rows are
        # of: "all locum cover is booked through Locumline".)
        return False
    if unbridged and about_another_code(question, *chosen[0]):
        return False  # "the warranty on the TS-60" answered with the TS-40's
    if unbridged and another_alternative(question, chosen[0][0]):
        return False  # "a half pallet" answered with the full pallet's rate, "on a Saturday" with the weekday rate
    if unbridged and another_interval(question, chosen[0][0]):
        return False  # "every 5 minutes" answered with the battery life at a 15 minute interval
    if single and any(another_side(question, text) for text, _ in chosen):
        return False  # "signed ... on their side" answered with the line signed for us
    party_lines = named_party_lines(question, (p.text for p in state.passages)) if single and kinds[0] == PERSON else []
    if party_lines and not any(holds_kind(line, PERSON, question) for line in party_lines):
        return False  # "on Meridian's side": the line signed for Meridian names nobody ("authorised representative")
    if (unbridged and calculation is None and asks_money(question)
            and not all(named_in(a, [chosen[0][1].title, paragraph_of(chosen[0][1], chosen[0][0]),
                                     *_prose(chosen[0][1])]) for a in anchors)):
        # A price for another thing than the one asked ("a pallet from Hull to Leeds" answered with the Hull to
        # Rotterdam rate): no answer.
        return False
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
    settled = kinds[0] not in (THING, YESNO) and any(quoted_holds_kind(t, kinds[0], question) for t, _ in chosen)
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
        take(chosen, used, second, 1, floor=max(1.0, (SECOND_OTHER if settled else SECOND_SAME) * ranked[0].score))
    if chosen and len(parts) == 1 and len(chosen) < 2 and not subject and links and bridge_kind(question):
        # The question passes through something ("the area where Intrepid Wind Farm is located"): the
        # answer may be in the document its named one leads to.
        hop, floor = hop_sentences(state.passages, question, chosen, everything, links)
        take(chosen, used, hop, 1, floor=floor)
    if len(parts) == 1 and not subject and not found and links and not bridge:
        named_link_first(chosen, state.passages, links, used)
    return True


def _prose(passage: Passage) -> list[str]:
    """The passage's sentences that state no money and are no table rows: what a price list says of itself ("all
    locum cover is booked through Locumline" above its rates), not the other prices or rows it lists ("Corran to
    Ardgour, full pallet: £95")."""
    return [s for s in passage_sentences(passage) if not states_money(s) and len(row_record(s)) < 2]
