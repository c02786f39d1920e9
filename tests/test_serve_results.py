"""The served graph's output (`langgraph dev` with the repository's langgraph.json): citations name sources relative
to the folder that was ingested, and an answer-mode run stopped by the token budget returns no answer, only its
error. (A run whose model or index fails ends as a failed run: tests/test_serve_errors.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.ingest import ingest_paths
from tests.support.dev_server import dev_server, server_env
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text, chat_tool_calls

QUESTION = "How much can an employee claim for meals per day?"


def search_then_answer() -> tuple[dict[str, Any], dict[str, Any]]:
    return (chat_tool_calls(("search_documents", {"query": "meal allowance per day", "limit": None})),
            chat_text("An employee can claim up to 45 EUR per day for meals [S1]."))


async def test_served_answers_show_relative_sources_and_a_budget_stop_no_answer(tmp_path: Path) -> None:
    from langgraph_sdk import get_client

    folder = tmp_path / "handbook"
    folder.mkdir()
    (folder / "travel.md").write_text("# Travel policy\n\nAn employee can claim up to 45 EUR per day for meals. "
                                      "Hotels are reimbursed up to 120 EUR per night.\n")
    index = tmp_path / "index"
    with EdgeBackend(index, embedder=get_embedder("minilm")) as backend:  # closed before the server opens it
        ingest_paths(backend, [folder], progress=False)
    log = tmp_path / "server.log"
    with ScriptedOpenAI() as model:
        env = server_env(HOPGRAPH_INDEX=str(index), HOPGRAPH_CHECKPOINT_DB=str(tmp_path / "checkpoints.sqlite"),
                         HOPGRAPH_ALLOWED_MODELS="builtin,openai:m", OPENAI_API_KEY="k", OPENAI_BASE_URL=model.base_url)
        try:
            with dev_server(env, log) as url:
                client = get_client(url=url)
                question: dict[str, Any] = {"messages": [{"role": "user", "content": QUESTION}]}

                answered = await client.runs.wait(None, "hopgraph", input=question, context={"mode": "answer"})
                assert isinstance(answered, dict), answered
                assert "45 EUR per day" in answered["answer"]
                assert [c["source"] for c in answered["citations"]] == ["handbook/travel.md"]
                assert str(tmp_path) not in json.dumps(answered)

                # The scripted model searches, then answers; with room for its first prompt only, it never answers.
                model.chat(*search_then_answer())
                probe = await client.runs.wait(None, "hopgraph", input=question,
                                               context={"mode": "answer", "model": "openai:m"})
                assert isinstance(probe, dict) and "45 EUR" in probe["answer"], probe
                budget = int(probe["trace"][0]["prompt_tokens"]) + 5
                model.chat(*search_then_answer())
                thread = (await client.threads.create())["thread_id"]
                stopped = await client.runs.wait(thread, "hopgraph", input=question,
                                                 context={"mode": "answer", "model": "openai:m",
                                                          "token_budget": budget})
                assert isinstance(stopped, dict), stopped
                assert stopped["exit_reason"] == "budget" and "token budget" in stopped["error"], stopped
                assert stopped["answer"] == "" and stopped["citations"] == [], stopped
                state = await client.threads.get_state(thread)
                values = state["values"]
                assert isinstance(values, dict)
                # No reply in the conversation either: the thread holds the question and the search, no answer.
                messages = values["messages"]
                assert messages[0]["type"] == "human" and any(m["type"] == "tool" for m in messages)
                assert not any(m["type"] == "ai" and m["content"] for m in messages), messages
        except BaseException:
            print(log.read_text()[-6000:])
            raise
