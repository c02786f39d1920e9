"""A run that ends on a model, index or token-budget error carries no answer: an empty answer, no citations and its
error, in the CLI (text and --json, exit 2), hopgraph.run, and every adapter (tool, subgraph node, MCP).

The model is a real HTTP server speaking the OpenAI protocol (scripted), or nothing listening on a closed port; the
index is an embedded one filled by ``ingest``, or a Qdrant URL where nothing listens.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.graph import START, MessagesState, StateGraph
from mcp import Client, StdioServerParameters

from hopgraph import Context, as_node, as_tool, run
from hopgraph.errors import RunFailedError
from hopgraph.index import factory
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.ingest import ingest_paths
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text, chat_tool_calls

QUESTION = "How much can an employee claim for meals per day?"
CONTAINER = "ops"
MCP_SERVER = ("import json, sys\n"
              "from hopgraph import Context\n"
              "from hopgraph.integrations.mcp_server import build_server\n"
              "build_server(Context(**json.loads(sys.argv[1]))).run('stdio')")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base = tmp_path_factory.mktemp("failed-runs")
    folder = base / "policies"
    folder.mkdir()
    (folder / "travel.md").write_text("# Travel policy\n\nAn employee can claim up to 45 EUR per day for meals. "
                                      "Hotels are reimbursed up to 120 EUR per night.\n")
    (folder / "leave.md").write_text("# Leave policy\n\nEvery employee has 28 days of paid leave a year.\n")
    path = str(base / "index")
    with EdgeBackend(path, embedder=get_embedder("minilm")) as backend:
        ingest_paths(backend, [folder], container=CONTAINER, progress=False)
    yield path
    factory.close_all()


def assert_no_answer(result: dict[str, Any], reason: str, error: str) -> None:
    assert result["exit_reason"] == reason, result
    assert result["answer"] == "" and result["citations"] == [] and result["markers"] == [], result
    assert error in result["error"], result


def cli(*argv: str) -> int:
    from hopgraph.cli import main

    return main(list(argv))


def test_the_cli_prints_no_answer_when_the_model_cannot_be_reached(
    index: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    url = f"http://127.0.0.1:{closed_port()}/v1"
    args = ("ask", QUESTION, "--mode", "answer", "--model", "openai:m", "--base-url", url, "--index", index,
            "--container", CONTAINER)
    assert cli(*args, "--json") == 2
    captured = capsys.readouterr()
    assert_no_answer(json.loads(captured.out), "model_error", "could not be reached")
    assert captured.err.startswith("error: ") and "could not be reached" in captured.err

    assert cli(*args) == 2
    captured = capsys.readouterr()
    assert "Not found" not in captured.out and "EUR" not in captured.out
    assert "exit: model_error" in captured.out
    assert captured.err.startswith("error: ") and "could not be reached" in captured.err


def test_the_cli_stops_before_asking_when_qdrant_cannot_be_reached(capsys: pytest.CaptureFixture[str]) -> None:
    dead = f"http://127.0.0.1:{closed_port()}"
    assert cli("ask", QUESTION, "--mode", "answer", "--url", dead, "--container", CONTAINER, "--json") == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"cannot reach Qdrant at {dead}" in captured.err


def test_run_returns_no_answer_for_a_dead_model_or_index(index: str) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    result = run(QUESTION, context=Context(mode="answer", model="openai:m", base_url=url, index=index,
                                           containers=[CONTAINER], model_max_retries=0, model_timeout_s=5))
    assert_no_answer(result, "model_error", "could not be reached")

    dead = f"http://127.0.0.1:{closed_port()}"
    result = run(QUESTION, context=Context(mode="answer", qdrant_url=dead, containers=[CONTAINER]))
    assert_no_answer(result, "backend_error", f"cannot reach Qdrant at {dead}")


def budget_context(index: str, srv: ScriptedOpenAI, **kw: Any) -> Context:
    return Context(mode="answer", model="openai:m", base_url=srv.base_url, index=index, containers=[CONTAINER],
                   model_max_retries=0, **kw)


def search_then_answer() -> tuple[dict[str, Any], dict[str, Any]]:
    return (chat_tool_calls(("search_documents", {"query": "meal allowance per day", "limit": None})),
            chat_text("An employee can claim up to 45 EUR per day for meals [S1]."))


def tight_budget(index: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """A token budget with room for the first prompt and none for the second, which adds the passages found."""
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    with ScriptedOpenAI() as srv:
        srv.chat(*search_then_answer())
        probe = run(QUESTION, context=budget_context(index, srv))
    # With room, the same script answers, citing the passage.
    assert probe["exit_reason"] == "answered" and "45 EUR" in probe["answer"] and probe["citations"], probe
    return int(probe["trace"][0]["prompt_tokens"]) + 5


def test_a_run_stopped_by_the_token_budget_has_no_answer(index: str, monkeypatch: pytest.MonkeyPatch) -> None:
    budget = tight_budget(index, monkeypatch)
    with ScriptedOpenAI() as srv:
        srv.chat(*search_then_answer())
        result = run(QUESTION, context=budget_context(index, srv, token_budget=budget))
        assert len(srv.chat_requests()) == 1  # the second prompt was over the budget and never sent
    # Passages were gathered, and still no answer is composed from them: the model never answered.
    assert result["trace"][0]["new_docs"]
    assert_no_answer(result, "budget", "token budget")


async def test_every_adapter_turns_a_budget_stop_into_an_error(index: str, monkeypatch: pytest.MonkeyPatch) -> None:
    budget = tight_budget(index, monkeypatch)

    with ScriptedOpenAI() as srv:
        srv.chat(*search_then_answer())
        tool = as_tool(context=budget_context(index, srv, token_budget=budget), mode="answer")
        message = tool.invoke({"question": QUESTION})
    assert "token budget" in message and "budget" in message and "EUR" not in message

    with ScriptedOpenAI() as srv:
        srv.chat(*search_then_answer())
        builder = StateGraph(MessagesState)
        builder.add_node("documents", as_node(budget_context(index, srv, token_budget=budget)))
        builder.add_edge(START, "documents")
        with pytest.raises(RunFailedError, match="token budget") as failed:
            builder.compile().invoke({"messages": [HumanMessage(QUESTION)]})
    assert failed.value.exit_reason == "budget"

    factory.close_all()  # the MCP server's process opens (and locks) the index
    with ScriptedOpenAI() as srv:
        srv.chat(*search_then_answer())
        # The MCP server in a process of its own, as `hopgraph mcp` runs it, with a context the command line cannot set.
        settings = {"mode": "answer", "model": "openai:m", "base_url": srv.base_url, "index": index,
                    "containers": [CONTAINER], "model_max_retries": 0, "token_budget": budget}
        env = {**{k: v for k, v in os.environ.items() if k not in ("QDRANT_URL", "HOPGRAPH_INDEX")},
               "OPENAI_API_KEY": "k"}
        params = StdioServerParameters(command=sys.executable, args=["-c", MCP_SERVER, json.dumps(settings)], env=env)
        async with Client(params, read_timeout_seconds=120) as client:
            result = await client.call_tool("ask", {"question": QUESTION, "mode": "answer"})
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert result.is_error and "token budget" in text and "EUR" not in text, result


def test_reaching_the_turn_cap_still_answers_from_the_passages_gathered(index: str) -> None:
    # The built-in policy's answer from what the run found is an answer, not an error.
    result = run(QUESTION, context=Context(mode="answer", index=index, containers=[CONTAINER], max_turns=1))
    assert result["exit_reason"] in ("answered", "max_turns", "thrash"), result
    assert "45 EUR per day" in result["answer"] and result["citations"] and not result["error"], result
