"""Every Python example in the README runs as written, as a script in a process of its own, against the demo index
(the application's own model is a scripted OpenAI-compatible server, reached through OPENAI_BASE_URL as any local
server would be; the served graph is a real `langgraph dev`; PostgreSQL is the local server, in a throwaway schema),
and prints no warning."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from hopgraph.demo import ingest_demo
from hopgraph.index.factory import close_backend, open_backend
from tests.support.dev_server import dev_server, server_env
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text, chat_tool_calls
from tests.support.postgres import drop_schema, new_schema, require_postgres

README = Path(__file__).resolve().parents[1] / "README.md"
HOPGRAPH = str(Path(sys.executable).parent / "hopgraph")
ENV_DROPPED = ("QDRANT_URL", "HOPGRAPH_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "POSTGRES_URI", "DATABASE_URI",
               "HOPGRAPH_INDEX", "HOPGRAPH_CHECKPOINT_DB")
# A warning as Python prints it: "file:line: Category: message" (a category need not say "Warning").
WARNING = re.compile(r"^\S.*:\d+: \w+: ", flags=re.M)
# What a script prints after the README's code, for the checks below: never part of what the README shows.
MARK = "@@readme-check@@"
# The headings whose Python examples the tests below run; every Python block of the README is under one of them.
TESTED = {"Use", "Serve (LangGraph server, Studio)", "LangChain retriever", "Tool for another agent",
          "Subgraph of a LangGraph graph"}


def headed_blocks(kind: str) -> list[tuple[str, str]]:
    """Every ``kind`` code block of the README with the nearest heading above it (## or ###), in order."""
    found, heading = [], ""
    for part in re.split(r"(^```[a-z]*\n.*?^```\n)", README.read_text(encoding="utf-8"), flags=re.S | re.M):
        if part.startswith(f"```{kind}\n"):
            found.append((heading, part[len(kind) + 4 : -4]))
        else:
            headings = re.findall(r"^#{2,3} (.+)$", part, flags=re.M)
            heading = headings[-1] if headings else heading
    return found


def blocks(kind: str, under: str) -> list[str]:
    return [source for heading, source in headed_blocks(kind) if heading == under]


@pytest.fixture(scope="module")
def demo_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = str(tmp_path_factory.mktemp("demo") / "index")
    backend = open_backend(path)
    try:
        ingest_demo(backend)
    finally:
        close_backend(path)  # the scripts open it, one at a time
    yield path


@pytest.fixture()
def demo_env(demo_index: str, tmp_path: Path) -> Iterator[tuple[dict[str, str], ScriptedOpenAI]]:
    """The default index location is the demo index; the application's model is a scripted server."""
    env = {k: v for k, v in os.environ.items() if k not in ENV_DROPPED}
    env.update(HOPGRAPH_INDEX=demo_index, HOPGRAPH_CHECKPOINT_DB=str(tmp_path / "threads.sqlite"))
    with ScriptedOpenAI() as srv:
        env.update(OPENAI_BASE_URL=srv.base_url, OPENAI_API_KEY="k")
        yield env, srv


def run_script(source: str, env: dict[str, str], cwd: Path, check: str = "") -> tuple[str, Any]:
    """Runs ``source`` as ``python example.py`` (then ``check``, whose printed JSON comes back); returns what the
    README's code printed and the check's value. Fails on an error or on any warning on stderr."""
    script = cwd / "example.py"
    script.write_text(source + (f"\nimport json as _json\nprint({MARK!r} + _json.dumps({check}))\n" if check else ""))
    # Deprecations shown wherever they are raised: Python hides those raised outside __main__ (notebooks and test
    # runners show them).
    shown = ["-W", "default::DeprecationWarning", "-W", "default::PendingDeprecationWarning"]
    proc = subprocess.run([sys.executable, *shown, str(script)], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert not WARNING.search(proc.stderr), proc.stderr[-4000:]
    printed, _, checked = proc.stdout.partition(MARK)
    return printed, json.loads(checked) if check else None


def test_every_python_block_is_run_by_a_test() -> None:
    headings = {heading for heading, _ in headed_blocks("python")}
    assert headings == TESTED
    # A script, not a notebook cell: no top-level await.
    for heading, source in headed_blocks("python"):
        compile(source, f"README.md ({heading})", "exec")


def test_python_api_and_a_postgres_saver(demo_env: tuple[dict[str, str], ScriptedOpenAI], tmp_path: Path) -> None:
    env, _ = demo_env
    uri, schema = require_postgres(), new_schema()
    import psycopg

    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        # The saver's tables go to a schema of their own, dropped afterwards.
        env = {**env, "POSTGRES_URI": f"{uri}{'&' if '?' in uri else '?'}options=-csearch_path%3D{schema}"}
        printed, answer = run_script("\n".join(blocks("python", "Use")), env, tmp_path, check="out['answer']")
    finally:
        drop_schema(uri, schema)
    lines = printed.splitlines()
    assert " reported " in lines[0] and "nordlicht-supply-agreement.pdf" in lines[0]
    assert any(line.startswith("{'prepare':") for line in lines) and any("'finalize':" in line for line in lines)
    # `out` is the sync part's: its answer names the supplier; the thread in PostgreSQL carries the async
    # follow-up, where "them" is Nordlicht, whose penalty the second answer gives.
    assert "Nordlicht" in answer and "1.5 percent" not in answer
    follow_up = printed.split(answer, 1)[1]
    assert "1.5 percent" in follow_up


def test_the_served_graph_from_the_sdk(demo_env: tuple[dict[str, str], ScriptedOpenAI], tmp_path: Path) -> None:
    env, _ = demo_env
    [source] = blocks("python", "Serve (LangGraph server, Studio)")
    serving = server_env(HOPGRAPH_INDEX=env["HOPGRAPH_INDEX"], HOPGRAPH_CHECKPOINT_DB=env["HOPGRAPH_CHECKPOINT_DB"])
    with dev_server(serving, tmp_path / "server.log") as url:
        # The example's address is the one its `langgraph dev` command listens on; this server has its own port.
        assert "http://127.0.0.1:2024" in source
        printed, _ = run_script(source.replace("http://127.0.0.1:2024", url), env, tmp_path)
    ids, _, reason = printed.strip().rpartition("] ")
    assert reason == "reported" and "INC-2026-031-late-housing-delivery.pdf" in ids


def test_retriever_and_lcel_chain(demo_env: tuple[dict[str, str], ScriptedOpenAI], tmp_path: Path) -> None:
    env, srv = demo_env
    srv.chat(chat_text("Nordlicht pays 1.5 percent per week of delay, at most 10 percent [1]."))
    check = "[{**d.metadata, 'text': d.page_content} for d in docs]"
    printed, docs = run_script("\n".join(blocks("python", "LangChain retriever")), env, tmp_path, check=check)
    assert docs and [d["rank"] for d in docs] == list(range(1, len(docs) + 1))
    contract = next(d for d in docs if d["id"] == "nordlicht-supply-agreement.pdf")
    assert contract["container"] == "legal" and contract["page"] == 2
    assert "1.5 percent" in contract["text"]
    assert printed.rstrip().endswith("Nordlicht pays 1.5 percent per week of delay, at most 10 percent [1].")
    [sent] = srv.chat_requests()
    assert "Supply Agreement" in sent["messages"][0]["content"] and "1.5 percent" in sent["messages"][0]["content"]


def test_tool_for_another_agent(demo_env: tuple[dict[str, str], ScriptedOpenAI], tmp_path: Path) -> None:
    env, srv = demo_env
    question = "Which supplier missed the delivery deadline in September, and what penalty did we agree with them?"
    srv.chat(chat_tool_calls(("company_documents", {"question": question})), chat_text("Nordlicht; 1.5 percent."))
    printed, _ = run_script("\n".join(blocks("python", "Tool for another agent")), env, tmp_path)
    assert printed.strip() == "Nordlicht; 1.5 percent."
    tool_reply = [m for m in srv.chat_requests()[1]["messages"] if m["role"] == "tool"][0]["content"]
    assert "Nordlicht" in tool_reply and "1.5 percent" in tool_reply
    assert "Sources:\n[1] INC-2026-031" in tool_reply and "Supply Agreement - Nordlicht" in tool_reply


def test_subgraph(demo_env: tuple[dict[str, str], ScriptedOpenAI], tmp_path: Path) -> None:
    env, _ = demo_env
    check = ("{'types': [m.type for m in out['messages']], 'first': out['messages'][1].response_metadata['hopgraph'],"
             " 'keys': sorted(graph.get_state(config).values)}")
    printed, seen = run_script("\n".join(blocks("python", "Subgraph of a LangGraph graph")), env, tmp_path, check)
    assert seen["types"] == ["human", "ai", "human", "ai"]
    assert "Nordlicht" in seen["first"]["answer"] and seen["first"]["citations"]
    assert "Sources:\n[1] " in printed
    assert seen["keys"] == ["messages"]


async def test_mcp_snippet(demo_env: tuple[dict[str, str], ScriptedOpenAI], demo_index: str) -> None:
    env, _ = demo_env
    [snippet] = blocks("json", "MCP server")
    server = json.loads(snippet)["mcpServers"]["hopgraph"]
    assert server["command"] == "hopgraph"
    params = StdioServerParameters(command=HOPGRAPH, args=server["args"], env=env)
    async with Client(params, read_timeout_seconds=120) as client:
        result = await client.call_tool(
            "ask", {"question": "Which supplier missed the delivery deadline in September?", "mode": "answer"}
        )
        assert not result.is_error, result.content
        assert result.structured_content is not None and "Nordlicht" in result.structured_content["answer"]
    [commands] = blocks("bash", "MCP server")
    assert "hopgraph mcp --container legal --http 8765" in commands
