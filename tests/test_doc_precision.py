"""Documents embedded in int8: the setting, the vectors, and the index that records how its documents were
embedded and refuses documents embedded the other way."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from hopgraph.evals.index import corpus_key
from hopgraph.index import embed, factory
from hopgraph.index.backend import BackendError, Chunk, Scope
from hopgraph.index.chunking import CHUNKER_VERSION
from hopgraph.index.common import hash_file
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.edge_dir import RECORD
from hopgraph.index.embed import EmbedderError, MiniLMEmbedder, get_embedder
from hopgraph.index.ingest import ingest_paths

TEXTS = [
    "Backup generators for the Lisbon site were delivered late, and the outage report says why.",
    "The lighthouse keeper logged every ship. Storms came in winter.",
    "Kepler's laws describe planetary orbits around the sun.",
    "Espresso needs finely ground beans and water at about 93 degrees.",
    "x",
    "Ünïcode text with accents and 数字",
    "Quarterly budget memo: travel costs went down. " * 30,  # cut at 256 tokens
]


def test_int8_document_vectors_agree_with_float_ones() -> None:
    import onnx

    exact, fast = get_embedder("minilm", "float"), get_embedder("minilm", "int8")
    assert exact is not fast and (exact.doc_precision, fast.doc_precision) == ("float", "int8")
    a, b = exact.embed_documents(TEXTS), fast.embed_documents(TEXTS)
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    agreement = (a * b).sum(axis=1)
    # Measured: 0.991 at the lowest over the first 200 SciFact abstracts; 0.976 for the one letter.
    assert np.delete(agreement, TEXTS.index("x")).min() > 0.985, agreement
    assert agreement.min() > 0.96, agreement
    assert not np.allclose(a, b, atol=1e-4)  # really the int8 model
    assert list((a @ b.T).argmax(axis=1)) == list(range(len(TEXTS)))
    assert isinstance(fast, MiniLMEmbedder)
    assert "MatMulInteger" in {n.op_type for n in onnx.load(str(fast.document_model_path)).graph.node}


def test_doc_precision_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOPGRAPH_DOC_PRECISION", raising=False)
    # auto: int8 documents where the CPU takes full 8-bit weights, as for queries.
    assert MiniLMEmbedder().doc_precision == ("float" if embed.needs_reduced_range() else "int8")
    monkeypatch.setenv("HOPGRAPH_DOC_PRECISION", "INT8")
    assert MiniLMEmbedder().doc_precision == "int8"
    assert MiniLMEmbedder(doc_precision="float").doc_precision == "float"
    assert get_embedder("minilm").doc_precision == "int8"
    monkeypatch.setenv("HOPGRAPH_DOC_PRECISION", "fp16")
    with pytest.raises(EmbedderError, match="HOPGRAPH_DOC_PRECISION must be auto, int8 or float, got 'fp16'"):
        MiniLMEmbedder()
    with pytest.raises(EmbedderError, match="document precision must be auto, int8 or float, got 'half'"):
        MiniLMEmbedder(doc_precision="half")
    with pytest.raises(EmbedderError, match="int8 applies to the minilm embedder only"):
        get_embedder("openai:text-embedding-3-small", "int8")


@pytest.mark.parametrize("reduced_range", [True, False])
def test_auto_doc_precision_follows_the_cpu(
    reduced_range: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HOPGRAPH_DOC_PRECISION", raising=False)
    monkeypatch.setattr(embed, "needs_reduced_range", lambda: reduced_range)
    assert MiniLMEmbedder().doc_precision == ("float" if reduced_range else "int8")


def test_int8_documents_fall_back_to_float_unless_asked_for_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # nothing built yet
    monkeypatch.delenv("HOPGRAPH_DOC_PRECISION", raising=False)
    monkeypatch.setattr(embed, "needs_reduced_range", lambda: False)
    monkeypatch.setitem(sys.modules, "onnx", None)  # the int8 model cannot be built
    with caplog.at_level("WARNING", logger="hopgraph.index.embed"):
        auto = MiniLMEmbedder(precision="float")
    assert auto.doc_precision == "float" and "embedding documents in float" in caplog.text
    assert auto.embed_documents(TEXTS[:2]).shape == (2, 384)
    with pytest.raises(EmbedderError, match=r"needs the package onnx.*HOPGRAPH_DOC_PRECISION=float"):
        MiniLMEmbedder(doc_precision="int8")


def _chunk(doc_id: str, text: str) -> Chunk:
    return Chunk(chunk_id=f"default/{doc_id}/0", doc_id=doc_id, container="default", index=0, text=text,
                 title=doc_id, source=doc_id)


def _record(path: Path) -> dict[str, object]:
    return json.loads((path / RECORD).read_text())


def test_an_index_keeps_to_the_precision_of_its_documents(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pumps.txt").write_text("Pump P-7 needs new seals before the winter.")
    index = tmp_path / "idx"
    with EdgeBackend(index, embedder="minilm", doc_precision="float") as backend:
        assert ingest_paths(backend, [docs], progress=False).docs == 1
    assert _record(index)["doc_precision"] == "float"

    (docs / "valves.md").write_text("# Valves\n\nValve V-2 leaks at high pressure.")
    with EdgeBackend(index, embedder="minilm", doc_precision="int8") as backend:
        assert backend.doc_precision == "float" and backend.embedder.doc_precision == "int8"
        with pytest.raises(BackendError) as refused:
            ingest_paths(backend, [docs], progress=False)
        with pytest.raises(BackendError, match="embedded in float; these would be embedded in int8"):
            backend.upsert([_chunk("direct", "written past the ingest command")])
        assert backend.count() == 1  # nothing written
        # Searching needs no check: queries are embedded as always.
        assert backend.search("valve leaks", Scope(("default",)), 3)[0].doc_id == "docs/pumps.txt"
    assert str(refused.value) == (
        f"index {index} holds documents embedded in float; these would be embedded in int8, and one index holds "
        "documents embedded one way. Use --doc-precision float (HOPGRAPH_DOC_PRECISION=float) or a new --index."
    )
    with EdgeBackend(index, embedder="minilm", doc_precision="float") as backend:
        report = ingest_paths(backend, [docs], progress=False)
        assert (report.docs, report.unchanged, backend.count()) == (1, 1, 2)

    # An int8 index takes int8 documents and refuses float ones.
    other = tmp_path / "int8-idx"
    with EdgeBackend(other, embedder="minilm", doc_precision="int8") as backend:
        assert ingest_paths(backend, [docs], progress=False).docs == 2
    assert _record(other)["doc_precision"] == "int8"
    with EdgeBackend(other, embedder="minilm", doc_precision="float") as backend:
        with pytest.raises(BackendError, match="embedded in int8; these would be embedded in float.*"
                                               "--doc-precision int8"):
            ingest_paths(backend, [docs], progress=False)
        # Reopened for reading with the default settings, it searches as before.
        assert backend.search("valve leaks", Scope(("default",)), 3)[0].doc_id == "docs/valves.md"


def test_an_index_without_documents_takes_the_precision_of_the_first_ones(tmp_path: Path) -> None:
    index = tmp_path / "idx"
    EdgeBackend(index, embedder="minilm", doc_precision="float").close()  # opened, nothing written
    assert _record(index)["doc_precision"] == "float"
    with EdgeBackend(index, embedder="minilm", doc_precision="int8") as backend:
        backend.upsert([_chunk("a", "Pump P-7 needs new seals.")])
        assert backend.doc_precision == "int8"
    assert _record(index)["doc_precision"] == "int8"
    with EdgeBackend(index, embedder="minilm", doc_precision="float") as backend:
        with pytest.raises(BackendError, match="embedded in int8"):
            backend.upsert([_chunk("b", "Valve V-2 leaks.")])
        # Emptied, it takes documents of either precision again.
        backend.delete_document("a")
        backend.upsert([_chunk("b", "Valve V-2 leaks.")])
    assert _record(index)["doc_precision"] == "float"


def test_a_record_without_the_field_counts_as_float(tmp_path: Path) -> None:
    index = tmp_path / "idx"
    with EdgeBackend(index, embedder="minilm", doc_precision="float") as backend:
        backend.upsert([_chunk("a", "Pump P-7 needs new seals.")])
    meta = _record(index)
    del meta["doc_precision"]  # as written before documents could be embedded in int8
    (index / RECORD).write_text(json.dumps(meta))
    with EdgeBackend(index, embedder="minilm", doc_precision="int8") as backend:
        assert backend.doc_precision == "float"
        with pytest.raises(BackendError, match="embedded in float"):
            backend.upsert([_chunk("b", "Valve V-2 leaks.")])
    with EdgeBackend(index, embedder="minilm", doc_precision="float") as backend:
        backend.upsert([_chunk("b", "Valve V-2 leaks.")])
        assert backend.count() == 2


def test_cli_ingest_doc_precision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hopgraph.cli import main

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pumps.txt").write_text("Pump P-7 needs new seals before the winter.")
    index = str(tmp_path / "idx")
    try:
        assert main(["ingest", str(docs), "--index", index, "--doc-precision", "int8", "--no-progress"]) == 0
        assert _record(Path(index))["doc_precision"] == "int8"
        factory.close_all()  # each command is a process of its own
        (docs / "valves.txt").write_text("Valve V-2 leaks at high pressure.")
        capsys.readouterr()
        assert main(["ingest", str(docs), "--index", index, "--doc-precision", "float", "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: index {index} holds documents embedded in int8; these would be embedded in "
                              "float") and "--doc-precision int8" in err
        factory.close_all()
        assert main(["search", "valve", "--index", index, "--json"]) == 0
        assert [h["doc_id"] for h in json.loads(capsys.readouterr().out)] == ["docs/pumps.txt"]
    finally:
        factory.close_all()


def test_server_collection_records_the_precision_of_its_documents() -> None:
    from qdrant_client import QdrantClient

    from hopgraph.index.server import ServerBackend

    client = QdrantClient(":memory:")
    ServerBackend(client=client, embedder=get_embedder("minilm", "float"))  # created, nothing written
    assert (client.get_collection("hopgraph").config.metadata or {}).get("hopgraph_doc_precision") == "float"
    with_int8 = ServerBackend(client=client, embedder=get_embedder("minilm", "int8"))
    with_int8.upsert([_chunk("a", "Pump P-7 needs new seals.")])
    meta = client.get_collection("hopgraph").config.metadata or {}
    assert meta.get("hopgraph_doc_precision") == "int8" and meta.get("hopgraph_embedder") == "minilm"
    reopened = ServerBackend(client=client, embedder=get_embedder("minilm", "float"))
    assert reopened.doc_precision == "int8"
    with pytest.raises(BackendError, match=r"collection 'hopgraph' at \(client\) holds documents embedded in int8; "
                                           r"these would be embedded in float.*or another collection"):
        reopened.upsert([_chunk("b", "Valve V-2 leaks.")])
    assert reopened.count() == 1


def test_eval_indexes_of_the_two_precisions_are_cached_apart(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"_id": "a", "title": "", "text": "pumps"}) + "\n")
    assert corpus_key(corpus, "minilm", "int8") != corpus_key(corpus, "minilm", "float")
    # Float keeps the key indexes had before the precision was part of it, so they are reused.
    before = hash_file(corpus)
    before.update(f"\0embedder=minilm\0chunker={CHUNKER_VERSION}".encode())
    assert corpus_key(corpus, "minilm", "float") == before.hexdigest()[:16]


def test_an_open_index_is_not_handed_out_for_the_other_precision(tmp_path: Path) -> None:
    path = str(tmp_path / "idx")
    try:
        backend = factory.open_backend(index_dir=path, doc_precision="int8")
        assert factory.open_backend(index_dir=path, doc_precision="int8") is backend
        assert factory.open_backend(index_dir=path) is backend  # a reader asks for nothing
        with pytest.raises(BackendError, match="already open in this process with documents embedded in int8, "
                                               "not float: close it first"):
            factory.open_backend(index_dir=path, doc_precision="float")
    finally:
        factory.close_all()


@pytest.mark.parametrize("stored", ["int8", "float"])
def test_auto_keeps_to_the_precision_of_an_existing_index(stored: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from qdrant_client import QdrantClient

    from hopgraph.index.server import ServerBackend

    monkeypatch.delenv("HOPGRAPH_DOC_PRECISION", raising=False)
    index = tmp_path / "idx"
    with EdgeBackend(index, embedder="minilm", doc_precision=stored) as backend:
        backend.upsert([_chunk("a", "Pump P-7 needs new seals.")])
    with EdgeBackend(index) as backend:  # no setting: the index's precision, whatever auto would choose
        assert backend.embedder.doc_precision == stored
        backend.upsert([_chunk("b", "Valve V-2 leaks.")])
    with EdgeBackend(index, embedder="minilm", doc_precision="auto") as backend:
        assert backend.embedder.doc_precision == stored and backend.count() == 2
    with EdgeBackend(tmp_path / "new") as backend:
        assert backend.embedder.doc_precision == embed.resolve_doc_precision("auto")  # a new index
    client = QdrantClient(":memory:")
    ServerBackend(client=client, embedder="minilm", doc_precision=stored).upsert([_chunk("a", "Pump P-7.")])
    assert ServerBackend(client=client, embedder="minilm").embedder.doc_precision == stored
