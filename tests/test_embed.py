"""The built-in embedder: the offline MiniLM model, its integrity check, the int8 query model, the fused graph
and the settings that choose among them (the optional embedders are tested in test_embed_optional)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hopgraph.index import embed, quantize
from hopgraph.index.embed import EmbedderError, MiniLMEmbedder, get_embedder


@pytest.fixture(scope="module")
def minilm() -> embed.Embedder:
    return get_embedder("minilm")


def test_minilm_similarities_make_sense(minilm: embed.Embedder) -> None:
    vecs = minilm.embed_documents([
        "A man is playing a guitar on stage.",
        "Someone performs music with a guitar in a concert.",
        "The central bank raised interest rates to fight inflation.",
    ])
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    sims = vecs @ vecs.T
    assert sims[0, 1] > 0.5
    assert sims[0, 1] > sims[0, 2] + 0.3
    assert sims[1, 2] < 0.2


def test_minilm_is_deterministic_and_batch_independent(minilm: embed.Embedder) -> None:
    texts = [f"sentence number {i} about {'rivers' if i % 2 else 'mountains'}" for i in range(40)]
    texts.append("a much longer sentence " * 30)
    a = minilm.embed_documents(texts)
    b = minilm.embed_documents(list(reversed(texts)))[::-1]
    assert np.allclose(a, b, atol=1e-5)
    assert minilm.embed_documents([]).shape == (0, 384)
    # A query at the documents' precision goes through the document model; the other precision stays close.
    assert isinstance(minilm, MiniLMEmbedder)
    same, other = minilm.doc_precision, {"int8": "float", "float": "int8"}[minilm.doc_precision]
    assert np.allclose(MiniLMEmbedder(precision=same).embed_query(texts[3]), a[3], atol=1e-5)
    assert float(MiniLMEmbedder(precision=other).embed_query(texts[3]) @ a[3]) > 0.98


def test_minilm_truncates_long_input(minilm: embed.Embedder) -> None:
    long = "tokens " * 2000
    v = minilm.embed_documents([long, long + " extra words at the very end"])
    assert np.allclose(v[0], v[1], atol=1e-6)  # past 256 tokens nothing changes


def test_corrupted_model_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    good = Path(MiniLMEmbedder().model_path)
    bad = tmp_path / "model.onnx"
    shutil.copyfile(good, bad)
    with bad.open("r+b") as f:
        f.seek(1000)
        f.write(b"\x00\x01\x02\x03")
    with pytest.raises(EmbedderError, match=r"failed its integrity check: sha256 [0-9a-f]{64}, expected 8199be6f"):
        MiniLMEmbedder(model_path=bad)


def test_hash_check_is_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    model = tmp_path / "model.onnx"
    shutil.copyfile(MiniLMEmbedder().model_path, model)
    calls: list[Path] = []
    real = embed.file_sha256

    def counting(p: Path) -> str:
        calls.append(p)
        return real(p)

    monkeypatch.setattr(embed, "file_sha256", counting)
    embed.verify_model_file(model)
    embed._verified.clear()  # a new process: only the on-disk cache remains
    embed.verify_model_file(model)
    assert len(calls) == 1
    assert (tmp_path / "cache" / "hopgraph" / "verified-models.json").exists()


# --- int8 query model ---------------------------------------------------------------------------

QUESTIONS = [
    "Which supplier delivered the backup generators for the Lisbon site?",
    "When was the outage in the payments cluster resolved?",
    "what does the release note say about the new retry limit",
    "Were statins linked to a lower risk of dementia in older adults?",
    "Who directed the film in which the actress from Kansas made her debut?",
    "Ünïcode quéry with accents and 数字",
    "x",
]


def test_int8_queries_agree_with_float_documents() -> None:
    int8 = MiniLMEmbedder(precision="int8")
    docs = MiniLMEmbedder(doc_precision="float").embed_documents(QUESTIONS)
    queries = np.stack([int8.embed_query(q) for q in QUESTIONS])
    assert np.allclose(np.linalg.norm(queries, axis=1), 1.0, atol=1e-5)
    agreement = (queries * docs).sum(axis=1)
    assert agreement.min() > 0.97, agreement
    assert not np.allclose(queries, docs, atol=1e-4)  # it is a different computation, not the same one
    # Each question's nearest document vector is its own text.
    assert list((queries @ docs.T).argmax(axis=1)) == list(range(len(QUESTIONS)))
    onnx_ops = {node.op_type for node in _query_graph(int8).node}
    assert "MatMulInteger" in onnx_ops


def test_int8_weight_range_follows_the_cpu(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512_vnni\n\nprocessor\t: 1\n")
    assert quantize.cpu_flags(cpuinfo) == {"fpu", "sse2", "avx2", "avx512_vnni"}
    assert quantize.cpu_flags(tmp_path / "missing") == frozenset()
    assert quantize.needs_reduced_range("x86_64", frozenset({"avx2"}))
    assert quantize.needs_reduced_range("x86_64", frozenset())  # unknown CPU: the safe choice
    assert not quantize.needs_reduced_range("x86_64", frozenset({"avx2", "avx_vnni"}))
    assert not quantize.needs_reduced_range("aarch64", frozenset())


def test_int8_query_model_weights_use_the_range_the_cpu_allows() -> None:
    from onnx import numpy_helper

    int8 = MiniLMEmbedder(precision="int8")
    int8.embed_query("warm up")
    graph = _query_graph(int8)
    weights = [numpy_helper.to_array(t) for t in graph.initializer if t.data_type == 3 and len(t.dims) == 2]
    assert len(weights) == 24  # int8 weights of the four products of each of the six layers
    largest = max(int(np.abs(w.astype(np.int16)).max()) for w in weights)
    record = json.loads(Path(str(int8.query_model_path)).with_suffix(".json").read_text())
    if quantize.needs_reduced_range():
        assert largest <= 64 and record["recipe"].endswith("7bit")
    else:
        assert largest == 127 and record["recipe"].endswith("8bit")


def _query_graph(emb: embed.Embedder) -> Any:
    import onnx

    assert isinstance(emb, MiniLMEmbedder) and emb.query_model_path is not None
    return onnx.load(str(emb.query_model_path)).graph


def test_int8_query_model_cache_is_verified_and_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = Path(MiniLMEmbedder().model_path)
    first = quantize.int8_query_model(source, embed.MINILM_SHA256)
    assert first.parent == tmp_path / "cache" / "hopgraph" / "models"
    record = json.loads(first.with_suffix(".json").read_text())
    assert record["sha256"] == quantize.file_sha256(first) and record["source_sha256"] == embed.MINILM_SHA256
    built_at = first.stat().st_mtime_ns
    assert quantize.int8_query_model(source, embed.MINILM_SHA256) == first
    assert first.stat().st_mtime_ns == built_at  # reused, not rebuilt
    with first.open("r+b") as f:  # damage the cached copy: it must be rebuilt, not loaded
        f.seek(5000)
        f.write(b"\xff" * 64)
    again = quantize.int8_query_model(source, embed.MINILM_SHA256)
    assert quantize.file_sha256(again) == record["sha256"]
    vec = MiniLMEmbedder(precision="int8").embed_query("generators for the Lisbon site")
    assert vec.shape == (384,)
    # The fused float graph is cached the same way: a damaged file is rebuilt and gives the same vectors.
    (fused,) = first.parent.glob("minilm-fused-*.onnx")
    fused_record = json.loads(fused.with_suffix(".json").read_text())
    expected = MiniLMEmbedder(precision="float", doc_precision="float").embed_documents([LONG])
    with fused.open("r+b") as f:
        f.seek(1 << 20)
        f.write(b"\x00" * 4096)
    rebuilt = MiniLMEmbedder(precision="float", doc_precision="float")
    assert rebuilt.graph == "fused" and rebuilt.document_model_path == fused
    assert quantize.file_sha256(fused) == fused_record["sha256"]
    assert np.array_equal(rebuilt.embed_documents([LONG]), expected)


def test_int8_build_leaves_the_scratch_files_beside_the_fused_model_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two processes building the int8 model at once: onnxruntime's scratch copy of its input must not be
    # the other process's file (it was overwritten and deleted under it, and the other build failed).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = Path(MiniLMEmbedder().model_path)
    first = quantize.int8_query_model(source, embed.MINILM_SHA256)
    (fused,) = first.parent.glob("minilm-fused-*.onnx")
    others = fused.with_name(f"{fused.stem}-inferred.onnx")
    others.write_bytes(b"another build's scratch file")
    first.unlink()
    rebuilt = quantize.int8_query_model(source, embed.MINILM_SHA256)
    record = json.loads(first.with_suffix(".json").read_text())
    assert rebuilt == first and quantize.file_sha256(rebuilt) == record["sha256"]
    assert others.read_bytes() == b"another build's scratch file"
    assert sorted(p.name for p in first.parent.iterdir()) == sorted(
        [fused.name, fused.with_suffix(".json").name, first.name, first.with_suffix(".json").name, others.name]
    )


def test_int8_query_model_without_writable_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setattr(quantize.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    path = quantize.int8_query_model(Path(MiniLMEmbedder().model_path), embed.MINILM_SHA256)
    assert path.is_file() and path.is_relative_to(tmp_path / "tmp")
    monkeypatch.setattr(quantize.tempfile, "tempdir", str(blocker / "tmp"))
    # The fused float graph comes first, and nothing can be written for it either.
    with pytest.raises(quantize.QuantizeError, match="cannot write the fused MiniLM model: .*file"):
        quantize.int8_query_model(Path(MiniLMEmbedder().model_path), embed.MINILM_SHA256)
    with pytest.raises(quantize.QuantizeError, match="cannot write the int8 query model: .*file"):
        quantize._derived("minilm-query-int8", "int8 query model", "any", embed.MINILM_SHA256, lambda _: None)


# --- fused graph ----------------------------------------------------------------------------------

LONG = "Backup generators for the Lisbon site were delivered late, and the outage report says why. " * 40


def test_fused_graph_computes_the_shipped_vectors() -> None:
    import onnx

    minilm = MiniLMEmbedder(doc_precision="float")
    assert minilm.graph == "fused"
    shipped = MiniLMEmbedder(graph="shipped", precision="float", doc_precision="float")
    assert shipped.document_model_path == shipped.model_path
    texts = [*QUESTIONS, LONG]  # a padded batch, unicode, one letter, and a text cut at 256 tokens
    fused_vecs, shipped_vecs = minilm.embed_documents(texts), shipped.embed_documents(texts)
    assert ((fused_vecs * shipped_vecs).sum(axis=1) > 0.99999).all()
    assert not np.array_equal(fused_vecs, shipped_vecs)  # really another graph
    nodes = onnx.load(str(minilm.document_model_path)).graph.node
    assert len(nodes) < 80 and sum(n.op_type == "Attention" for n in nodes) == 6
    # Float queries go through the same fused graph.
    float_queries = MiniLMEmbedder(precision="float")
    assert np.allclose(float_queries.embed_query(QUESTIONS[0]), fused_vecs[0], atol=1e-6)


@pytest.fixture
def auto_int8_in_empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty model cache, the default precision, and a CPU on which ``auto`` picks int8."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HOPGRAPH_QUERY_PRECISION", raising=False)
    monkeypatch.setattr(embed, "needs_reduced_range", lambda: False)
    return tmp_path / "cache" / "hopgraph" / "models"


def test_fused_graph_that_differs_is_not_used(
    auto_int8_in_empty_cache: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from hopgraph.index import fused

    # Six heads of 64 instead of twelve of 32: the graph builds and runs, but computes something else.
    monkeypatch.setattr(fused, "NUM_HEADS", 6)
    with caplog.at_level("WARNING", logger="hopgraph.index.embed"):
        fallback = MiniLMEmbedder()
        vec = fallback.embed_query(QUESTIONS[0])
    assert fallback.graph == "shipped" and fallback.precision == "float"
    assert "rebuilt graph differs from the model: cosine distance" in caplog.text
    assert "using the shipped one" in caplog.text and "embedding queries in float" in caplog.text
    assert not list(auto_int8_in_empty_cache.glob("*.onnx"))  # nothing half-built left
    shipped = MiniLMEmbedder(graph="shipped", precision="float")
    assert np.allclose(vec, shipped.embed_documents([QUESTIONS[0]])[0], atol=1e-6)
    with pytest.raises(EmbedderError, match="cannot rebuild the MiniLM graph.*HOPGRAPH_QUERY_PRECISION=float"):
        MiniLMEmbedder(precision="int8").embed_query(QUESTIONS[1])
    with pytest.raises(EmbedderError, match="MiniLM graph must be fused or shipped, got 'compact'"):
        MiniLMEmbedder(graph="compact")


def test_fused_graph_refuses_a_model_of_another_layout(tmp_path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from hopgraph.index import fused

    weights = [numpy_helper.from_array(np.ones((4, 4), dtype=np.float32), "dense.weight")]
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "dense.weight"], ["y"])], "other",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], weights,
    )
    with pytest.raises(fused.FusedGraphError, match="not a BERT-style encoder export"):
        fused.build_fused(helper.make_model(graph))
    # The right names but a weight missing.
    prepared = tmp_path / "prepared.onnx"
    from onnxruntime.quantization.shape_inference import quant_pre_process

    quant_pre_process(MiniLMEmbedder().model_path, prepared, skip_symbolic_shape=True)
    model = onnx.load(str(prepared))
    keep = [t for t in model.graph.initializer if not t.name.endswith("layer.3.output.LayerNorm.weight")]
    del model.graph.initializer[:]
    model.graph.initializer.extend(keep)
    with pytest.raises(fused.FusedGraphError, match=r"no weight .*layer\.3\.output\.LayerNorm\.weight"):
        fused.build_fused(model)


def test_query_precision_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HOPGRAPH_QUERY_PRECISION", "float")
    monkeypatch.setenv("HOPGRAPH_DOC_PRECISION", "float")
    exact = MiniLMEmbedder()
    assert exact.precision == "float"
    text = "the payments cluster outage"
    assert np.allclose(exact.embed_query(text), exact.embed_documents([text])[0], atol=1e-6)
    # Float never builds the int8 copy; documents and float queries share the fused graph.
    assert [p.name.split("-")[1] for p in (tmp_path / "cache" / "hopgraph" / "models").glob("*.onnx")] == ["fused"]
    monkeypatch.setenv("HOPGRAPH_QUERY_PRECISION", "fp16")
    with pytest.raises(EmbedderError, match="HOPGRAPH_QUERY_PRECISION must be auto, int8 or float, got 'fp16'"):
        MiniLMEmbedder()
    with pytest.raises(EmbedderError, match="query precision must be auto, int8 or float, got 'half'"):
        MiniLMEmbedder(precision="half")
    monkeypatch.setenv("HOPGRAPH_QUERY_PRECISION", "INT8")
    fast = MiniLMEmbedder()
    assert fast.precision == "int8"
    # Without the onnx package the int8 copy cannot be built: a clear error that names the way out.
    monkeypatch.setitem(sys.modules, "onnx", None)
    with pytest.raises(EmbedderError, match=r"needs the package onnx.*HOPGRAPH_QUERY_PRECISION=float"):
        fast.embed_query(text)


@pytest.mark.parametrize("reduced_range", [True, False])
def test_auto_precision_follows_the_cpu(reduced_range: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOPGRAPH_QUERY_PRECISION", raising=False)
    monkeypatch.setattr(embed, "needs_reduced_range", lambda: reduced_range)
    auto = MiniLMEmbedder()
    assert auto.requested_precision == "auto"
    assert auto.precision == ("float" if reduced_range else "int8")
    assert MiniLMEmbedder(precision="float").precision == "float"
    assert MiniLMEmbedder(precision="int8").precision == "int8"


@pytest.mark.usefixtures("auto_int8_in_empty_cache")
def test_auto_precision_falls_back_to_float_when_int8_cannot_be_built(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "onnx", None)
    auto = MiniLMEmbedder()
    text = "the payments cluster outage"
    with caplog.at_level("WARNING", logger="hopgraph.index.embed"):
        vec = auto.embed_query(text)
    assert auto.precision == "float" and "embedding queries in float" in caplog.text
    assert np.allclose(vec, auto.embed_documents([text])[0], atol=1e-6)


def test_thread_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOPGRAPH_EMBED_THREADS", raising=False)
    assert embed.embed_threads() == 1
    monkeypatch.setenv("HOPGRAPH_EMBED_THREADS", "3")
    assert embed.embed_threads() == 3
    monkeypatch.setenv("HOPGRAPH_EMBED_THREADS", "zero")
    with pytest.raises(EmbedderError, match="HOPGRAPH_EMBED_THREADS"):
        embed.embed_threads()


def test_spec_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(EmbedderError, match="unknown embedder 'word2vec'"):
        get_embedder("word2vec")
    monkeypatch.setitem(sys.modules, "fastembed", None)  # as on an install without the extra
    with pytest.raises(EmbedderError, match="needs the optional package fastembed"):
        get_embedder("fastembed:BAAI/bge-small-en-v1.5")
    monkeypatch.setenv("HOPGRAPH_EMBEDDER", "minilm")
    assert get_embedder(None) is get_embedder("minilm")
