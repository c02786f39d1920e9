"""``builtin``: the offline, deterministic policy for ids mode (no model, only index calls).

It reports nothing when nothing supports the question: when the question's own BM25 search, in the first round,
finds no document (no document in reach holds any of its words, or it has none, like "?"). The hybrid search of
that round still lists the nearest dense neighbours, but nearest is not near: see docs/benchmarks.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import PrivateAttr

from hopgraph.index.common import parse_text_query
from hopgraph.policies.base import Decision, ScriptedPolicy
from hopgraph.policies.ids.hops import HopPlanner, Knobs
from hopgraph.policies.transcript import Transcript, read_transcript


class BuiltinPolicy(ScriptedPolicy):
    """Drives the graph with search, text_search and report_helpful_ids, following bridges between hops.

    Keyword knobs (see :class:`~hopgraph.policies.ids.state.Knobs`) tune the strategy; ``max_turns``,
    ``token_budget`` and ``max_reported`` are the run's turn cap, prompt token budget and the most ids
    to report (from the Context).
    """

    max_turns: int = 10
    token_budget: int = 48_000
    max_reported: int = 10
    knobs: dict[str, Any] = {}
    _planner: HopPlanner = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        allowed = {f.name for f in fields(Knobs)}
        unknown = set(self.knobs) - allowed
        if unknown:
            raise ValueError(f"unknown policy knobs: {', '.join(sorted(unknown))}")
        limits = {"max_turns": self.max_turns, "token_budget": self.token_budget, "max_reported": self.max_reported}
        self._planner = HopPlanner(Knobs(**{**self.knobs, **limits}))

    @property
    def _llm_type(self) -> str:
        return "hopgraph-builtin"

    def decide(self, transcript: Transcript) -> Decision:
        if not transcript.question:
            return Decision(calls=[("report_helpful_ids", {"ids": []})])
        if _failed_reports(transcript) >= 2:
            # The loop keeps refusing the report (e.g. the index cannot be opened): stop calling tools.
            return Decision(text="The documents could not be reported.")
        if _nothing_supports(transcript):
            return Decision(calls=[("report_helpful_ids", {"ids": []})])
        state, plan = self._planner.replay(transcript)
        if plan:
            return Decision(calls=[(p.name, dict(p.args)) for p in plan])
        return Decision(calls=[("report_helpful_ids", {"ids": self._planner.report(state)})])

    def conclude(self, messages: Sequence[BaseMessage]) -> list[str] | None:
        """The report, when the round just run leaves nothing more to search; else None.

        The graph's decide step asks this after every round, so a run whose evidence is already
        sufficient (a decisive first round, or the last planned hop done) ends without another
        model call that would only report.
        """
        transcript = read_transcript(messages)
        if not transcript.question or not transcript.rounds or _failed_reports(transcript):
            return None
        if any(c.name == "report_helpful_ids" for c in transcript.rounds[-1]):
            return None
        if _nothing_supports(transcript):
            return []
        state, plan = self._planner.replay(transcript)
        return None if plan else self._planner.report(state)


def _nothing_supports(transcript: Transcript) -> bool:
    """Did the first round's BM25 search of the question come back empty (and not failed)?

    Not when the question holds "a phrase" or a -word: BM25 search takes those as filters, so finding nothing
    says less than that no document holds its words."""
    parsed = parse_text_query(transcript.question)
    if parsed.phrases or parsed.excluded:
        return False
    first = transcript.rounds[0] if transcript.rounds else []
    lexical = [c for c in first if c.name == "text_search"]
    return bool(lexical) and all(not c.docs and c.error is None for c in lexical)


def _failed_reports(transcript: Transcript) -> int:
    """How many of the last rounds were only report_helpful_ids calls that came back with an error."""
    n = 0
    for round_ in reversed(transcript.rounds):
        if not round_:
            continue  # one of our own replies without tool calls
        if not all(c.name == "report_helpful_ids" and c.error for c in round_):
            break
        n += 1
    return n
