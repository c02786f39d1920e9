"""Document embedding in worker processes gives the vectors one process gives, and survives a dead worker."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import numpy as np
import pytest

from hopgraph.index.embed import MiniLMEmbedder
from hopgraph.index.embed_base import EmbedderError
from hopgraph.index.embed_pool import embed_workers

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
    assert embed_workers() == 1
    monkeypatch.setenv("HOPGRAPH_EMBED_WORKERS", "auto")
    assert 1 <= embed_workers() <= 4
    monkeypatch.setenv("HOPGRAPH_EMBED_WORKERS", "3")
    assert embed_workers() == 3
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv("HOPGRAPH_EMBED_WORKERS", bad)
        with pytest.raises(EmbedderError, match="HOPGRAPH_EMBED_WORKERS must be a positive integer or auto"):
            embed_workers()
