"""The offline policy for answer mode: search, hop once, compute if asked, answer extractively.

Round 1: ``search_documents`` on the question (preceded by ``rewrite_query`` when the question is visibly untidy, or
when it is a follow-up that names nothing: then the rewrite carries the thread's subject). Round 2: a search
anchored on a bridge found in the first results (a name or code the question does not contain), for the second part
of a two-part question, or for a one-part question whose first results do not hold an answer of the asked kind or
that asks about something it only describes ("the association which published ..."; see
:mod:`hopgraph.policies.answer.hops`); for a question asking who does
something that a policy gives to a job ("The **Senior Pool Attendant** supervises the lifeguards"), a search for
that job's row in the staff list at the places asked about (see :mod:`hopgraph.policies.answer.roles`). Then, when
the question asks for a derived amount, a ``run_python`` call computes it from the numbers found (see
:mod:`hopgraph.policies.answer.compute`), or a sum, difference, mean or product the question asks for (see
:mod:`hopgraph.policies.answer.aggregate`, :mod:`~hopgraph.policies.answer.rates` and
:mod:`~hopgraph.policies.answer.shares`), over table rows after a search for the rows of the table not yet read.
Then a final message without tool calls: an extractive answer, one sentence per part of the question, each followed
by its ``[Sn]`` reference, preferring sentences that hold an answer of the kind asked for (see
:mod:`hopgraph.policies.answer.compose` and :mod:`hopgraph.policies.answer.types`). When the evidence holds no such
answer, the answer says so and names the containers searched.

Only structured data is read: the tool artifacts and the policy's own earlier tool calls, never the text of
tool messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from hopgraph.policies.answer.aggregate import (
    aggregate_answer,
    asks_for_extreme,
    extreme_answer,
    extreme_row,
    lookup_answer,
    lookup_row,
    plan_aggregate,
)
from hopgraph.policies.answer.bridge import (
    asked_through,
    find_bridge,
    follow_up_query,
)
from hopgraph.policies.answer.choice import is_choice, is_yes_no
from hopgraph.policies.answer.compose import (
    NOT_FOUND,
    bridge_round,
    compose_answer,
    describe,
    not_found,
    not_settled,
)
from hopgraph.policies.answer.compute import (
    Calculation,
    asks_for_amount,
    plan_calculation,
    printed_numbers,
)
from hopgraph.policies.answer.evidence import (
    REWRITE,
    RUN_PYTHON,
    SEARCH,
    AnswerState,
    Passage,
    read_state,
    split_question,
    stems,
    tidy_question,
)
from hopgraph.policies.answer.hops import (
    described_bridge_found,
    first_part_unanswered,
    hop_query,
    unseen_words,
    worth_following,
)
from hopgraph.policies.answer.priced import priced_quantity
from hopgraph.policies.answer.rates import rate_query, rate_times_quantity
from hopgraph.policies.answer.records import owner_named, owner_row, peer_records, status_query, status_row
from hopgraph.policies.answer.roles import role_answer, role_holder, role_query
from hopgraph.policies.answer.row_filter import statuses_named
from hopgraph.policies.answer.select import best_sentences, plain_row_query
from hopgraph.policies.answer.shares import share_of_amount
from hopgraph.policies.answer.steps import CITED, cited_code, cited_documents, named_procedure
from hopgraph.policies.answer.table_search import missing_quarters, more_rows_query
from hopgraph.policies.answer.tables import table_records
from hopgraph.policies.answer.thread import thread_subject
from hopgraph.policies.answer.types import PERSON, PHONE_ASKED, THING, YESNO, asked_kind, holds_kind
from hopgraph.policies.answer.unsettled import unsettled
from hopgraph.policies.base import ScriptedPolicy, _call_id
from hopgraph.policies.text import fold, terms
from hopgraph.tools.rewrite_query import contextual_question, is_follow_up

__all__ = ["NOT_FOUND", "BuiltinAnswerPolicy", "compose_answer", "compose_extractive_answer", "not_found",
           "split_question", "tidy_question"]


def follow_up_subject(state: AnswerState) -> str:
    """The thread's subject when the question is a follow-up that names nothing, else ''."""
    if state.history and is_follow_up(state.question):
        return thread_subject(state.history, state.question)
    return ""


def effective_question(state: AnswerState) -> str:
    """The question with the thread's subject when it is a follow-up that names nothing. A follow-up with no word
    of its own ("How much was it?") whose kind of answer the previous answer holds asks that question again."""
    if state.history and not stems(state.question) and is_follow_up(state.question):
        asked, answered = state.history[-1]
        kind = asked_kind(state.question)
        if (asked.strip() and answered.strip() and not answered.startswith(NOT_FOUND[:-1])
                and kind not in (THING, YESNO) and holds_kind(answered, kind, asked)):
            return asked
    subject = follow_up_subject(state)
    return contextual_question(tidy_question(state.question), subject) if subject else state.question


def compose_extractive_answer(question: str, refs: Mapping[str, Mapping[str, Any]],
                              containers: Sequence[str] = (), messages: Sequence[BaseMessage] = ()) -> str:
    """An answer for a run that stopped without one (its last search found nothing new, or the round cap).

    With the run's ``messages``, the built-in policy's own answer from the searches made (the hop a bridge
    question followed, the calculation it ran), when it would search no further and finds one; otherwise (also for
    another model's searches, which the policy's rounds may not fit) an answer from the
    turn's ref registry alone: the passage text stored with each ref by ``search_documents``, the first search of
    the turn playing the first round, so a bridge is found the same way.
    """
    if messages:
        calls, answer = BuiltinAnswerPolicy(containers=list(containers)).plan(messages)
        if not calls and answer and not answer.startswith(NOT_FOUND[:-1]):
            return answer
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

    ``containers``: the containers the run searches, named when nothing is found. ``run_python``: whether the
    run offers the ``run_python`` tool (without it, an answer that needs arithmetic gives the numbers and says so).
    """

    max_search_rounds: int = 2
    containers: list[str] = []
    run_python: bool = True

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
            subject = follow_up_subject(state)
            if subject and PHONE_ASKED.search(state.question):
                # "What number should they ring?" after an answer naming Pennock: Pennock's own record holds it.
                calls.append((SEARCH, {"query": follow_up_query(subject, state.question)}))
            return calls, ""
        # (Of a question in parts, the first names the row: "There's one supplier bill we've refused to pay. I need
        # to write to the site it was charged to; what's the full postal address?")
        wanted = status_query(split_question(question)[0], state.passages) if state.passages else None
        if wanted and search_rounds < self.max_search_rounds and fold(wanted) not in {fold(q) for q in state.searched}:
            # "the invoice we're refusing to pay": the table's rows of that status, when none was read.
            return [(SEARCH, {"query": wanted})], ""
        aggregate = (plan_aggregate(question, state.passages) or rate_times_quantity(question, state.passages)
                     or share_of_amount(question, state.passages) or priced_quantity(question, state.passages)
                     if state.passages else None)
        if not state.computed and (aggregate is None or aggregate.op != "product"):
            # Arithmetic over table rows: first a search for more rows of the table (it spans several chunks).
            more = more_rows_query(state, question, search_rounds)
            if more:
                return [(SEARCH, {"query": more})], ""
        one_part = len(split_question(question)) == 1
        missing = missing_quarters(state, question) if state.passages and one_part else []
        if missing and aggregate is None:
            # The table the question asks about, read whole, has no row for the quarter it names.
            return [], not_found(self._searched(state))
        searched = {fold(q) for q in state.searched}
        rate = rate_query(question, state.passages) if aggregate is None and state.passages else None
        if rate and search_rounds < self.max_search_rounds and fold(rate) not in searched:
            # "How much should she get back for the mileage?": the miles are found, the rate per mile is not.
            return [(SEARCH, {"query": rate})], ""
        row = lookup_row(question, state.passages) if state.passages and aggregate is None and one_part else None
        if row is not None:
            # The one table row the question names by its cells holds the amount it asks for.
            return [], lookup_answer(row)
        if aggregate is not None:
            # The numbers a sum, a difference or a product needs are found: compute them, no hop.
            if not state.computed and self.run_python:
                return [(RUN_PYTHON, {"code": aggregate.code()})], ""
            done = state.computed[-1] if state.computed else None
            return [], aggregate_answer(aggregate, done.output if done is not None and done.ok else None,
                                        self.run_python)
        parts = split_question(question)
        if len(parts) == 1 and state.passages:
            # "Who supervises the lifeguards at Quarry Lane?": a policy names the job, the staff list the person.
            holder = role_holder(question, state.passages)
            if holder is not None:
                undecided = unsettled(question, PERSON, [(holder.sentence, holder.said_in)])
                # "Who's been appointed to take over from Gwen?": the job's holder is Gwen, the successor undecided.
                return [], role_answer(holder) if undecided is None else not_settled(self._searched(state), *undecided)
            query = role_query(question, state.passages) if search_rounds < self.max_search_rounds else None
            if query and fold(query) not in searched:
                return [(SEARCH, {"query": query})], ""
        first = bridge_round(state, parts)
        named_status = statuses_named(parts[0])
        if first == 1 and len(state.searched) > 1 and named_status and fold(state.searched[1]).endswith(
                fold(named_status[0])):
            first = 2  # the second search read the table's rows of the status the first part names: a bridge's
        # "Which supplier has the lowest quality score, and ...": the row with the extreme value is what the
        # first part asks for; in a two-part question its name is the bridge.
        extreme = extreme_row(parts[0], state.passages) if state.passages else None
        if extreme is not None and len(parts) == 1:
            return [], extreme_answer(extreme)
        # "the bill we're in an argument about ... which pool was it charged to?": the place that row names.
        status = status_row(parts[0], state.passages) if state.passages and extreme is None else None
        # "Jana Dvorak's company": the company of the row that lists her.
        owner = owner_row(parts[0], state.passages) if state.passages and extreme is None and status is None else None
        bridge = (extreme.name if extreme is not None and extreme.name else status[1] if status is not None else
                  owner[1] if owner is not None else find_bridge(state, parts[0], first) if state.passages else None)
        named = owner_named(parts[0]) if owner is None and search_rounds == 1 else None
        person = named[0] if named else ""
        if person and state.passages and fold(person) not in {fold(q) for q in state.searched}:
            # "Katrin Vogel's company" with no row listing her found: her name alone finds the list.
            return [(SEARCH, {"query": person})], ""
        if (search_rounds == 1 and len(parts) > 1 and state.passages and extreme is None
                and not described_bridge_found(state, parts)
                and ((asks_for_extreme(parts[0]) and not table_records(state.passages))
                     or first_part_unanswered(state, parts))):
            # The first search went to the later part: search the first part alone (with the status it speaks of
            # in other words: "... in an argument about" -> Disputed), then hop.
            said = " ".join(s.capitalize() for s in statuses_named(parts[0]))
            return [(SEARCH, {"query": f"{describe(parts[0])} {said}".strip()})], ""
        cited_docs = cited_documents(question, state.passages) if state.passages else set()
        cited = cited_code(question, state.passages) if state.passages and search_rounds == 1 else None
        if cited:
            # "Under the procedure named in the report, ...": the report gives its code; fetch that procedure, or the
            # parts of it that speak of what is asked when the first search found only another part.
            # What is asked, without the story: "who had to do the recount" of "When the ketamine count came up
            # short ..., who did the procedure we followed say had to do the recount".
            asked = " ".join(CITED.sub(" ", part.split(", ")[0]) if CITED.search(part) else part for part in parts)
            query = follow_up_query(cited, asked)
            if fold(query) not in searched:
                return [(SEARCH, {"query": query})], ""
        if cited_docs and len(parts) > 1 and CITED.search(parts[0]):
            bridge = None  # every part is asked of the procedure found, not of a bridge's document
        subject = follow_up_subject(state)
        procedure = named_procedure(question, subject, state.passages) if state.passages else None
        if search_rounds == first and search_rounds < self.max_search_rounds + first - 1:
            if not state.passages:
                keywords = " ".join(dict.fromkeys(terms(question)))
                if keywords and fold(keywords) not in searched:
                    return [(SEARCH, {"query": keywords})], ""
            elif bridge and len(parts) > 1:
                later = parts if asked_through(state, parts, bridge, first) else parts[1:]
                query = follow_up_query(bridge, " ".join(later))
                if fold(query) not in searched:
                    calls = [(SEARCH, {"query": query})]
                    peers = peer_records(bridge, parts[-1], state.passages)
                    if peers is not None:
                        # A directory found with the asked field for another thing: search it by the bridge's name.
                        calls.append((SEARCH, {"query": f"{peers.title} {bridge}"}))
                    return calls, ""
            elif procedure is not None:
                # A follow-up asking for a step of the procedure the thread's report names by its code: follow it.
                query = follow_up_query(procedure[0], state.question)
                if fold(query) not in searched:
                    return [(SEARCH, {"query": query})], ""
            elif (bridge and question == state.question and not is_choice(question) and not is_yes_no(question)
                  and (status is not None or owner is not None or worth_following(state, question, bridge))
                  # Every number a calculation needs is found already: compute, a hop would only find nothing new.
                  and not (self.run_python and self._calculation(state, question, parts, bridge) is not None)):
                # One part: follow the bridge too, the answer may sit in the document it names. (A
                # follow-up is about the thread's subject, and a choice names its candidates: no hop.)
                # (For the row a status picked, what the last sentence asks of its place: "Priory Library manager
                # branch charged", not the words that picked the row.)
                query = (follow_up_query(bridge, split_question(question)[-1].split(". ")[-1]) if status is not None
                         else hop_query(state, question, bridge))
                if fold(query) not in searched:
                    return [(SEARCH, {"query": query})], ""
            unseen = unseen_words(question, state.passages)
            if (state.passages and len(parts) == 1 and question == state.question and len(unseen.split()) >= 2
                    and fold(unseen) not in searched):
                # Words of the question that nothing found contains ("the 3D printer"): what it is about may
                # sit in a document the whole question did not bring.
                return [(SEARCH, {"query": unseen})], ""
        if len(parts) == 1 and state.passages and search_rounds < self.max_search_rounds:
            # "who's the head nurse there?" answered by a Deputy Head Nurse's row: the Head Nurse's may be in a
            # chunk of the table not read yet.
            ranked = best_sentences(state.passages, stems(question), question, asked_kind(question))
            plain = plain_row_query(ranked, question, state.passages)
            if plain and fold(plain) not in searched:
                return [(SEARCH, {"query": plain})], ""
        calculation = self._calculation(state, question, parts, bridge)
        if calculation is not None and not state.computed and self.run_python:
            return [(RUN_PYTHON, {"code": calculation.code()})], ""
        done = state.computed[-1] if state.computed else None
        computed = None
        if calculation is not None and done is not None and done.ok and printed_numbers(done.output):
            computed = (calculation, done.output)
        answer = compose_answer(state, bridge, question, self._searched(state), computed, subject)
        if calculation is not None and not self.run_python and not answer.startswith(NOT_FOUND[:-1]):
            answer += f" Not calculated: run_python is not available here (the inputs: {calculation.formula()})."
        return [], answer

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
