"""The real ChatOpenAI path (openai:<model> and sid-1) against a scripted HTTP server on localhost."""

from __future__ import annotations

import socket

import pytest

from hopgraph import Context, run
from hopgraph.errors import ModelSpecError
from hopgraph.index.memory import MemoryBackend
from hopgraph.models import parse_spec
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_tool_calls, http_error


@pytest.fixture()
def backend() -> MemoryBackend:
    b = MemoryBackend()
    b.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts; late delivery costs 2 percent.")
    b.add_text("globex", "Globex contract", "Globex supplies copper wire.")
    return b


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SID_API_KEY", "SID_BASE_URL", "HOPGRAPH_MODEL"):
        monkeypatch.delenv(name, raising=False)


def test_openai_path_parallel_calls_and_429_retry(backend: MemoryBackend) -> None:
    with ScriptedOpenAI() as server:
        server.chat(
            http_error(429, "slow down", retry_after=0),
            chat_tool_calls(("search", {"query": "steel bolts", "limit": None}), ("text_search", {"query": "copper"})),
            chat_tool_calls(("report_helpful_ids", {"ids": ["d2", "d1"]})),
        )
        result = run("Who supplies what?", context=Context(model="openai:gpt-test", base_url=server.base_url,
                                                           backend=backend, model_max_retries=2))
    assert result["exit_reason"] == "reported"
    assert result["reported_ids"] == ["globex", "acme"]
    requests = server.chat_requests()
    assert len(requests) == 3  # the 429 was retried
    first = requests[1]
    # strict JSON-schema tools are sent to OpenAI-compatible models
    names = [t["function"]["name"] for t in first["tools"]]
    assert names == ["search", "text_search", "read", "report_helpful_ids"]
    assert all(t["function"]["strict"] is True for t in first["tools"])
    assert first["tools"][0]["function"]["parameters"]["additionalProperties"] is False
    # the second request carries both tool results, one per call, in call order
    messages = requests[2]["messages"]
    calls = next(m["tool_calls"] for m in messages if m["role"] == "assistant")
    assert [c["function"]["name"] for c in calls] == ["search", "text_search"]
    tool_msgs = [m for m in messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_msgs] == [c["id"] for c in calls]
    assert tool_msgs[-1]["content"].endswith("You have 9 out of 10 turns left.")


def test_malformed_json_arguments_from_the_server(backend: MemoryBackend) -> None:
    with ScriptedOpenAI() as server:
        server.chat(
            chat_tool_calls(("search", '{"query": "steel')),  # arguments cut short: not JSON
            chat_tool_calls(("search", {"query": "steel"})),
            chat_tool_calls(("report_helpful_ids", {"ids": ["d1"]})),
        )
        result = run("q", context=Context(model="openai:m", base_url=server.base_url, backend=backend))
    tool_msgs = [m for m in server.chat_requests()[1]["messages"] if m["role"] == "tool"]
    assert "Invalid arguments for 'search'" in tool_msgs[0]["content"]
    assert result["exit_reason"] == "reported" and result["reported_ids"] == ["acme"]


def test_sid1_reads_tools_from_the_system_prompt(backend: MemoryBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SID_API_KEY", "test-key")
    with ScriptedOpenAI() as server:
        server.chat(chat_tool_calls(("search", {"query": "steel"}), ("report_helpful_ids", {"ids": ["d1"]})))
        monkeypatch.setenv("SID_BASE_URL", server.base_url)
        result = run("Who supplies steel?", context=Context(model="sid-1", backend=backend))
    assert result["reported_ids"] == ["acme"]
    request = server.chat_requests()[0]
    assert request["model"] == "sid-1"
    assert server.requests[0].headers["authorization"] == "Bearer test-key"
    system = request["messages"][0]
    assert system["role"] == "system"
    text = system["content"]
    for expected in ("- search: ", "- text_search: ", "- read: ", "query (string, required)",
                     "limit (integer, optional, default 5, at most 15)",
                     '<tool_call>{"name": "report_helpful_ids", "arguments": {"ids": ["d3", "d1"]}}</tool_call>',
                     '<tool_call>{"name": "search", "arguments": {"query": "example search terms"}}</tool_call>',
                     "1. Search", "3. Call `report_helpful_ids`"):
        assert expected in text, expected
    # stub tool entries only: no real parameter schemas
    assert all(t["function"]["parameters"] == {"type": "object", "properties": {}} for t in request["tools"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_model_ends_with_clear_error(backend: MemoryBackend) -> None:
    url = f"http://127.0.0.1:{_free_port()}/v1"
    result = run("q", context=Context(model="openai:m", base_url=url, backend=backend, model_max_retries=1,
                                      model_timeout_s=2))
    assert result["exit_reason"] == "model_error"
    assert "could not be reached" in result["error"] and url in result["error"]


def test_unknown_model_spec() -> None:
    with pytest.raises(ModelSpecError, match="unknown model 'gpt-nonsense'"):
        parse_spec("gpt-nonsense")


def test_missing_keys_are_clear(backend: MemoryBackend) -> None:
    with pytest.raises(ModelSpecError, match="SID_API_KEY"):
        run("q", context=Context(model="sid-1", backend=backend))
    with pytest.raises(ModelSpecError, match="OPENAI_API_KEY"):
        run("q", context=Context(model="openai:gpt-x", backend=backend))
