"""Document embedding spread over worker processes: one model and one onnxruntime thread in each.

A large ingest is all embedding (the pipeline around it costs about 2 %), and one onnxruntime session uses one
core well but two poorly when anything else runs (its threads wait for each other at every operator). Separate
processes never wait for each other, so ``HOPGRAPH_EMBED_WORKERS=2`` embeds each large batch in two halves at
once (bench/ingest_cores.py measures the ways on an idle and a busy machine). Queries stay in the calling
process: they are one text each.

Unset, the setting means: one process, and one per core (at most 4) once an ingest says it brings at least
``LARGE_INGEST`` documents, which pays back the workers' start-up many times over; a smaller ingest and a
server embedding queries never start them.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import numpy as np

from hopgraph.index.embed_base import Embedder, EmbedderError

log = logging.getLogger(__name__)

# Below this many texts a batch stays in the calling process: sending it costs more than the second core gains.
MIN_POOLED = 16
# An ingest of at least this many documents starts one worker per core unless HOPGRAPH_EMBED_WORKERS says
# otherwise: two workers start in about half a second and then take about 0.55 of one process's time
# (docs/benchmarks-index.md, "Both cores"); below it the default stays one process, so no ingest is slower.
LARGE_INGEST = 2000

# The worker's own embedder, made once by the pool's initializer.
_worker_embedder: Embedder | None = None


def per_core() -> int:
    """One worker per core, at most 4."""
    return max(1, min(4, os.cpu_count() or 1))


def embed_workers() -> int | None:
    """Processes that embed documents: HOPGRAPH_EMBED_WORKERS, a positive integer or ``auto`` (one per core,
    at most 4); None when unset (one process, and one per core for a large ingest)."""
    raw = os.environ.get("HOPGRAPH_EMBED_WORKERS", "").strip()
    if not raw:
        return None
    if raw == "auto":
        return per_core()
    try:
        n = int(raw)
    except ValueError as exc:
        raise EmbedderError(f"HOPGRAPH_EMBED_WORKERS must be a positive integer or auto, got {raw!r}") from exc
    if n < 1:
        raise EmbedderError(f"HOPGRAPH_EMBED_WORKERS must be a positive integer or auto, got {raw!r}")
    return n


def _start_worker(make: Callable[..., Embedder], options: dict[str, Any]) -> None:
    global _worker_embedder
    _worker_embedder = make(**options)


def _embed_in_worker(texts: list[str]) -> np.ndarray:
    assert _worker_embedder is not None, "the pool's initializer makes it"
    return np.asarray(_worker_embedder.embed_documents(texts), dtype=np.float32)


class EmbedPool:
    """Worker processes, each with an embedder ``make(**options)`` (a class such as
    :class:`~hopgraph.index.embed.MiniLMEmbedder` and its keyword arguments; one thread). Started on first use."""

    def __init__(self, workers: int, make: Callable[..., Embedder], options: dict[str, Any]) -> None:
        self.workers = workers
        self.make = make
        self.options = {**options, "threads": 1}
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                # spawn: a fork would copy the caller's onnxruntime threads and engine handles.
                self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                     initializer=_start_worker, initargs=(self.make, self.options))
            return self._executor

    def embed(self, texts: Sequence[str], size: int) -> np.ndarray:
        """Unit rows for ``texts`` in their order, the same as one process gives: the texts are sorted by length
        and cut into the batches of ``size`` one process would make, and the batches dealt out in turn (padding
        a batch to its longest text changes float vectors in the last digits)."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        batches = [order[start : start + size] for start in range(0, len(order), size)]
        shares = [[i for batch in batches[k :: self.workers] for i in batch] for k in range(self.workers)]
        try:
            futures = [self._pool().submit(_embed_in_worker, [texts[i] for i in share]) for share in shares if share]
            parts = [f.result() for f in futures]
        except BrokenProcessPool as exc:
            self.close()
            raise EmbedderError(f"an embedding worker process died: {exc}") from exc
        out = np.empty((len(texts), parts[0].shape[1]), dtype=np.float32)
        for share, part in zip((s for s in shares if s), parts, strict=True):
            out[share] = part
        return out

    def close(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=True, cancel_futures=True)
                self._executor = None
