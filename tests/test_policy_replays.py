"""The built-in planner's kept replays: a turn continues the last replay and gets what a replay from the start gets."""

from __future__ import annotations

import threading

from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph import Context, run
from hopgraph.api import thread_state
from hopgraph.policies.ids.hops import HopPlanner, Knobs
from hopgraph.policies.ids.replays import ReplayCache
from hopgraph.policies.transcript import Transcript, read_transcript
from tests.test_policy import QUESTION, multi_hop_backend


def _conversation() -> list[BaseMessage]:
    """The messages of a real multi-hop run of the built-in policy (several rounds)."""
    saver = InMemorySaver()
    result = run(QUESTION, context=Context(model="builtin", backend=multi_hop_backend()), thread_id="t",
                 checkpointer=saver)
    assert result["turns"] >= 3
    return list(thread_state("t", saver)["messages"])


def _prefixes(transcript: Transcript) -> list[Transcript]:
    return [Transcript(transcript.question, transcript.rounds[:n]) for n in range(len(transcript.rounds) + 1)]


def test_every_turn_gets_what_a_replay_from_the_start_gets() -> None:
    transcript = read_transcript(_conversation())
    kept = HopPlanner(Knobs(), replays=ReplayCache())
    fresh = HopPlanner(Knobs(), replays=None)
    earlier = []
    for prefix in _prefixes(transcript):
        # Twice a turn, as the graph asks: the second is the kept replay itself.
        for _ in range(2):
            state, plan = kept.replay(prefix)
            assert (state, plan) == fresh.replay(prefix)
        earlier.append((prefix, state))
    # Continuing a kept replay works on a copy: what earlier turns got is unchanged.
    for prefix, state in earlier:
        assert state == fresh.replay(prefix)[0]


def test_a_transcript_that_does_not_extend_the_kept_one_is_replayed_from_the_start() -> None:
    transcript = read_transcript(_conversation())
    cache = ReplayCache()
    kept = HopPlanner(Knobs(), replays=cache)
    fresh = HopPlanner(Knobs(), replays=None)
    kept.replay(transcript)
    # Same question, a different second round: the kept replay's rounds are no prefix of it.
    changed = [list(r) for r in transcript.rounds]
    changed[1] = changed[1][:1]
    other = Transcript(transcript.question, changed)
    assert kept.replay(other) == fresh.replay(other)
    # Other knobs never continue a replay made with these.
    narrow = HopPlanner(Knobs(parents=1), replays=cache)
    assert narrow.replay(transcript) == HopPlanner(Knobs(parents=1), replays=None).replay(transcript)


def test_the_cache_keeps_the_most_recent_questions_only() -> None:
    cache = ReplayCache(size=2)
    planner = HopPlanner(Knobs(), replays=cache)
    for question in ("first question", "second question", "third question"):
        planner.replay(Transcript(question))
    assert cache.extended_by(Knobs(), Transcript("first question")) is None
    assert cache.extended_by(Knobs(), Transcript("third question")) is not None
    keeps_nothing = ReplayCache(size=0)
    HopPlanner(Knobs(), replays=keeps_nothing).replay(Transcript("a question"))
    assert keeps_nothing.extended_by(Knobs(), Transcript("a question")) is None


def test_runs_of_one_question_in_parallel_report_alike() -> None:
    alone = run(QUESTION, context=Context(model="builtin", backend=multi_hop_backend()))["reported_ids"]
    reports: list[list[str]] = []

    def one() -> None:
        reports.append(run(QUESTION, context=Context(model="builtin", backend=multi_hop_backend()))["reported_ids"])

    threads = [threading.Thread(target=one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert reports == [alone] * 4


def test_a_copied_state_shares_no_container_with_its_original() -> None:
    import copy as copying
    from dataclasses import fields

    state, _ = HopPlanner(Knobs(), replays=None).replay(read_transcript(_conversation()))
    before = copying.deepcopy(state)
    copy = state.copy()
    assert copy == state
    for f in fields(copy):
        value = getattr(copy, f.name)
        if isinstance(value, dict):
            for v in value.values():
                if isinstance(v, list):
                    v.clear()
            value["added"] = []
        elif isinstance(value, set):
            value.add("added")
    assert state == before
