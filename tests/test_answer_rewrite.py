"""Answer mode's rewrite_query tool and its safety net: follow-ups, rewrites, the thread's subject."""

from __future__ import annotations

import copy

import pytest

from hopgraph.config import Context
from hopgraph.index.memory import MemoryBackend
from hopgraph.tools import tools_for_mode
from hopgraph.tools.base import ToolArgError
from hopgraph.tools.rewrite_query import (
    RewriteQueryTool,
    apply_rewrite_safety_net,
    carries_original_wording,
    contextual_question,
    is_follow_up,
)
from tests.test_answer_harness import call, make_env, new_ledger

MESSY = "wich suplier missd the dedline and wat penalty did we agre??"
CLEAN = "Which supplier missed the deadline, and what penalty did we agree with them?"


def test_safety_net_moves_a_lone_search_onto_the_rewrite() -> None:
    calls = [call("rewrite_query", query=CLEAN), call("search_documents", query=MESSY, limit=4)]
    before = copy.deepcopy(calls)
    fixed = apply_rewrite_safety_net(calls, MESSY)
    assert fixed[1]["args"] == {"query": CLEAN, "limit": 4}
    assert fixed[1]["id"] == calls[1]["id"]
    assert fixed[0] is calls[0]
    assert calls == before  # the input is not modified


def test_safety_net_matches_on_normalized_wording_and_high_overlap() -> None:
    # Case, punctuation and spacing do not matter.
    calls = [call("search_documents", query="  WICH suplier missd the dedline, and wat penalty did we agre "),
             call("rewrite_query", query=CLEAN)]
    assert apply_rewrite_safety_net(calls, MESSY)[0]["args"]["query"] == CLEAN
    # One word dropped is still the original wording.
    calls = [call("rewrite_query", query=CLEAN),
             call("search_documents", query="wich suplier missd the dedline and wat penalty did we agre")]
    assert apply_rewrite_safety_net(calls, MESSY)[1]["args"]["query"] == CLEAN
    assert carries_original_wording("wich suplier missd the dedline", MESSY) is False


def test_safety_net_leaves_a_search_with_its_own_wording_alone() -> None:
    calls = [call("rewrite_query", query=CLEAN), call("search_documents", query="supplier delivery deadline missed")]
    assert apply_rewrite_safety_net(calls, MESSY) == calls
    calls = [call("rewrite_query", query=CLEAN), call("search_documents", query=CLEAN)]
    assert apply_rewrite_safety_net(calls, MESSY) == calls


def test_safety_net_never_touches_a_decomposition() -> None:
    calls = [
        call("rewrite_query", query=CLEAN),
        call("search_documents", query=MESSY),
        call("search_documents", query="supplier missed delivery deadline"),
        call("search_documents", query="contract delay penalty"),
    ]
    assert apply_rewrite_safety_net(calls, MESSY) == calls
    two = [call("rewrite_query", query=CLEAN), call("search_documents", query=MESSY),
           call("search_documents", query=MESSY)]
    assert apply_rewrite_safety_net(two, MESSY) == two


def test_safety_net_needs_exactly_one_usable_rewrite() -> None:
    search = call("search_documents", query=MESSY)
    assert apply_rewrite_safety_net([search], MESSY) == [search]
    both = [call("rewrite_query", query=CLEAN), call("rewrite_query", query="Other?"), search]
    assert apply_rewrite_safety_net(both, MESSY) == both
    bad = [{"name": "rewrite_query", "args": {"query": 3}, "id": "x"}, search]
    assert apply_rewrite_safety_net(bad, MESSY) == bad
    # No original question: nothing to compare with.
    unchanged = [call("rewrite_query", query=CLEAN), search]
    assert apply_rewrite_safety_net(unchanged, "")[1]["args"]["query"] == MESSY


def test_safety_net_gives_a_literal_follow_up_search_the_threads_subject() -> None:
    subject = "Nordlicht Components GmbH"
    calls = [call("search_documents", query="And the renewal clause?")]
    fixed = apply_rewrite_safety_net(calls, "And the renewal clause?", thread_subject=subject)
    assert fixed[0]["args"]["query"] == "Regarding Nordlicht Components GmbH: the renewal clause?"
    assert calls[0]["args"]["query"] == "And the renewal clause?"  # the input is not modified
    pronoun = [call("search_documents", query="which team does she lead")]
    assert apply_rewrite_safety_net(pronoun, "Which team does she lead?", thread_subject="Priya Raman")[0]["args"][
        "query"] == "Regarding Priya Raman: which team does she lead?"
    # Left alone: no subject known, a question that names its own subject, a search with its own words or
    # that already names the subject, a batch that also rewrites.
    assert apply_rewrite_safety_net(calls, "And the renewal clause?") == calls
    own = [call("search_documents", query="How long is the warranty on the TS-40 sensor?")]
    assert apply_rewrite_safety_net(own, "How long is the warranty on the TS-40 sensor?", thread_subject=subject) == own
    other = [call("search_documents", query="Nordlicht termination notice period")]
    assert apply_rewrite_safety_net(other, "And the renewal clause?", thread_subject=subject) == other
    named = [call("search_documents", query="And the Nordlicht Components GmbH renewal clause?")]
    assert apply_rewrite_safety_net(named, "And the renewal clause?", thread_subject=subject) == named
    both = [call("rewrite_query", query="Nordlicht renewal clause"),
            call("search_documents", query="And the renewal clause?")]
    assert apply_rewrite_safety_net(both, "And the renewal clause?", thread_subject=subject)[1]["args"]["query"] == (
        "Nordlicht renewal clause")


def test_follow_up_detection() -> None:
    for question in ("And the renewal clause?", "What about the notice period?", "Which team does she lead?",
                     "the notice period?", "When was it fixed?"):
        assert is_follow_up(question), question
    for question in ("How long is the warranty on the TS-40 sensor?", "What about Meridian?",
                     "Who leads the team that builds and releases the sensor firmware?", ""):
        assert not is_follow_up(question), question
    assert contextual_question("And when does it end?", "PO-4471") == "Regarding PO-4471: when does it end?"


def test_rewrite_tool_echoes_and_remembers_the_rewrite() -> None:
    tool = RewriteQueryTool()
    context = Context(mode="answer")
    ledger = new_ledger({"rewrites": ["earlier"]})
    shared = ledger.turn_memory["rewrites"]
    env = make_env(MemoryBackend(), context, ledger)
    outcome = tool.run(tool.check_args({"query": f"  {CLEAN} "}, context), env)
    rendered = tool.render(outcome, ledger, env)
    assert rendered.content.startswith(f"Rewritten question: {CLEAN}")
    assert rendered.artifact == {"tool": "rewrite_query", "query": CLEAN, "error": None}
    assert ledger.turn_memory["rewrites"] == ["earlier", CLEAN]
    assert shared == ["earlier"]  # replaced, not mutated
    with pytest.raises(ToolArgError):
        tool.check_args({}, context)


def test_answer_mode_offers_the_three_tools() -> None:
    assert [t.name for t in tools_for_mode("answer")] == ["rewrite_query", "search_documents", "run_python"]
    for tool in tools_for_mode("answer"):
        schema = tool.openai_schema(strict=True)
        assert schema["function"]["name"] == tool.name


def test_thread_subject_from_the_conversation() -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from hopgraph.policies.answer.thread import follow_up_subject

    first = [HumanMessage(content="Which supplier missed the deadline?"),
             AIMessage(content="The supplier Nordlicht Components GmbH missed it [S1].")]
    assert follow_up_subject([*first, HumanMessage(content="And the renewal clause?")]) == "Nordlicht Components GmbH"
    # A question that names its own subject, or the first question of a thread, gets none.
    assert follow_up_subject([*first, HumanMessage(content="How long is the TS-40 warranty?")]) == ""
    assert follow_up_subject([HumanMessage(content="And the renewal clause?")]) == ""
    assert follow_up_subject([]) == ""
