"""The scripted OpenAI-compatible server in tests/support behaves like the real API for ChatOpenAI."""

from __future__ import annotations

import openai
import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_openai import ChatOpenAI

from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text, chat_tool_calls, http_error

TOOL = {
    "type": "function",
    "function": {
        "name": "search",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
    },
}


def _model(srv: ScriptedOpenAI, **kw) -> ChatOpenAI:
    return ChatOpenAI(model="scripted", base_url=srv.base_url, api_key="k", **kw)  # type: ignore[arg-type]


def test_parallel_tool_calls_then_429_then_text():
    with ScriptedOpenAI() as srv:
        srv.chat(
            chat_tool_calls(("search", {"query": "a"}), ("search", {"query": "b"})),
            http_error(429, "slow down", retry_after=0),
            chat_text("done"),
        )
        model = _model(srv, max_retries=2).bind_tools([TOOL])
        ai = model.invoke([HumanMessage("q")])
        assert [c["args"] for c in ai.tool_calls] == [{"query": "a"}, {"query": "b"}]
        assert ai.tool_calls[0]["id"] != ai.tool_calls[1]["id"]
        history = [HumanMessage("q"), ai] + [ToolMessage("r", tool_call_id=c["id"]) for c in ai.tool_calls]
        assert model.invoke(history).content == "done"
        bodies = srv.chat_requests()
        assert len(bodies) == 3 and bodies[1] == bodies[2]  # the 429 was retried with the same request
        assert [m["role"] for m in bodies[2]["messages"]] == ["user", "assistant", "tool", "tool"]
        assert bodies[0]["tools"][0]["function"]["name"] == "search"
        assert srv.remaining() == 0


def test_streaming_and_exhausted_script():
    with ScriptedOpenAI() as srv:
        srv.chat(chat_tool_calls(("search", {"query": "x"}), content="looking"))
        model = _model(srv, max_retries=0, streaming=True)
        ai = model.bind_tools([TOOL]).invoke("q")
        assert ai.content == "looking" and ai.tool_calls[0]["args"] == {"query": "x"}
        # No step left: a loud 500, not a hang.
        with pytest.raises(openai.InternalServerError, match="script exhausted"):
            _model(srv, max_retries=0).invoke("again")
