"""The Responses model streaming its text, against the scripted server's event streams (checked against
OpenAI's published description of every event): to a caller's callback, when the stream breaks, fails or
takes too long, and, for every model behind an API, through the graph to a ``stream_mode="messages"``
watcher (what Studio uses)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.api import compiled_graph
from hopgraph.config import Context
from hopgraph.models.responses import ResponsesError, ResponsesTimeoutError, make_responses_model
from tests.support.index import make_index
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import (
    chat_tool_calls,
    cut_stream,
    ignores_stream,
    resp_calls,
    resp_text,
    slow_stream,
    stream_error,
)

ANSWER = "Norvik delivered Project Alpha late, because of a shipping delay."


class Tokens(BaseCallbackHandler):
    """Every token a model run passes to its callbacks, with the chunk it came in."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.chunks: list[AIMessageChunk] = []

    def on_llm_new_token(self, token: Any, *, chunk: Any = None, **kwargs: Any) -> None:
        self.texts.append(str(token))
        self.chunks.append(chunk.message)


def _model(srv: ScriptedOpenAI, **kw: Any) -> Any:
    return make_responses_model("gpt-test", base_url=srv.base_url, timeout=10, retry_base_s=0.01, **kw)


def _streamed(srv: ScriptedOpenAI) -> list[bool]:
    return [bool(r.body.get("stream")) for r in srv.response_requests()]


def _same_message(a: AIMessage, b: AIMessage) -> None:
    assert a.content == b.content
    assert a.tool_calls == b.tool_calls and a.invalid_tool_calls == b.invalid_tool_calls
    assert a.usage_metadata == b.usage_metadata
    keep = ("status", "finish_reason", "model_name", "stored")
    assert {k: a.response_metadata.get(k) for k in keep} == {k: b.response_metadata.get(k) for k in keep}


def test_a_streamed_call_passes_its_text_on_and_ends_with_the_unstreamed_message() -> None:
    with ScriptedOpenAI() as srv:
        srv.respond(resp_text(ANSWER), resp_text(ANSWER))
        plain = _model(srv).invoke([HumanMessage("Who was late?")])
        tokens = Tokens()
        streamed = _model(srv, streaming=True).invoke([HumanMessage("Who was late?")], config={"callbacks": [tokens]})
        assert _streamed(srv) == [False, True]
    assert len(tokens.texts) >= 3 and "".join(tokens.texts) == ANSWER
    _same_message(streamed, plain)
    # The deltas carry the message's own id, so a watcher joins them into it.
    assert {c.id for c in tokens.chunks} == {streamed.id}


def test_an_unwatched_call_does_not_stream() -> None:
    with ScriptedOpenAI() as srv:
        srv.respond(resp_text(ANSWER))
        tokens = Tokens()  # an ordinary callback is not a watcher of tokens
        out = _model(srv).invoke([HumanMessage("Who was late?")], config={"callbacks": [tokens]})
        assert _streamed(srv) == [False]
    assert out.content == ANSWER and tokens.texts == []


def test_a_cut_stream_is_asked_again_without_streaming() -> None:
    with ScriptedOpenAI() as srv:
        # Four events: the response and its message begun, and the first delta of its text.
        srv.respond(cut_stream(resp_text("Kessler was late."), after=4), resp_text(ANSWER))
        tokens = Tokens()
        out = _model(srv, streaming=True).invoke([HumanMessage("Who was late?")], config={"callbacks": [tokens]})
        assert _streamed(srv) == [True, False]
        keys = [r.headers.get("idempotency-key") for r in srv.response_requests()]
    assert out.content == ANSWER
    shown = "".join(tokens.texts)  # the part of the cut answer a watcher saw
    assert shown and "Kessler was late.".startswith(shown) and shown != "Kessler was late."
    # The second answer is a message of its own, not more of the cut one.
    assert out.id not in {c.id for c in tokens.chunks}
    assert keys[0] != keys[1]


def test_a_server_that_does_not_stream_is_read_in_one_piece() -> None:
    with ScriptedOpenAI() as srv:
        srv.respond(ignores_stream(resp_text(ANSWER)))
        tokens = Tokens()
        out = _model(srv, streaming=True).invoke([HumanMessage("Who was late?")], config={"callbacks": [tokens]})
        assert _streamed(srv) == [True]  # asked once, answered whole
    assert out.content == ANSWER and tokens.texts == []


def test_a_failed_streamed_response_is_a_clear_error() -> None:
    with ScriptedOpenAI() as srv:
        srv.respond({"status": "failed", "error": {"code": "server_error", "message": "the model crashed"}})
        with pytest.raises(ResponsesError, match="the model crashed"):
            _model(srv, streaming=True).invoke([HumanMessage("Who was late?")])
        assert _streamed(srv) == [True]


def test_an_error_event_mid_stream_is_a_clear_error() -> None:
    with ScriptedOpenAI() as srv:
        srv.respond(stream_error(resp_text(ANSWER), after=4, message="the model is overloaded"))
        with pytest.raises(ResponsesError, match="server_error: the model is overloaded"):
            _model(srv, streaming=True).invoke([HumanMessage("Who was late?")])
        assert _streamed(srv) == [True]


def test_a_stream_that_outlasts_the_time_allowed_is_stopped() -> None:
    with ScriptedOpenAI() as srv:
        srv.respond(slow_stream(resp_text(ANSWER), delay_s=0.3))  # about ten events: three seconds
        started = time.monotonic()
        with pytest.raises(ResponsesTimeoutError, match="did not finish in time"):
            _model(srv, streaming=True, total_timeout_s=0.5).invoke([HumanMessage("Who was late?")])
        assert time.monotonic() - started < 2.0


@pytest.mark.parametrize("spec", ["openai-responses:gpt-test", "openai:gpt-test", "sid-1"])
def test_the_graph_streams_the_models_text_to_a_messages_watcher(tmp_path, monkeypatch, spec: str) -> None:
    monkeypatch.setenv("SID_API_KEY", "k")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    index = make_index(str(tmp_path / "index"))
    thinking = "Looking for the supplier of Project Alpha."
    with ScriptedOpenAI() as srv:
        if spec.startswith("openai-responses:"):
            srv.respond(
                resp_calls(("search", {"query": "Project Alpha late", "limit": 5}), text=thinking),
                resp_calls(("report_helpful_ids", {"ids": ["d1"]})),
            )
        else:
            srv.chat(
                chat_tool_calls(("search", {"query": "Project Alpha late", "limit": 5}), content=thinking),
                chat_tool_calls(("report_helpful_ids", {"ids": ["d1"]})),
            )
        ctx = Context(model=spec, base_url=srv.base_url, index=index, model_max_retries=1)
        graph = compiled_graph(InMemorySaver())
        config = {"configurable": {"thread_id": "t1"}}
        chunks: list[AIMessageChunk] = []
        for kind, data in graph.stream({"messages": [{"role": "user", "content": "Who delivered Alpha late?"}]},
                                       config, context=ctx, stream_mode=["messages"]):
            message = data[0]
            if kind == "messages" and isinstance(message, AIMessageChunk):
                chunks.append(message)
        asked = [r.body for r in srv.requests if r.method == "POST"]
        assert [bool(b.get("stream")) for b in asked] == [True, True]
        state = graph.get_state(config).values
    replies = [m for m in state["messages"] if isinstance(m, AIMessage)]
    assert state["reported_ids"][0] == "alpha"
    first = replies[0]
    mine = [c for c in chunks if c.id == first.id]
    assert "".join(str(c.content) for c in mine) == thinking == first.content
    # The watcher's joined message has the calls, as the thread does.
    assert [tc["name"] for c in mine for tc in c.tool_calls] == ["search"]
    assert [tc["name"] for tc in first.tool_calls] == ["search"]
