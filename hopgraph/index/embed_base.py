"""What every dense embedder is: the :class:`Embedder` interface (batches, unit rows, a cache of recent
queries), its error, and the threads a local model may take. The embedders themselves are in
:mod:`hopgraph.index.embed` (MiniLM, and the factory by name) and :mod:`hopgraph.index.embed_optional`."""

from __future__ import annotations

import os
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from hopgraph.index.backend import BackendError
from hopgraph.index.common import clean_text

DEFAULT_BATCH = 64
QUERY_CACHE = 1024


class EmbedderError(BackendError):
    """The embedder could not be set up or could not embed."""


def embed_threads() -> int:
    """Intra-op threads for local models: HOPGRAPH_EMBED_THREADS, default 1.

    Kept small so embedding never starves the rest of the process (graph, server).
    """
    raw = os.environ.get("HOPGRAPH_EMBED_THREADS", "").strip()
    if not raw:
        return 1
    try:
        n = int(raw)
    except ValueError as exc:
        raise EmbedderError(f"HOPGRAPH_EMBED_THREADS must be a positive integer, got {raw!r}") from exc
    if n < 1:
        raise EmbedderError(f"HOPGRAPH_EMBED_THREADS must be a positive integer, got {raw!r}")
    return n


def normalize_rows(mat: np.ndarray) -> np.ndarray:
    mat = np.asarray(mat, dtype=np.float32)
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (mat / norms).astype(np.float32, copy=False)


class Embedder(ABC):
    """Turns text into normalized dense vectors."""

    name: str = "embedder"
    batch_size: int = DEFAULT_BATCH
    doc_precision: str = "float"
    """How documents are embedded: ``float`` (as the model computes) or ``int8`` (MiniLM's int8 copy)."""

    @property
    @abstractmethod
    def dim(self) -> int:
        """Vector size."""

    @abstractmethod
    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        """One batch, rows need not be normalized."""

    def expect_documents(self, n: int) -> None:  # noqa: B027 - optional hook
        """About ``n`` documents are coming (an ingest's size): an embedder may start helpers that pay off only
        for a large one."""

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embeds in batches; returns an (n, dim) float32 array of unit rows."""
        texts = [clean_text(t) for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [self._embed_batch(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        return normalize_rows(np.concatenate(parts, axis=0))

    def embed_query(self, text: str) -> np.ndarray:
        """One normalized vector; recent queries are cached (the loop often repeats them)."""
        cache = self.__dict__.setdefault("_query_cache", OrderedDict())
        lock = self.__dict__.setdefault("_query_lock", threading.Lock())
        with lock:
            hit = cache.get(text)
            if hit is not None:
                cache.move_to_end(text)
                return hit  # type: ignore[no-any-return]
        vec = self._embed_query_uncached(text)
        vec.setflags(write=False)
        with lock:
            cache[text] = vec
            while len(cache) > QUERY_CACHE:
                cache.popitem(last=False)
        return vec

    def _embed_query_uncached(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]
