"""`hopgraph mcp` spawned as a subprocess and driven by the MCP SDK's own client, over stdio and streamable HTTP."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult

from tests.support.contracts import PAGES, make_contract_index, whole_text

HOPGRAPH = str(Path(sys.executable).parent / "hopgraph")
QUESTION = "What delay penalty does Nordlicht pay when it delivers late?"
PENALTY = PAGES[("legal", "nordlicht")][2][1]
STARTUP_TIMEOUT_S = 60


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> str:
    # Built, then closed: the server process opens (and locks) it.
    return make_contract_index(str(tmp_path_factory.mktemp("contracts") / "index"))


def server_env() -> dict[str, str]:
    drop = ("QDRANT_URL", "HOPGRAPH_INDEX", "HOPGRAPH_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "POSTGRES_URI")
    return {k: v for k, v in os.environ.items() if k not in drop}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def stdio_client(*args: str) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=HOPGRAPH, args=["mcp", *args], env=server_env())
    async with Client(params, read_timeout_seconds=120) as client:
        yield client


@contextlib.contextmanager
def http_server(*args: str, log: Path) -> Iterator[str]:
    port = _free_port()
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [HOPGRAPH, "mcp", "--http", str(port), *args], env=server_env(), stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"hopgraph mcp --http exited ({proc.returncode}):\n{log.read_text()[-4000:]}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if time.monotonic() > deadline:
                pytest.fail(f"hopgraph mcp --http not up after {STARTUP_TIMEOUT_S}s:\n{log.read_text()[-4000:]}")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def error_text(result: CallToolResult) -> str:
    assert result.is_error, result
    return " ".join(getattr(block, "text", "") for block in result.content)


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def check_tools(client: Client) -> None:
    """What every transport must serve: the three tools, scoped by the command line, errors as tool errors."""
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == {"search", "ask", "read"}
    for tool in tools.values():
        # No tool lets the client name a container, a tag or any other setting.
        assert not {"container", "containers", "tag", "tags", "index", "model"} & set(tool.input_schema["properties"])
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
    # ask publishes one schema per mode, each with only its own fields.
    ask_schema = tools["ask"].output_schema
    assert ask_schema is not None
    arms = [ask_schema["$defs"][ref["$ref"].rsplit("/", 1)[-1]] for ref in ask_schema["oneOf"]]
    assert {arm["properties"]["mode"]["const"]: set(arm["required"]) for arm in arms} == {
        "ids": {"mode", "found", "exit_reason", "documents"},
        "answer": {"mode", "found", "exit_reason", "answer", "citations"},
    }

    hits = structured(await client.call_tool("search", {"query": "delay penalty per week", "limit": 2}))["results"]
    assert hits[0]["id"] == "nordlicht" and hits[0]["page"] == 2 and hits[0]["snippet"] == PENALTY
    assert len(hits) == 2 and {h["container"] for h in hits} == {"legal"}
    text_hits = structured(await client.call_tool("search", {"query": '"90 days"', "mode": "text"}))["results"]
    assert [h["id"] for h in text_hits] == ["carrow"]
    assert structured(await client.call_tool("search", {"query": "canteen soup", "mode": "dense"}))["results"]

    # The hr container was not given on the command line: not found, not readable, whatever the client sends.
    widened = await client.call_tool("search", {"query": "confidential bonus pool", "containers": ["hr"]})
    assert "bonus" not in {h["id"] for h in structured(widened)["results"]}
    assert "No document with id 'bonus'" in error_text(await client.call_tool("read", {"id": "bonus"}))

    ids = structured(await client.call_tool("ask", {"question": QUESTION}))
    # Each mode has its own result: ranked documents, or an answer with its citations; `found` in both.
    assert set(ids) == {"mode", "found", "exit_reason", "documents"}
    assert ids["mode"] == "ids" and ids["found"] is True and ids["documents"][0] == {
        "id": "nordlicht",
        "title": "Supply Agreement - Nordlicht Components",
        "snippet": PENALTY,
    }
    answered = await client.call_tool("ask", {"question": QUESTION, "mode": "answer"})
    answer = structured(answered)
    assert set(answer) == {"mode", "found", "exit_reason", "answer", "citations"}
    assert answer["mode"] == "answer" and answer["found"] is True
    assert "1.5 percent" in answer["answer"] and "[1]" in answer["answer"]
    assert answer["citations"][0] == {
        "number": 1,
        "title": "Supply Agreement - Nordlicht Components",
        "page": 2,
        "container": "legal",
        "source": "/contracts/nordlicht-supply-agreement.pdf",
        "doc_id": "nordlicht",
        "link": "/contracts/nordlicht-supply-agreement.pdf#page=2",
    }
    # The text a client shows is the answer with its sources.
    assert answered.content[0].text.startswith(answer["answer"])  # type: ignore[union-attr]
    assert "Sources:\n[1] Supply Agreement - Nordlicht Components, page 2" in answered.content[0].text  # type: ignore[union-attr]

    # A question nothing in the documents supports: found is false in both modes, and nothing is listed.
    for question in ("zzzz qqqq", "?"):
        nothing = await client.call_tool("ask", {"question": question})
        assert structured(nothing) == {"mode": "ids", "found": False, "exit_reason": "reported", "documents": []}
        assert nothing.content[0].text == "No relevant documents were found."  # type: ignore[union-attr]
        unanswered = structured(await client.call_tool("ask", {"question": question, "mode": "answer"}))
        assert unanswered["found"] is False and unanswered["citations"] == []
        assert unanswered["answer"].startswith("Not found in the documents")

    read = structured(await client.call_tool("read", {"id": "nordlicht"}))
    assert read["text"] == whole_text("legal", "nordlicht") and read["next_offset"] is None
    part = structured(await client.call_tool("read", {"id": "nordlicht", "offset": 100}))
    assert part["text"] == whole_text("legal", "nordlicht")[100:]

    # Bad arguments are tool errors; the server keeps serving.
    assert "greater than or equal to 1" in error_text(await client.call_tool("search", {"query": "x", "limit": 0}))
    assert "less than or equal to 50" in error_text(await client.call_tool("search", {"query": "x", "limit": 51}))
    assert "'hybrid', 'text' or 'dense'" in error_text(await client.call_tool("search", {"query": "x", "mode": "x"}))
    assert "must not be empty" in error_text(await client.call_tool("search", {"query": "   "}))
    assert "question" in error_text(await client.call_tool("ask", {}))
    assert "'ids' or 'answer'" in error_text(await client.call_tool("ask", {"question": "x", "mode": "essay"}))
    assert "past the end" in error_text(await client.call_tool("read", {"id": "nordlicht", "offset": 10**6}))
    assert "unknown" in error_text(await client.call_tool("delete", {"id": "nordlicht"})).lower()
    assert structured(await client.call_tool("search", {"query": "renewal notice", "limit": 1}))["results"]


async def test_stdio(index: str) -> None:
    async with stdio_client("--index", index, "--container", "legal") as client:
        await check_tools(client)


async def test_streamable_http(index: str, tmp_path: Path) -> None:
    with http_server("--index", index, "--container", "legal", log=tmp_path / "server.log") as url:
        async with Client(url, read_timeout_seconds=120) as client:
            await check_tools(client)
        # A second client session on the same server.
        async with Client(url, read_timeout_seconds=120) as client:
            hits = structured(await client.call_tool("search", {"query": "Carrow enclosures", "limit": 1}))
            assert [h["id"] for h in hits["results"]] == ["carrow"]


async def test_containers_and_tags_come_from_the_command_line(index: str) -> None:
    async with stdio_client("--index", index, "--container", "hr", "--container", "default") as client:
        hits = structured(await client.call_tool("search", {"query": "delay penalty bonus pool"}))["results"]
        assert {h["id"] for h in hits} == {"bonus", "canteen"}
        assert structured(await client.call_tool("read", {"id": "bonus"}))["container"] == "hr"
        assert "No document with id 'nordlicht'" in error_text(await client.call_tool("read", {"id": "nordlicht"}))
    async with stdio_client("--index", index, "--container", "legal", "--tag", "no-such-tag") as client:
        assert structured(await client.call_tool("search", {"query": "delay penalty"}))["results"] == []


def test_a_missing_index_stops_the_server_with_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    done = subprocess.run(
        [HOPGRAPH, "mcp", "--index", str(missing)],
        env=server_env(),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=STARTUP_TIMEOUT_S,
    )
    assert done.returncode == 2
    assert f"no index at {missing}" in done.stderr and done.stdout == ""
    assert not missing.exists()
    bad = subprocess.run(
        [HOPGRAPH, "mcp", "--index", str(missing), "--model", "gpt-nonsense"],
        env=server_env(),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=STARTUP_TIMEOUT_S,
    )
    assert bad.returncode == 2 and "unknown model 'gpt-nonsense'" in bad.stderr


async def test_a_dead_index_or_model_is_a_tool_error(index: str) -> None:
    dead = f"http://127.0.0.1:{_free_port()}"
    async with stdio_client("--url", dead, "--container", "legal") as client:
        for name, args in (("search", {"query": "penalty"}), ("ask", {"question": QUESTION}), ("read", {"id": "x"})):
            assert f"cannot reach Qdrant at {dead}" in error_text(await client.call_tool(name, args)), name
        assert {t.name for t in (await client.list_tools()).tools} == {"search", "ask", "read"}
    model_url = f"http://127.0.0.1:{_free_port()}/v1"
    async with stdio_client(
        "--index", index, "--container", "legal", "--model", "openai:m", "--base-url", model_url
    ) as client:
        message = error_text(await client.call_tool("ask", {"question": QUESTION}))
        assert "model_error" in message and "could not be reached" in message
        assert structured(await client.call_tool("search", {"query": "penalty", "limit": 1}))["results"]


async def test_a_model_that_never_answers_is_a_timeout_within_model_timeout(index: str) -> None:
    from tests.support.openai_server import ScriptedOpenAI
    from tests.support.openai_steps import silent

    with ScriptedOpenAI() as srv:
        srv.chat(silent(), silent())
        args = ("--index", index, "--container", "legal", "--model", "openai:m", "--base-url", srv.base_url)
        async with stdio_client(*args, "--model-timeout", "1") as client:
            started = time.monotonic()
            message = error_text(await client.call_tool("ask", {"question": QUESTION}))
            elapsed = time.monotonic() - started
    assert f"the model at {srv.base_url} did not answer within 1 s" in message, message
    assert elapsed < 30, elapsed  # the default would wait 240 s


def test_without_the_mcp_sdk_the_command_names_the_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], index: str
) -> None:
    from hopgraph.cli import main

    for name in [m for m in sys.modules if m == "mcp" or m.startswith(("mcp.", "hopgraph.integrations.mcp_server"))]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "mcp", None)
    assert main(["mcp", "--index", index]) == 2
    assert capsys.readouterr().err == 'error: hopgraph mcp needs the MCP SDK: pip install "hopgraph[mcp]"\n'


def test_a_bad_http_port_is_refused(capsys: pytest.CaptureFixture[str], index: str) -> None:
    from hopgraph.cli import main

    assert main(["mcp", "--index", index, "--http", "70000"]) == 2
    assert capsys.readouterr().err == "error: --http PORT must be from 1 to 65535\n"
