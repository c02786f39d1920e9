"""The ids planner's recent replays, so a turn continues the last replay instead of starting over.

A replay folds a transcript's rounds into a :class:`~hopgraph.policies.ids.state.State` and the next
round's plan (see :meth:`hopgraph.policies.ids.hops.HopPlanner.replay`). The graph asks for one twice a turn
(the decide step's check, then the model call) and each turn's transcript extends the last one's, so the
planner keeps its recent replays, by knobs and question, and folds in only the rounds a kept replay has not
seen. A fold continued from a kept state is the same fold, so the result equals a replay from the start;
a transcript that extends no kept replay is replayed from the start. Kept states are shared and never
changed: a continued replay works on a copy.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from hopgraph.policies.ids.state import Knobs, Planned, State
from hopgraph.policies.transcript import CallResult, Transcript

# Enough for the questions in flight at once in one process; each holds the texts its rounds returned.
KEPT_REPLAYS = 64


@dataclass(frozen=True)
class Replay:
    rounds: tuple[tuple[CallResult, ...], ...]
    state: State
    plan: tuple[Planned, ...]


class ReplayCache:
    """The last replay of each (knobs, question), least recently used dropped first; safe across threads."""

    def __init__(self, size: int = KEPT_REPLAYS) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Knobs, str], Replay] = OrderedDict()
        self._lock = threading.Lock()

    def extended_by(self, knobs: Knobs, transcript: Transcript) -> Replay | None:
        """The kept replay whose rounds begin ``transcript``'s rounds, if any."""
        key = (knobs, transcript.question)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
        if kept is None or len(kept.rounds) > len(transcript.rounds):
            return None
        if any(tuple(new) != old for new, old in zip(transcript.rounds, kept.rounds, strict=False)):
            return None
        return kept

    def keep(self, knobs: Knobs, transcript: Transcript, state: State, plan: list[Planned]) -> Replay:
        replay = Replay(tuple(tuple(r) for r in transcript.rounds), state, tuple(plan))
        key = (knobs, transcript.question)
        with self._lock:
            self._kept[key] = replay
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return replay

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


REPLAYS = ReplayCache()
