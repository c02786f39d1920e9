"""Rerankers: the HTTP one against a small local endpoint, fastembed with a local model folder, and the spec
parsing."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from hopgraph.index.backend import Chunk, Hit, make_chunk_id
from hopgraph.index.rerank import FastembedReranker, HttpReranker, RerankError, get_reranker
from tests.support.json_endpoint import JsonEndpoint


def hit(doc: str, text: str, score: float) -> Hit:
    return Hit(chunk=Chunk(chunk_id=make_chunk_id("default", doc, 0), doc_id=doc, index=0, title=doc.upper(),
                           text=text, container="default"), score=score)


@pytest.fixture
def endpoint() -> Iterator[tuple[str, dict[str, Any]]]:
    state: dict[str, Any] = {"requests": []}

    def respond(path: str, headers: Mapping[str, str], body: Any) -> tuple[int, Any]:
        state["requests"].append({"path": path, "auth": headers.get("Authorization"), "body": body})
        if state.get("status", 200) != 200:
            return state["status"], b"nope"
        q = set(body["query"].lower().split())
        scored = [(i, len(q & set(d.lower().split())) / 10) for i, d in enumerate(body["documents"])]
        scored.sort(key=lambda p: -p[1])
        results = [{"index": i, "relevance_score": s} for i, s in scored[: body["top_n"]]]
        return 200, results if state.get("bare") else {"results": results}

    with JsonEndpoint(respond) as server:
        yield f"{server.url}/v1/rerank", state


HITS = [
    hit("a", "bread recipes and baking", 0.9),
    hit("b", "how to repair a bicycle chain quickly", 0.8),
    hit("c", "bicycle history", 0.7),
]


def test_http_reranker_reorders(endpoint: tuple[str, dict[str, Any]]) -> None:
    url, state = endpoint
    r = HttpReranker(url, model="rerank-test", api_key="k1")
    out = r.rerank("repair bicycle chain", HITS, top_n=2)
    assert [h.doc_id for h in out] == ["b", "c"]
    assert out[0].score == pytest.approx(0.3)
    req = state["requests"][0]
    assert req["path"] == "/v1/rerank" and req["auth"] == "Bearer k1"
    assert req["body"]["query"] == "repair bicycle chain" and req["body"]["model"] == "rerank-test"
    assert req["body"]["documents"][1] == "B\nhow to repair a bicycle chain quickly"
    assert req["body"]["top_n"] == 3
    assert r.rerank("anything", []) == []
    state["bare"] = True  # TEI style: a bare list
    assert [h.doc_id for h in r.rerank("bread baking", HITS)] == ["a", "b", "c"]


def test_http_reranker_errors(endpoint: tuple[str, dict[str, Any]]) -> None:
    url, state = endpoint
    state["status"] = 400
    with pytest.raises(RerankError, match="answered 400"):
        HttpReranker(url).rerank("q", HITS)
    with pytest.raises(RerankError, match="cannot reach reranker"):
        HttpReranker("http://127.0.0.1:9/rerank", max_retries=0, timeout_s=2).rerank("q", HITS)


# --- fastembed cross-encoder ------------------------------------------------------------------

CROSS_ENCODER = "Xenova/ms-marco-MiniLM-L-6-v2"


@pytest.fixture(scope="module")
def cross_encoder_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local folder laid out as fastembed expects this cross-encoder, holding a small scoring model:
    its score for a (query, passage) pair is how often the word piece "bicycle" occurs in the pair.
    Real ONNX, real tokenizer (MiniLM's), real fastembed runtime; only the weights are hand-made."""
    import onnx
    from onnx import TensorProto, helper
    from tokenizers import Tokenizer

    from hopgraph.index.embed import _default_tokenizer_path

    folder = tmp_path_factory.mktemp("cross-encoder")
    shutil.copyfile(_default_tokenizer_path(), folder / "tokenizer.json")
    (folder / "tokenizer_config.json").write_text(json.dumps({
        "model_max_length": 512, "do_lower_case": True, "cls_token": "[CLS]", "sep_token": "[SEP]",
        "pad_token": "[PAD]", "unk_token": "[UNK]", "mask_token": "[MASK]",
    }))
    target = Tokenizer.from_file(str(folder / "tokenizer.json")).token_to_id("bicycle")
    assert target is not None
    graph = helper.make_graph(
        [
            helper.make_node("Equal", ["input_ids", "target"], ["hit"]),
            helper.make_node("Cast", ["hit"], ["hit_f"], to=TensorProto.FLOAT),
            helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["hit_f", "mask_f"], ["counted"]),
            helper.make_node("ReduceSum", ["counted", "axis"], ["logits"], keepdims=1),
        ],
        "bicycle_counter",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])],
        initializer=[helper.make_tensor("target", TensorProto.INT64, [], [target]),
                     helper.make_tensor("axis", TensorProto.INT64, [1], [1])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    (folder / "onnx").mkdir()
    onnx.save(model, str(folder / "onnx" / "model.onnx"))
    return folder


def test_fastembed_reranker_reads_a_local_model_folder(
    cross_encoder_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOPGRAPH_RERANKER_PATH", str(cross_encoder_folder))
    r = get_reranker(f"fastembed:{CROSS_ENCODER}")
    assert isinstance(r, FastembedReranker)
    passages = ["bread recipes", "bicycle bicycle repair", "a bicycle"]
    assert r.scores("which one?", passages) == [0.0, 2.0, 1.0]
    hits = [hit("a", "bread recipes and baking", 0.9), hit("b", "bicycle bicycle bicycle", 0.8),
            hit("c", "the bicycle history", 0.7)]
    assert [h.doc_id for h in r.rerank("which one?", hits, top_n=2)] == ["b", "c"]
    monkeypatch.setenv("HOPGRAPH_RERANKER_PATH", str(cross_encoder_folder / "missing"))
    with pytest.raises(RerankError, match="cross-encoder folder .*missing does not exist"):
        get_reranker(f"fastembed:{CROSS_ENCODER}")


def test_fastembed_reranker_broken_folder(cross_encoder_folder: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(cross_encoder_folder, broken)
    (broken / "onnx" / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(RerankError, match=f"cross-encoder '{CROSS_ENCODER}' is not available in .*broken"):
        FastembedReranker(CROSS_ENCODER, model_path=broken).scores("q", ["p"])


def test_get_reranker_specs(endpoint: tuple[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    url, _ = endpoint
    monkeypatch.delenv("HOPGRAPH_RERANKER", raising=False)
    assert get_reranker(None) is None
    assert get_reranker("none") is None
    assert isinstance(get_reranker(url), HttpReranker)
    http = get_reranker(f"http:{url}")
    assert isinstance(http, HttpReranker) and http.url == url
    with pytest.raises(RerankError, match="unknown reranker"):
        get_reranker("colbert")
    # fastembed is installed with the test extra; its cross-encoders are never downloaded at query time.
    with pytest.raises(RerankError, match="cross-encoder 'Xenova/ms-marco-MiniLM-L-6-v2' is not available locally"):
        get_reranker("fastembed:Xenova/ms-marco-MiniLM-L-6-v2")
    monkeypatch.setitem(sys.modules, "fastembed.rerank.cross_encoder", None)  # an install without the extra
    with pytest.raises(RerankError, match="needs the optional package fastembed"):
        get_reranker("fastembed:Xenova/ms-marco-MiniLM-L-6-v2")
