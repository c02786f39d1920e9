"""The scripted model server holds both sides to OpenAI's published API description: a request that breaks it
is refused as the API refuses it, and an answer that breaks it fails the test that scripted it."""

from __future__ import annotations

import httpx
import pytest

from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text


def test_a_request_outside_the_description_is_refused_and_fails_the_test() -> None:
    server = ScriptedOpenAI().start()
    try:
        answer = httpx.post(f"{server.base_url}/chat/completions",
                            json={"model": "m", "messages": [{"role": "narrator", "content": "hi"}]})
        assert answer.status_code == 400
        assert answer.json()["error"]["type"] == "invalid_request_error"
        assert "CreateChatCompletionRequest messages/0" in answer.json()["error"]["message"]
        good = httpx.post(f"{server.base_url}/chat/completions",
                          json={"model": "m", "messages": [{"role": "user", "content": "hi"}]})
        assert good.status_code == 500  # nothing scripted: the script is exhausted, as scripted servers say
    finally:
        server.stop()
    assert len(server.violations) == 1 and "request to /v1/chat/completions" in server.violations[0]
    with pytest.raises(AssertionError, match="the OpenAI protocol was broken"):
        server.__exit__(None, None, None)


def test_an_answer_outside_the_description_fails_the_test() -> None:
    failing = pytest.raises(AssertionError, match=r"CreateChatCompletionResponse choices/0/finish_reason")
    with failing, ScriptedOpenAI() as server:
        broken = chat_text("hello")
        broken["choices"][0]["finish_reason"] = "tired"
        server.chat(broken)
        answer = httpx.post(f"{server.base_url}/chat/completions",
                            json={"model": "m", "messages": [{"role": "user", "content": "hi"}]})
        assert answer.status_code == 200  # sent as scripted; the test fails when the block ends


def test_answers_as_scripted_fit_the_description() -> None:
    with ScriptedOpenAI() as server:
        server.chat(chat_text("hello"))
        answer = httpx.post(f"{server.base_url}/chat/completions",
                            json={"model": "m", "messages": [{"role": "user", "content": "hi"}]})
        assert answer.json()["choices"][0]["message"]["content"] == "hello"
    assert server.violations == []
