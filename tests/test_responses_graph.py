"""The whole graph on an `openai-responses:` model, against the scripted Responses server."""

from __future__ import annotations

import json

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.api import run, thread_state
from hopgraph.config import Context
from hopgraph.models.responses import delete_thread_responses, make_responses_model, stored_response_ids
from tests.support.index import make_index
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import resp_calls, resp_text


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    return make_index(str(tmp_path_factory.mktemp("idx") / "index"))


def _ctx(srv: ScriptedOpenAI, index: str) -> Context:
    return Context(model="openai-responses:gpt-test", base_url=srv.base_url, index=index, model_max_retries=1)


def test_graph_round_trip_with_parallel_calls(index):
    with ScriptedOpenAI() as srv:
        srv.respond(
            resp_calls(
                ("search", {"query": "Project Alpha late", "limit": 5}),
                ("text_search", {"query": "Norvik", "limit": 5}),
            ),
            resp_calls(("report_helpful_ids", {"ids": ["d1", "d2"]})),
        )
        question = "Which supplier delivered Project Alpha late?"
        out = run(question, context=_ctx(srv, index), checkpointer=InMemorySaver())
        assert out["reported_ids"][:2] == ["alpha", "norvik"]
        assert out["turns"] == 2 and out["exit_reason"]
        assert [c["name"] for c in out["trace"][0]["tool_calls"]] == ["search", "text_search"]

        first, second = (r.body for r in srv.response_requests())
        assert {t["name"] for t in first["tools"]} >= {"search", "text_search", "read", "report_helpful_ids"}
        assert all(t["strict"] is True for t in first["tools"])
        kinds = [i.get("type", i.get("role")) for i in second["input"]]
        assert kinds == ["user", "reasoning"] + ["function_call"] * 2 + ["function_call_output"] * 2
        assert "d1" in second["input"][4]["output"]


def test_chained_thread_follow_up_and_deletion(index, monkeypatch):
    monkeypatch.setenv("HOPGRAPH_RESPONSES_OPTIONS", json.dumps({"chain": True, "service_tier": "flex"}))
    saver = InMemorySaver()
    with ScriptedOpenAI() as srv:
        srv.respond(
            resp_calls(("search", {"query": "Project Alpha late", "limit": 5})),
            resp_calls(("report_helpful_ids", {"ids": ["d1"]})),
            resp_calls(("search", {"query": "Norvik based", "limit": 5})),
            resp_calls(("report_helpful_ids", {"ids": ["d2"]})),
        )
        ctx = _ctx(srv, index)
        run("Which supplier delivered Project Alpha late?", context=ctx, thread_id="t1", checkpointer=saver)
        out = run("Where is that supplier based?", context=ctx, thread_id="t1", checkpointer=saver)
        assert out["reported_ids"][0] == "norvik"

        bodies = [r.body for r in srv.response_requests()]
        assert [b.get("previous_response_id") for b in bodies] == [None, "resp_1", "resp_2", "resp_3"]
        assert all(b["store"] is True and b["service_tier"] == "flex" for b in bodies)
        # The follow-up sends only what is new since the stored response: the tool result of the
        # report call and the new question.
        new_items = bodies[2]["input"]
        assert bodies[1]["input"][0]["type"] == "function_call_output"
        assert new_items[-1] == {"role": "user", "content": "Where is that supplier based?"}
        assert all(i.get("type") != "function_call" and i.get("type") != "reasoning" for i in new_items)

        messages = thread_state("t1", checkpointer=saver)["messages"]
        ids = stored_response_ids(messages)
        assert ids == ["resp_1", "resp_2", "resp_3", "resp_4"]  # every turn's response, recorded in the thread state
        model = make_responses_model("gpt-test", base_url=srv.base_url)
        assert delete_thread_responses(model, messages) == ids
        assert srv.stored == {}


def test_answer_profile_sets_the_reasoning_effort(index):
    with ScriptedOpenAI() as srv:
        srv.respond(resp_text("Norvik is based in Bergen."), resp_text("Norvik is based in Bergen."))
        for profile, effort in (("thorough", "high"), ("fast", "low")):
            ctx = Context(model="openai-responses:gpt-test", base_url=srv.base_url, index=index,
                          model_max_retries=1, mode="answer", profile=profile)
            out = run("Where is Norvik based?", context=ctx, checkpointer=InMemorySaver())
            assert out["exit_reason"] == "answered"
            body = srv.response_requests()[-1].body
            assert body["reasoning"]["effort"] == effort
