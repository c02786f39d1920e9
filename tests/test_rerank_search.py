"""The optional rerank stage of the search tool, with an HTTP rerank endpoint on localhost."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from hopgraph import Context, run
from hopgraph.index.memory import MemoryBackend
from tests.scripted import ScriptedChatModel, call, calls


@pytest.fixture()
def rerank_url() -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802 - http.server API
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            # Prefers passages that mention "penalty": the opposite of the keyword order below.
            results = [{"index": i, "relevance_score": float("penalty" in doc.lower())}
                       for i, doc in enumerate(body["documents"])]
            data = json.dumps({"results": results}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/rerank"
    server.shutdown()
    server.server_close()


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
