"""The optional rerank stage of the search tool, with an HTTP rerank endpoint on localhost."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from hopgraph import Context, run
from hopgraph.index.memory import MemoryBackend
from tests.scripted import ScriptedChatModel, call, calls
from tests.support.json_endpoint import JsonEndpoint


@pytest.fixture()
def rerank_url() -> Iterator[str]:
    def respond(path: str, headers: Mapping[str, str], body: Any) -> tuple[int, Any]:
        # Prefers passages that mention "penalty": the opposite of the keyword order below.
        return 200, {"results": [{"index": i, "relevance_score": float("penalty" in doc.lower())}
                                 for i, doc in enumerate(body["documents"])]}

    with JsonEndpoint(respond) as server:
        yield f"{server.url}/rerank"


def _first_title(reranker: str | None) -> str:
    backend = MemoryBackend()
    backend.add_text("a", "Acme bolts bolts", "Acme bolts bolts bolts delivery schedule.")
    backend.add_text("b", "Acme contract", "Acme bolts: late penalty of 2 percent.")
    model = ScriptedChatModel(replies=[calls(call("search", {"query": "Acme bolts"})),
                                       calls(call("report_helpful_ids", {"ids": ["d1"]}))])
    run("q", context=Context(chat_model=model, backend=backend, reranker=reranker))
    first = next(m for m in model.prompts[1] if isinstance(m, ToolMessage))
    return str(first.artifact["docs"][0]["title"])


def test_rerank_stage_reorders_search_results(rerank_url: str) -> None:
    assert _first_title(None) == "Acme bolts bolts"
    assert _first_title(f"http:{rerank_url}") == "Acme contract"


def test_eval_compares_with_and_without_the_reranker(rerank_url: str, tmp_path: Any) -> None:
    from hopgraph.evals.runner import EvalOptions, evaluate
    from tests.test_eval import write_beir

    folder = write_beir(tmp_path / "tiny")
    backend = MemoryBackend()
    for line in (folder / "corpus.jsonl").read_text().splitlines():
        d = json.loads(line)
        backend.add_text(d["_id"], d["title"], d["text"], container="default")
    results = evaluate(EvalOptions(data=str(folder), progress=False, container="default",
                                   rerank=f"http:{rerank_url}"), backend=backend)
    assert {"builtin", "builtin+rerank", "hybrid", "hybrid+rerank"} <= set(results["systems"])
    for name in ("builtin+rerank", "hybrid+rerank"):
        assert 0.0 <= results["systems"][name]["ndcg@10"] <= 1.0
        assert results["systems"][name]["queries"] == results["queries"]
