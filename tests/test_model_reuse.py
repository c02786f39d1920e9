"""A model behind an HTTP API is built once per process and setting: turns and runs reuse it and its open
connections, and a changed setting builds a new one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hopgraph import Context, run
from hopgraph.index.memory import MemoryBackend
from hopgraph.models import make_chat_model
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_tool_calls


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SID_API_KEY", "SID_BASE_URL", "HOPGRAPH_MODEL"):
        monkeypatch.delenv(name, raising=False)


def test_every_turn_of_every_run_goes_over_one_connection() -> None:
    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts; late delivery costs 2 percent.")
    backend.add_text("globex", "Globex contract", "Globex supplies copper wire.")
    with ScriptedOpenAI() as server:
        context = Context(model="openai:scripted", base_url=server.base_url, backend=backend)
        for _ in range(2):
            server.chat(
                chat_tool_calls(("search", {"query": "steel bolts", "limit": None})),
                chat_tool_calls(("text_search", {"query": "copper wire", "limit": None})),
                chat_tool_calls(("report_helpful_ids", {"ids": ["d1", "d2"]})),
            )
            result = run("Who supplies what?", context=context)
            assert result["exit_reason"] == "reported" and result["turns"] == 3, result
    chats = [r for r in server.requests if r.path.endswith("/chat/completions")]
    assert len(chats) == 6
    assert len({r.peer for r in chats}) == 1, [r.peer for r in chats]


def test_a_changed_setting_builds_a_new_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "first-key")
    context = Context(model="openai:scripted", base_url="http://127.0.0.1:9/v1")
    model, _ = make_chat_model(context)
    assert make_chat_model(context)[0] is model
    assert make_chat_model(replace(context, model_timeout_s=context.model_timeout_s + 1))[0] is not model
    assert make_chat_model(replace(context, base_url="http://127.0.0.1:10/v1"))[0] is not model
    monkeypatch.setenv("OPENAI_API_KEY", "second-key")
    rotated, _ = make_chat_model(context)
    assert rotated is not model
    assert rotated.openai_api_key.get_secret_value() == "second-key"  # type: ignore[attr-defined]
    # The built-in policy is not an HTTP model: a new one every time, as before.
    builtin = Context(model="builtin")
    assert make_chat_model(builtin)[0] is not make_chat_model(builtin)[0]
