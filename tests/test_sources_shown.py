"""What readers are shown of where a document came from: its path relative to the folder that was ingested, in
citations, ``read`` and the MCP server's answers; never the ingesting machine's absolute paths."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from hopgraph import Context, run
from hopgraph.index import factory
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.ingest import ingest_paths

HOPGRAPH = str(Path(sys.executable).parent / "hopgraph")
QUESTION = "How much can an employee claim for meals per day?"


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    base = tmp_path_factory.mktemp("shown")
    folder = base / "handbook"
    (folder / "money").mkdir(parents=True)
    (folder / "money" / "travel.md").write_text("# Travel policy\n\nAn employee can claim up to 45 EUR per day for "
                                                "meals. Hotels are reimbursed up to 120 EUR per night.\n")
    (folder / "leave.md").write_text("# Leave policy\n\nEvery employee has 28 days of paid leave a year.\n")
    index = str(base / "index")
    with EdgeBackend(index, embedder=get_embedder("minilm")) as backend:
        ingest_paths(backend, [folder], container="hr", progress=False)
    yield index, base
    factory.close_all()


def test_run_cites_relative_sources(ingested: tuple[str, Path]) -> None:
    index, base = ingested
    result = run(QUESTION, context=Context(mode="answer", index=index, containers=["hr"]))
    assert "45 EUR per day" in result["answer"]
    assert [(c["source"], c["link"]) for c in result["citations"]] == [("handbook/money/travel.md",) * 2]
    assert str(base) not in json.dumps(result, default=str)


async def test_mcp_read_and_ask_show_relative_sources(ingested: tuple[str, Path]) -> None:
    index, base = ingested
    factory.close_all()  # the server process opens (and locks) the index
    env = {k: v for k, v in os.environ.items() if k not in ("QDRANT_URL", "HOPGRAPH_INDEX", "HOPGRAPH_MODEL")}
    params = StdioServerParameters(command=HOPGRAPH, args=["mcp", "--index", index, "--container", "hr"], env=env)
    async with Client(params, read_timeout_seconds=120) as client:
        read = await client.call_tool("read", {"id": "handbook/money/travel.md"})
        ask = await client.call_tool("ask", {"question": QUESTION, "mode": "answer"})
    assert not read.is_error and not ask.is_error
    assert read.structured_content is not None and read.structured_content["source"] == "handbook/money/travel.md"
    assert ask.structured_content is not None
    assert [c["source"] for c in ask.structured_content["citations"]] == ["handbook/money/travel.md"]
    for result in (read, ask):
        shown = json.dumps(result.structured_content) + " ".join(getattr(b, "text", "") for b in result.content)
        assert str(base) not in shown
