"""Document embedding in worker processes gives the vectors one process gives, and survives a dead worker."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from hopgraph.index import embed
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import MiniLMEmbedder
from hopgraph.index.embed_base import EmbedderError
from hopgraph.index.embed_pool import embed_workers, per_core
from hopgraph.index.ingest import ingest_beir

# Lengths from a few words to past the model's 256 word pieces, so batches pad differently.
TEXTS = [f"Report {i}: " + " ".join(["the pump on line", str(i), "was serviced and its seals replaced."] * (1 + i % 9))
         for i in range(41)]


@pytest.fixture(scope="module")
def pooled() -> Iterator[MiniLMEmbedder]:
    embedder = MiniLMEmbedder(doc_precision="int8", workers=2)
    yield embedder
    embedder.close()


@pytest.mark.parametrize("precision", ["int8", "float"])
def test_two_workers_give_the_vectors_of_one_process(precision: str) -> None:
    one = MiniLMEmbedder(doc_precision=precision, workers=1)
    two = MiniLMEmbedder(doc_precision=precision, workers=2)
    try:
        # int8 scales each batch by its own values: equal vectors mean the same batches were made.
        assert np.abs(one.embed_documents(TEXTS) - two.embed_documents(TEXTS)).max() < 1e-6
    finally:
        two.close()


def test_a_dead_worker_costs_speed_not_vectors(pooled: MiniLMEmbedder, caplog: pytest.LogCaptureFixture) -> None:
    expected = MiniLMEmbedder(doc_precision="int8", workers=1).embed_documents(TEXTS)
    assert pooled._pool is not None
    pooled.embed_documents(TEXTS)  # the workers are running
    executor = pooled._pool._executor
    assert executor is not None
    for process in list(executor._processes.values()):
        process.kill()
        process.join()
    with caplog.at_level(logging.WARNING, logger="hopgraph.index.embed"):
        got = pooled.embed_documents(TEXTS)
    assert np.abs(got - expected).max() < 1e-6
    assert "embedding in this process from now on" in caplog.text and pooled._pool is None


def test_the_workers_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOPGRAPH_EMBED_WORKERS", raising=False)
    assert embed_workers() is None
    monkeypatch.setenv("HOPGRAPH_EMBED_WORKERS", "auto")
    assert embed_workers() == per_core() and 1 <= per_core() <= 4
    monkeypatch.setenv("HOPGRAPH_EMBED_WORKERS", "3")
    assert embed_workers() == 3
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv("HOPGRAPH_EMBED_WORKERS", bad)
        with pytest.raises(EmbedderError, match="HOPGRAPH_EMBED_WORKERS must be a positive integer or auto"):
            embed_workers()


def _corpus(folder: Path, n: int) -> Path:
    folder.mkdir()
    path = folder / "corpus.jsonl"
    path.write_text("".join(json.dumps({"_id": f"d{i}", "title": "", "text": text}) + "\n"
                            for i, text in enumerate(TEXTS[:n])))
    return path


@pytest.mark.parametrize(("size", "setting", "pooled"), [(20, None, True), (19, None, False), (20, "1", False)])
def test_a_large_ingest_uses_the_cores_unless_told(size: int, setting: str | None, pooled: bool, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Unset, HOPGRAPH_EMBED_WORKERS means one process for a small ingest and one per core from LARGE_INGEST
    documents on (made 20 here, so the test stays quick); set, it is kept. The vectors do not depend on it
    (test_two_workers_give_the_vectors_of_one_process)."""
    if setting is None:
        monkeypatch.delenv("HOPGRAPH_EMBED_WORKERS", raising=False)
    else:
        monkeypatch.setenv("HOPGRAPH_EMBED_WORKERS", setting)
    monkeypatch.setattr(embed, "LARGE_INGEST", 20)
    monkeypatch.setattr(embed, "per_core", lambda: 2)  # a one-core runner would make one worker: no pool at all
    embedder = MiniLMEmbedder(doc_precision="int8")
    backend = EdgeBackend(tmp_path / "index", embedder=embedder)
    try:
        report = ingest_beir(backend, _corpus(tmp_path / "corpus", size), progress=False)
        assert report.docs == size and backend.count() == size
        started = embedder._pool is not None and embedder._pool._executor is not None
        assert started is pooled
    finally:
        backend.close()
        embedder.close()
