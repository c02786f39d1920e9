"""``builtin``: the offline, deterministic policy for ids mode (no model, only index calls)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pydantic import PrivateAttr

from hopgraph.policies.base import Decision, ScriptedPolicy
from hopgraph.policies.hops import HopPlanner, Knobs
from hopgraph.policies.transcript import Transcript


class BuiltinPolicy(ScriptedPolicy):
    """Drives the graph with search, text_search and report_helpful_ids, following bridges between hops.

    Keyword knobs (see :class:`~hopgraph.policies.hops.Knobs`) tune the strategy; ``max_turns``
    is the run's turn cap.
    """

    max_turns: int = 10
    knobs: dict[str, Any] = {}
    _planner: HopPlanner = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        allowed = {f.name for f in fields(Knobs)}
        unknown = set(self.knobs) - allowed
        if unknown:
            raise ValueError(f"unknown policy knobs: {', '.join(sorted(unknown))}")
        self._planner = HopPlanner(Knobs(**{**self.knobs, "max_turns": self.max_turns}))

    @property
    def _llm_type(self) -> str:
        return "hopgraph-builtin"

    def decide(self, transcript: Transcript) -> Decision:
        if not transcript.question:
            return Decision(calls=[("report_helpful_ids", {"ids": []})])
        state, plan = self._planner.replay(transcript)
        if plan:
            return Decision(calls=[(p.name, p.args) for p in plan])
        return Decision(calls=[("report_helpful_ids", {"ids": self._planner.ranking(state)})])
