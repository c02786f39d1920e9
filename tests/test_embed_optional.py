"""The optional embedders: fastembed reading a local model folder, and an OpenAI-compatible embeddings endpoint."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hopgraph.index import embed
from hopgraph.index.embed import EmbedderError, MiniLMEmbedder, get_embedder
from hopgraph.index.embed_optional import FastembedEmbedder, OpenAIEmbedder
from tests.support.json_endpoint import JsonEndpoint
from tests.support.openai_spec import problems

TEXTS = [
    "Which supplier delivered the backup generators for the Lisbon site?",
    "Were statins linked to a lower risk of dementia in older adults?",
    "Ünïcode quéry with accents and 数字",
    "x",
]


# --- fastembed ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fastembed_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped MiniLM laid out the way fastembed reads a local model folder."""
    folder = tmp_path_factory.mktemp("fastembed-minilm")
    shutil.copyfile(MiniLMEmbedder().model_path, folder / "model.onnx")
    shutil.copyfile(embed._default_tokenizer_path(), folder / "tokenizer.json")
    (folder / "tokenizer_config.json").write_text(json.dumps({
        "model_max_length": 256, "do_lower_case": True, "cls_token": "[CLS]", "sep_token": "[SEP]",
        "pad_token": "[PAD]", "unk_token": "[UNK]", "mask_token": "[MASK]",
    }))
    return folder


def test_fastembed_reads_a_local_model_folder(
    fastembed_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOPGRAPH_FASTEMBED_PATH", str(fastembed_folder))
    fe = get_embedder("fastembed:sentence-transformers/all-MiniLM-L6-v2")
    assert isinstance(fe, FastembedEmbedder) and fe.dim == 384
    texts = [*TEXTS, "a much longer passage " * 200]
    vecs = fe.embed_documents(texts)
    assert vecs.shape == (len(texts), 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    # Same weights, same pooling: fastembed and the built-in runner agree.
    assert ((vecs * MiniLMEmbedder(doc_precision="float").embed_documents(texts)).sum(axis=1) > 0.999).all()
    assert float(fe.embed_query(TEXTS[0]) @ vecs[0]) > 0.999
    # Another folder is another model, not the cached one.
    monkeypatch.setenv("HOPGRAPH_FASTEMBED_PATH", str(fastembed_folder / "missing"))
    with pytest.raises(EmbedderError, match="fastembed model folder .*missing does not exist"):
        get_embedder("fastembed:sentence-transformers/all-MiniLM-L6-v2")


def test_fastembed_broken_folder_is_a_clear_error(fastembed_folder: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(fastembed_folder, broken)
    (broken / "tokenizer_config.json").unlink()
    with pytest.raises(EmbedderError, match="cannot load fastembed model .*tokenizer_config.json"):
        FastembedEmbedder("sentence-transformers/all-MiniLM-L6-v2", model_path=broken)


# --- OpenAI-compatible endpoint --------------------------------------------------------------


@pytest.fixture
def endpoint() -> Iterator[tuple[str, dict[str, Any]]]:
    """An embeddings endpoint that holds requests and answers to OpenAI's published API description."""
    state: dict[str, Any] = {"requests": [], "fail_first": 0, "violations": []}

    def respond(path: str, headers: Mapping[str, str], body: Any) -> tuple[int, Any]:
        state["requests"].append({"path": path, "auth": headers.get("Authorization"), "body": body})
        state["violations"] += problems("CreateEmbeddingRequest", body)
        if state["fail_first"] > 0:
            state["fail_first"] -= 1
            return 503, b"busy"
        rows = []
        for i, text in enumerate(body["input"]):
            v = np.zeros(16)
            for w in text.lower().split():
                v[hash(w) % 16] += 1.0
            rows.append({"object": "embedding", "index": i, "embedding": (v * 3).tolist()})
        rows.reverse()  # the client must reorder by index
        answer = {"object": "list", "data": rows, "model": body["model"],
                  "usage": {"prompt_tokens": len(rows), "total_tokens": len(rows)}}
        state["violations"] += problems("CreateEmbeddingResponse", answer)
        return 200, answer

    with JsonEndpoint(respond) as server:
        yield f"{server.url}/v1", state
    assert state["violations"] == []


def test_openai_embedder(endpoint: tuple[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    url, state = endpoint
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    e = OpenAIEmbedder("text-embedding-test", batch_size=2)
    state["fail_first"] = 1  # one 503, then success: retried
    vecs = e.embed_documents(["red apple", "green apple", "red apple", "blue sky"])
    assert vecs.shape == (4, 16)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    assert np.allclose(vecs[0], vecs[2])  # order kept despite the server's reversed rows
    assert e.dim == 16
    reqs = state["requests"]
    assert reqs[0]["path"] == "/v1/embeddings" and reqs[0]["auth"] == "Bearer sk-test"
    assert reqs[0]["body"]["model"] == "text-embedding-test"
    assert [len(r["body"]["input"]) for r in reqs] == [2, 2, 2]  # retry + two batches of 2
    e.close()


def test_openai_embedder_errors(endpoint: tuple[str, dict[str, Any]]) -> None:
    url, state = endpoint
    e = OpenAIEmbedder("m", base_url=url, max_retries=1)
    state["fail_first"] = 5
    with pytest.raises(EmbedderError, match="answered 503"):
        e.embed_documents(["x"])
    dead = OpenAIEmbedder("m", base_url="http://127.0.0.1:9/v1", max_retries=0, timeout_s=2)
    with pytest.raises(EmbedderError, match="cannot reach embedding endpoint"):
        dead.embed_query("x")


def test_openai_spec(monkeypatch: pytest.MonkeyPatch, endpoint: tuple[str, dict[str, Any]]) -> None:
    url, _ = endpoint
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setattr(embed, "_cache", {})
    e = get_embedder("openai:my-model")
    assert isinstance(e, OpenAIEmbedder) and e.model == "my-model" and e.name == "openai:my-model"
    assert e.embed_query("hello world").shape == (16,)
