"""What both Qdrant backends do the same way above the engine: embed, then query or write vectors."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from hopgraph.index.backend import Chunk, Hit, Scope, SearchBackend
from hopgraph.index.common import bm25_document, bm25_query, clean_chunk, clean_text, embed_text, is_whole
from hopgraph.index.embed import Embedder
from hopgraph.index.fusion import score_band


class VectorBackend(SearchBackend):
    """A backend that embeds text itself and hands vectors to an engine-specific layer."""

    embedder: Embedder
    score_band: float | None

    @abstractmethod
    def dense_vector_search(self, vec: np.ndarray, scope: Scope, limit: int) -> list[Hit]:
        ...

    @abstractmethod
    def hybrid_vector_search(self, vec: np.ndarray, sparse: Any, scope: Scope, limit: int) -> list[Hit]:
        ...

    @abstractmethod
    def upsert_vectors(self, chunks: Sequence[Chunk], dense: np.ndarray, sparse: Sequence[Any]) -> None:
        ...

    @abstractmethod
    def _scroll(self, flt: Any) -> list[Any]:
        """Every record matching an engine filter, with payload."""

    @abstractmethod
    def _container_filter(self, container: str) -> Any:
        ...

    def document_sources(self, container: str) -> dict[str, str]:
        sources: dict[str, str] = {}
        for record in self._scroll(self._container_filter(container)):
            payload = record.payload or {}
            sources.setdefault(str(payload.get("doc_id", "")), str(payload.get("source") or ""))
        return sources

    def _trim(self, hits: list[Hit], limit: int) -> list[Hit]:
        return score_band(hits[:limit], self.score_band)

    def search(self, query: str, scope: Scope, limit: int) -> list[Hit]:
        query = clean_text(query)
        if not query.strip():
            return []
        return self.hybrid_vector_search(self.embedder.embed_query(query), bm25_query(query), scope, limit)

    def dense_search(self, query: str, scope: Scope, limit: int) -> list[Hit]:
        query = clean_text(query)
        if not query.strip():
            return []
        return self.dense_vector_search(self.embedder.embed_query(query), scope, limit)

    def upsert(self, chunks: Sequence[Chunk]) -> None:
        chunks = [clean_chunk(c) for c in chunks]
        if not chunks:
            return
        texts = [embed_text(c) for c in chunks]
        dense = self.embedder.embed_documents(texts)
        self.upsert_vectors(chunks, dense, [bm25_document(t) for t in texts])


def group_documents(chunks: Sequence[Chunk]) -> tuple[dict[tuple[str, str], list[Chunk]], set[tuple[str, str]]]:
    """Chunks by (container, doc_id), and the keys whose chunks form a whole document in this batch."""
    groups: dict[tuple[str, str], list[Chunk]] = {}
    for chunk in chunks:
        groups.setdefault((chunk.container, chunk.doc_id), []).append(chunk)
    return groups, {key for key, cs in groups.items() if is_whole(cs)}
