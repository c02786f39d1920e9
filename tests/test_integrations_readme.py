"""The README's "Use it from..." examples run as written against the demo index (the application's own model is a
scripted OpenAI-compatible server, reached through OPENAI_BASE_URL as any local server would be)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from hopgraph.demo import ingest_demo
from hopgraph.index.factory import close_backend, open_backend
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text, chat_tool_calls

README = Path(__file__).resolve().parents[1] / "README.md"
HOPGRAPH = str(Path(sys.executable).parent / "hopgraph")
ENV_DROPPED = ("QDRANT_URL", "HOPGRAPH_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "POSTGRES_URI")

# create_react_agent is the agent langgraph itself ships; langchain's create_agent (its successor) is not a dependency.
pytestmark = pytest.mark.filterwarnings("ignore:create_react_agent has been moved")


def section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Use it from...")
    return text[start : text.index("\n## ", start + 3)]


def blocks(kind: str, under: str) -> list[str]:
    """The ``kind`` code blocks of one ``### under`` subsection, in order."""
    body = section()
    start = body.index(f"### {under}")
    end = body.find("\n### ", start + 4)
    part = body[start : end if end > 0 else None]
    return re.findall(rf"```{kind}\n(.*?)```", part, flags=re.S)


@pytest.fixture(scope="module")
def demo_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = str(tmp_path_factory.mktemp("demo") / "index")
    backend = open_backend(path)
    try:
        ingest_demo(backend)
    finally:
        close_backend(path)
    yield path
    close_backend(path)


@pytest.fixture()
def demo_env(demo_index: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedOpenAI]:
    """The default index location is the demo index; the application's model is a scripted server."""
    for name in ENV_DROPPED:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOPGRAPH_INDEX", demo_index)
    with ScriptedOpenAI() as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        yield srv


def run_blocks(sources: list[str]) -> tuple[str, dict[str, Any]]:
    namespace: dict[str, Any] = {"__name__": "readme_example"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for source in sources:
            exec(compile(source, str(README), "exec"), namespace)
    return out.getvalue(), namespace


def test_retriever_and_lcel_chain(demo_env: ScriptedOpenAI) -> None:
    demo_env.chat(chat_text("Nordlicht pays 1.5 percent per week of delay, at most 10 percent [1]."))
    printed, names = run_blocks(blocks("python", "LangChain retriever"))
    docs = names["docs"]
    assert docs and [d.metadata["rank"] for d in docs] == list(range(1, len(docs) + 1))
    contract = next(d for d in docs if d.metadata["id"] == "nordlicht-supply-agreement.pdf")
    assert contract.metadata["container"] == "legal" and contract.metadata["page"] == 2
    assert "1.5 percent" in contract.page_content
    assert printed.rstrip().endswith("Nordlicht pays 1.5 percent per week of delay, at most 10 percent [1].")
    [sent] = demo_env.chat_requests()
    assert "Supply Agreement" in sent["messages"][0]["content"] and "1.5 percent" in sent["messages"][0]["content"]


def test_tool_for_another_agent(demo_env: ScriptedOpenAI) -> None:
    question = "Which supplier missed the delivery deadline in September, and what penalty did we agree with them?"
    demo_env.chat(chat_tool_calls(("company_documents", {"question": question})), chat_text("Nordlicht; 1.5 percent."))
    printed, _ = run_blocks(blocks("python", "Tool for another agent"))
    assert printed.strip() == "Nordlicht; 1.5 percent."
    tool_reply = [m for m in demo_env.chat_requests()[1]["messages"] if m["role"] == "tool"][0]["content"]
    assert "Nordlicht" in tool_reply and "1.5 percent" in tool_reply
    assert "Sources:\n[1] INC-2026-031" in tool_reply and "Supply Agreement - Nordlicht" in tool_reply


def test_subgraph(demo_env: ScriptedOpenAI) -> None:
    printed, names = run_blocks(blocks("python", "Subgraph of a LangGraph graph"))
    messages = names["out"]["messages"]
    assert [m.type for m in messages] == ["human", "ai", "human", "ai"]
    first = messages[1].response_metadata["hopgraph"]
    assert "Nordlicht" in first["answer"] and first["citations"]
    assert "Sources:\n[1] " in printed
    assert set(names["graph"].get_state(names["config"]).values) == {"messages"}


async def test_mcp_snippet(demo_env: ScriptedOpenAI, demo_index: str) -> None:
    [snippet] = blocks("json", "MCP server")
    server = json.loads(snippet)["mcpServers"]["hopgraph"]
    assert server["command"] == "hopgraph"
    close_backend(demo_index)  # the server process opens the index
    env = {**os.environ, "HOPGRAPH_INDEX": demo_index}
    params = StdioServerParameters(command=HOPGRAPH, args=server["args"], env=env)
    async with Client(params, read_timeout_seconds=120) as client:
        result = await client.call_tool(
            "ask", {"question": "Which supplier missed the delivery deadline in September?", "mode": "answer"}
        )
        assert not result.is_error, result.content
        assert result.structured_content is not None and "Nordlicht" in result.structured_content["answer"]
    [commands] = blocks("bash", "MCP server")
    assert "hopgraph mcp --container legal --http 8765" in commands
