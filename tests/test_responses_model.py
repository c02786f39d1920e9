"""The Responses-API chat model against a scripted Responses server on localhost."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from hopgraph.models.responses import (
    ResponsesChatModel,
    ResponsesContentFilterError,
    ResponsesStateExpiredError,
    ResponsesTimeoutError,
    delete_thread_responses,
    make_responses_model,
    stored_response_ids,
)
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import background, http_error, resp_calls, resp_incomplete, resp_text

SEARCH: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "search",
        "description": "Search the index.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["query", "limit"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}


@pytest.fixture
def srv():
    with ScriptedOpenAI() as s:
        yield s


def _model(srv: ScriptedOpenAI, **kw) -> ResponsesChatModel:
    kw.setdefault("retry_base_s", 0.01)
    kw.setdefault("poll_interval_s", 0.01)
    kw.setdefault("max_retries", 3)
    return make_responses_model("gpt-test", base_url=srv.base_url, timeout=10, **kw)


def test_parallel_function_calls_round_trip(srv):
    srv.respond(
        resp_calls(("search", {"query": "alpha", "limit": 5}), ("search", {"query": "beta", "limit": 3})),
        resp_text("d1 d2"),
    )
    model = _model(srv)
    bound = model.bind_tools([SEARCH], parallel_tool_calls=True)
    history: list = [SystemMessage("You search."), HumanMessage("who?")]
    ai = bound.invoke(history)
    assert isinstance(ai, AIMessage)
    assert [(c["name"], c["args"]) for c in ai.tool_calls] == [
        ("search", {"query": "alpha", "limit": 5}),
        ("search", {"query": "beta", "limit": 3}),
    ]
    assert ai.response_metadata["response_id"] == "resp_1"
    assert ai.response_metadata["finish_reason"] == "tool_calls"
    assert ai.usage_metadata and ai.usage_metadata["total_tokens"] == 15

    first = srv.response_requests()[0].body
    assert first["instructions"] == "You search."
    assert first["input"] == [{"role": "user", "content": "who?"}]
    assert first["tools"] == [
        {
            "type": "function",
            "name": "search",
            "description": "Search the index.",
            "parameters": SEARCH["function"]["parameters"],
            "strict": True,
        }
    ]
    assert first["parallel_tool_calls"] is True
    assert first["store"] is False

    history += [ai] + [
        ToolMessage(f"<doc id=\"d{i}\">x</doc>", tool_call_id=c["id"], name="search")
        for i, c in enumerate(ai.tool_calls, 1)
    ]
    final = bound.invoke(history)
    assert final.content == "d1 d2" and not final.tool_calls
    second = srv.response_requests()[1].body["input"]
    kinds = [i.get("type", i.get("role")) for i in second]
    # Full history, output items in the order they came (reasoning first), then both outputs.
    assert kinds == ["user", "reasoning"] + ["function_call"] * 2 + ["function_call_output"] * 2
    assert second[1]["id"].startswith("rs_")
    assert [i["call_id"] for i in second[2:4]] == [c["id"] for c in ai.tool_calls]
    assert [i["call_id"] for i in second[4:]] == [c["id"] for c in ai.tool_calls]
    assert second[4]["output"] == '<doc id="d1">x</doc>'


def test_server_error_is_retried_with_the_same_idempotency_key(srv):
    srv.respond(http_error(500), http_error(429, retry_after=0), resp_text("ok"), resp_text("next"))
    model = _model(srv)
    assert model.invoke("hi").content == "ok"
    keys = [r.headers.get("idempotency-key") for r in srv.response_requests()]
    assert len(keys) == 3 and keys[0] and len(set(keys)) == 1
    assert model.invoke("again").content == "next"
    assert srv.response_requests()[3].headers["idempotency-key"] != keys[0]


def test_retry_replays_instead_of_rerunning(srv):
    # The first attempt's answer is "lost" (the client times out after the server has answered):
    # the retry carries the same key, so the server replays the first response.
    srv.respond(resp_text("only once"))
    model = _model(srv)
    key = "fixed-key"
    first = model.client.responses.create(model="m", input="x", extra_headers={"Idempotency-Key": key})
    again = model.client.responses.create(model="m", input="x", extra_headers={"Idempotency-Key": key})
    assert first.id == again.id and srv.response_requests()[1].replayed


def test_timeout_retry_is_replayed_not_rerun(srv):
    def slow(req):
        time.sleep(1.0)  # longer than the client's timeout: the first reply is lost
        return resp_text("ran once")

    srv.respond(slow, resp_text("ran twice"))
    model = make_responses_model(
        "gpt-test", base_url=srv.base_url, timeout=0.3, max_retries=8, retry_base_s=0.2, retry_max_s=0.3
    )
    assert model.invoke("x").content == "ran once"
    reqs = srv.response_requests()
    assert len({r.headers["idempotency-key"] for r in reqs}) == 1 and len(reqs) >= 2
    assert reqs[-1].replayed
    assert srv.remaining() == 1  # the model ran once


def test_retries_give_up_after_max_retries(srv):
    srv.respond(*[http_error(503)] * 5)
    model = _model(srv, max_retries=2)
    import openai

    with pytest.raises(openai.InternalServerError):
        model.invoke("hi")
    assert len(srv.response_requests()) == 3


def test_background_polls_until_completed(srv):
    srv.respond(background(resp_text("late answer"), pending=["queued", "queued"]))
    model = _model(srv, background=True)
    ai = model.invoke("slow one")
    assert ai.content == "late answer"
    create = srv.response_requests()[0].body
    assert create["background"] is True and create["store"] is True
    polls = [r for r in srv.requests if r.method == "GET"]
    assert len(polls) == 2 and all(r.path.endswith(ai.response_metadata["response_id"]) for r in polls)
    assert ai.response_metadata["stored"] is True


def test_background_timeout_cancels(srv):
    srv.respond(background(resp_text("never"), pending=["in_progress"] * 10_000))
    model = _model(srv, background=True, background_timeout_s=0.2)
    with pytest.raises(ResponsesTimeoutError, match="cancelled"):
        model.invoke("x")
    assert any(r.method == "POST" and r.path.endswith("/cancel") for r in srv.requests)


def test_incomplete_max_output_tokens_keeps_partial_text(srv):
    srv.respond(resp_incomplete("partial ans", "max_output_tokens"))
    ai = _model(srv, max_output_tokens=16).invoke("long")
    assert ai.content == "partial ans"
    assert ai.response_metadata["finish_reason"] == "length"
    assert ai.response_metadata["incomplete_reason"] == "max_output_tokens"
    assert srv.response_requests()[0].body["max_output_tokens"] == 16


def test_content_filter_is_a_clear_error(srv):
    srv.respond(resp_incomplete("", "content_filter"))
    with pytest.raises(ResponsesContentFilterError, match="content filter"):
        _model(srv).invoke("bad")


def test_chaining_sends_only_new_items_and_records_every_response_id(srv):
    srv.respond(resp_calls(("search", {"query": "q", "limit": 5})), resp_text("answer 1"), resp_text("answer 2"))
    model = _model(srv, chain=True).bind_tools([SEARCH])
    history: list = [SystemMessage("sys"), HumanMessage("q1")]
    ai1 = model.invoke(history)
    history += [ai1, ToolMessage("result", tool_call_id=ai1.tool_calls[0]["id"], name="search")]
    ai2 = model.invoke(history)
    history += [ai2, HumanMessage("q2")]
    ai3 = model.invoke(history)
    assert ai3.content == "answer 2"

    bodies = [r.body for r in srv.response_requests()]
    assert all(b["store"] is True for b in bodies)
    assert "previous_response_id" not in bodies[0]
    assert bodies[1]["previous_response_id"] == ai1.response_metadata["response_id"]
    assert bodies[1]["input"] == [
        {"type": "function_call_output", "call_id": ai1.tool_calls[0]["id"], "output": "result"}
    ]
    assert bodies[2]["previous_response_id"] == ai2.response_metadata["response_id"]
    assert bodies[2]["input"] == [{"role": "user", "content": "q2"}]
    # Instructions are not carried over by the provider, so they go every time.
    assert all(b["instructions"] == "sys" for b in bodies)
    assert stored_response_ids(history + [ai3]) == ["resp_1", "resp_2", "resp_3"]
    assert ai3.response_metadata["previous_response_id"] == "resp_2"


def test_unknown_previous_response_says_start_a_new_conversation(srv):
    stale = AIMessage("old", response_metadata={"response_id": "resp_gone", "stored": True})
    with pytest.raises(ResponsesStateExpiredError, match="start a new conversation"):
        _model(srv, chain=True).invoke([HumanMessage("a"), stale, HumanMessage("b")])


def test_delete_thread_responses(srv):
    srv.respond(resp_text("one"), resp_text("two"))
    model = _model(srv, chain=True)
    h: list = [HumanMessage("a")]
    h.append(model.invoke(h))
    h += [HumanMessage("b")]
    h.append(model.invoke(h))
    assert set(srv.stored) == {"resp_1", "resp_2"}
    assert delete_thread_responses(model, h) == ["resp_1", "resp_2"]
    assert srv.stored == {} and srv.deleted == ["resp_1", "resp_2"]
    assert delete_thread_responses(model, h) == []  # already gone: nothing to do, no error
    # The thread cannot continue from a deleted response.
    with pytest.raises(ResponsesStateExpiredError):
        model.invoke(h + [HumanMessage("c")])


def test_provider_options_pass_through(srv, monkeypatch):
    monkeypatch.setenv(
        "HOPGRAPH_RESPONSES_OPTIONS",
        json.dumps({"service_tier": "flex", "reasoning_effort": "high", "completion_window": "24h"}),
    )
    srv.respond(resp_text("ok"))
    _model(srv).invoke("x")
    body = srv.response_requests()[0].body
    assert body["service_tier"] == "flex"
    assert body["reasoning"] == {"effort": "high"}
    assert body["completion_window"] == "24h"  # unknown to the SDK: sent as an extra body field


def test_unstored_history_drops_item_ids_and_keeps_only_encrypted_reasoning(srv):
    srv.respond(
        resp_calls(("search", {"query": "q", "limit": 1})),
        resp_calls(("search", {"query": "r", "limit": 1}), encrypted=False),
        resp_text("done"),
    )
    model = _model(srv, reasoning_effort="low").bind_tools([SEARCH])
    h: list = [HumanMessage("q")]
    ai = model.invoke(h)
    h += [ai, ToolMessage("r", tool_call_id=ai.tool_calls[0]["id"])]
    ai2 = model.invoke(h)
    h += [ai2, ToolMessage("r2", tool_call_id=ai2.tool_calls[0]["id"])]
    model.invoke(h)
    first = srv.response_requests()[0].body
    assert first["reasoning"] == {"effort": "low"}
    assert first["include"] == ["reasoning.encrypted_content"]
    items = srv.response_requests()[2].body["input"]
    kinds = [i.get("type", i.get("role")) for i in items]
    # The second reasoning item came without encrypted content: it cannot be replayed statelessly.
    assert kinds == ["user", "reasoning"] + ["function_call", "function_call_output"] * 2
    assert items[1]["encrypted_content"] and items[1]["id"].startswith("rs_")
    assert "id" not in items[2] and items[2]["call_id"] == ai.tool_calls[0]["id"]


def test_unstored_history_replays_the_models_text_as_assistant_text(srv):
    srv.respond(resp_calls(("search", {"query": "q", "limit": 1}), text="Searching."), resp_text("done"))
    model = _model(srv).bind_tools([SEARCH])
    h: list = [HumanMessage("q")]
    ai = model.invoke(h)
    h += [ai, ToolMessage("r", tool_call_id=ai.tool_calls[0]["id"])]
    # The server answers 400, as the API does, to an output message replayed without its id.
    assert model.invoke(h).content == "done"
    items = srv.response_requests()[1].body["input"]
    assert {"role": "assistant", "content": "Searching."} in items
    assert not any(i.get("type") == "message" for i in items)


def test_foreign_ai_messages_are_converted(srv):
    srv.respond(resp_text("ok"))
    prior = AIMessage("", tool_calls=[{"name": "search", "args": {"query": "z", "limit": 2}, "id": "c9"}])
    _model(srv).invoke([HumanMessage("q"), prior, ToolMessage("r", tool_call_id="c9")])
    items = srv.response_requests()[0].body["input"]
    args = '{"query": "z", "limit": 2}'
    assert items[1] == {"type": "function_call", "call_id": "c9", "name": "search", "arguments": args}
    assert items[2] == {"type": "function_call_output", "call_id": "c9", "output": "r"}


def test_azure_endpoint(srv):
    import openai

    srv.respond(resp_text("from azure"))
    model = make_responses_model(
        "my-deployment",
        timeout=10,
        max_retries=0,
        azure_endpoint=f"http://127.0.0.1:{srv.port}",
        api_key="azure-key",
        api_version="2025-04-01-preview",
    )
    assert isinstance(model.client, openai.AzureOpenAI)
    assert model.invoke("hi").content == "from azure"
    req = srv.response_requests()[0]
    assert req.path.startswith("/openai/") and "api-version=2025-04-01-preview" in req.path
    assert req.headers["api-key"] == "azure-key"
    assert req.body["model"] == "my-deployment"
