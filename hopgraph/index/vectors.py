"""What both Qdrant backends do the same way above the engine: embed, then query or write vectors."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from hopgraph.index.backend import (
    BackendError,
    Chunk,
    Document,
    Hit,
    Scope,
    SearchBackend,
    StoredDocument,
    make_chunk_id,
    point_id,
)
from hopgraph.index.common import (
    READY,
    STATUS,
    assemble_document,
    bm25_document,
    bm25_query,
    clean_chunk,
    clean_text,
    embed_text,
    is_whole,
    parse_text_query,
    payload_chunk,
    payload_origin,
)
from hopgraph.index.embed import Embedder
from hopgraph.index.fusion import check_fusion, score_band, sort_hits


class VectorBackend(SearchBackend):
    """A backend that embeds text itself and hands vectors to an engine-specific layer."""

    embedder: Embedder
    score_band: float | None
    doc_precision: str = "float"
    """How the documents in the index were embedded, as its record says (``float`` where it says nothing)."""
    location: str = "the index"
    """The index as messages name it."""
    option_hint: str = "a new --index"
    """Where else documents embedded another way can go, for the message of ``check_document_precision``."""

    def expect_documents(self, n: int) -> None:
        self.embedder.expect_documents(n)

    def check_document_precision(self) -> None:
        mine = self.embedder.doc_precision
        if mine == self.doc_precision:
            return
        if self.count() == 0:
            # Nothing is embedded the other way (a new index, or one emptied): the index takes this precision.
            self._record_doc_precision(mine)
            self.doc_precision = mine
            return
        raise BackendError(
            f"{self.location} holds documents embedded in {self.doc_precision}; these would be embedded in "
            f"{mine}, and one index holds documents embedded one way. Use --doc-precision {self.doc_precision} "
            f"(HOPGRAPH_DOC_PRECISION={self.doc_precision}) or {self.option_hint}."
        )

    @abstractmethod
    def _record_doc_precision(self, precision: str) -> None:
        """Records ``precision`` as the one the index's documents are embedded in."""

    @abstractmethod
    def dense_vector_search(self, vec: np.ndarray, scope: Scope, limit: int) -> list[Hit]:
        ...

    @abstractmethod
    def hybrid_vector_search(
        self, vec: np.ndarray, sparse: Any, scope: Scope, limit: int, fusion: str | None = None
    ) -> list[Hit]:
        ...

    @abstractmethod
    def upsert_vectors(self, chunks: Sequence[Chunk], dense: np.ndarray, sparse: Sequence[Any]) -> None:
        ...

    @abstractmethod
    def sparse_vector_search(
        self, sparse: Any, scope: Scope, limit: int, extra: Sequence[Any] = (), must_not: Sequence[Any] = ()
    ) -> list[Hit]:
        ...

    @abstractmethod
    def _scroll(self, flt: Any, fields: Sequence[str] | None = None) -> list[Any]:
        """Every record matching an engine filter, with its whole payload or only ``fields`` of it."""

    @abstractmethod
    def _retrieve(self, point_ids: list[str]) -> list[Any]:
        """Records by point id, with payload."""

    @abstractmethod
    def _facet(self, key: str, flt: Any) -> dict[str, int]:
        """Points per value of a keyword field, among the points matching an engine filter."""

    # Conditions and filters: the same Qdrant concepts, spelt in each client library's own classes.

    @abstractmethod
    def _match(self, key: str, value: str | int) -> Any:
        """The payload field equals value."""

    @abstractmethod
    def _match_any(self, key: str, values: list[str]) -> Any:
        ...

    @abstractmethod
    def _phrase(self, key: str, phrase: str) -> Any:
        ...

    @abstractmethod
    def _has_text(self, key: str, term: str) -> Any:
        ...

    @abstractmethod
    def _where(self, must: Sequence[Any] = (), should: Sequence[Any] = (), must_not: Sequence[Any] = ()) -> Any:
        """A filter; empty parts are left out."""

    def _filter(self, scope: Scope, extra: Sequence[Any] = (), must_not: Sequence[Any] = ()) -> Any:
        """The caller's containers and tags, complete documents only, plus ``extra``."""
        must = [self._match_any("container", list(scope.containers)), self._match(STATUS, READY)]
        must += [self._match("tags", t) for t in scope.tags]
        return self._where(must=[*must, *extra], must_not=must_not)

    def _container_filter(self, container: str) -> Any:
        return self._where(must=[self._match("container", container)])

    def _doc_filter(self, container: str | None, doc_id: str, extra: Sequence[Any] = ()) -> Any:
        must = [self._match("doc_id", doc_id)]
        if container is not None:
            must.append(self._match("container", container))
        return self._where(must=[*must, *extra])

    def text_search(self, query: str, scope: Scope, limit: int) -> list[Hit]:
        parsed = parse_text_query(clean_text(query))
        # A phrase must occur in the chunk text or its title; an excluded term in neither.
        extra = [self._where(should=[self._phrase("text", p), self._phrase("title", p)]) for p in parsed.phrases]
        must_not = [self._has_text(key, term) for term in parsed.excluded for key in ("text", "title")]
        return self.sparse_vector_search(bm25_query(parsed.positive_text), scope, limit, extra, must_not)

    def read(self, doc_id: str, scope: Scope) -> Document | None:
        doc_id = clean_text(doc_id)
        flt = self._filter(scope, [self._match("doc_id", doc_id)])
        chunks = [payload_chunk(r.payload or {}) for r in self._scroll(flt)]
        return assemble_document(doc_id, chunks, scope.containers)

    def document_hash(self, doc_id: str, container: str) -> str | None:
        record = self.document_record(doc_id, container)
        if record is None or not record.complete:
            return None
        return record.content_hash or None

    def document_record(self, doc_id: str, container: str) -> StoredDocument | None:
        records = self._retrieve([point_id(make_chunk_id(container, clean_text(doc_id), 0))])
        payload = (records[0].payload or {}) if records else {}
        if not payload:
            return None
        source, origin = payload_origin(payload)
        return StoredDocument(doc_id=str(payload.get("doc_id", "")), container=str(payload.get("container", "")),
                              content_hash=str(payload.get("content_hash") or ""), source=source, origin=origin,
                              tags=tuple(payload.get("tags") or ()), complete=payload.get(STATUS) == READY,
                              kind=str(payload.get("kind") or ""), legacy="origin" not in payload)

    @abstractmethod
    def _set_payload(self, flt: Any, payload: dict[str, Any]) -> None:
        """Sets these payload fields on every point matching an engine filter (vectors untouched)."""

    def update_document(self, doc_id: str, container: str, fields: dict[str, Any]) -> int:
        doc_id = clean_text(doc_id)
        flt = self._doc_filter(container, doc_id)
        n = len(self._scroll(flt, fields=("index",)))
        if n:
            cleaned = {k: [clean_text(t) for t in v] if k == "tags" else clean_text(str(v)) for k, v in fields.items()}
            self._set_payload(flt, cleaned)
        return n

    def container_documents(self) -> dict[str, int]:
        # Every document has exactly one chunk 0: counting those counts documents.
        return self._facet("container", self._where([self._match("index", 0)]))

    def document_sources(self, container: str) -> dict[str, str]:
        sources: dict[str, str] = {}
        # A few short fields of every chunk, not its text: a container may hold millions of chunks.
        for record in self._scroll(self._container_filter(container), fields=("doc_id", "source", "origin", "kind")):
            payload = record.payload or {}
            source, origin = payload_origin(payload)
            sources.setdefault(str(payload.get("doc_id", "")), origin or source)
        return sources

    def _trim(self, hits: list[Hit], limit: int) -> list[Hit]:
        return score_band(hits[:limit], self.score_band)

    def _payload_hits(self, points: Sequence[Any], limit: int) -> list[Hit]:
        """An engine's points (payload and score) as hits: best first, ties by chunk id, trimmed to ``limit``."""
        return self._trim(sort_hits([Hit(chunk=payload_chunk(p.payload or {}), score=float(p.score)) for p in points]),
                          limit)

    def search(self, query: str, scope: Scope, limit: int, *, fusion: str | None = None) -> list[Hit]:
        if fusion is not None:
            check_fusion(fusion)
        query = clean_text(query)
        if not query.strip():
            return []
        return self.hybrid_vector_search(self.embedder.embed_query(query), bm25_query(query), scope, limit, fusion)

    def dense_search(self, query: str, scope: Scope, limit: int) -> list[Hit]:
        query = clean_text(query)
        if not query.strip():
            return []
        return self.dense_vector_search(self.embedder.embed_query(query), scope, limit)

    def upsert(self, chunks: Sequence[Chunk]) -> None:
        chunks = [clean_chunk(c) for c in chunks]
        if not chunks:
            return
        self.check_document_precision()
        texts = [embed_text(c) for c in chunks]
        dense = self.embedder.embed_documents(texts)
        self.upsert_vectors(chunks, dense, [bm25_document(t) for t in texts])


def group_documents(chunks: Sequence[Chunk]) -> tuple[dict[tuple[str, str], list[Chunk]], set[tuple[str, str]]]:
    """Chunks by (container, doc_id), and the keys whose chunks form a whole document in this batch."""
    groups: dict[tuple[str, str], list[Chunk]] = {}
    for chunk in chunks:
        groups.setdefault((chunk.container, chunk.doc_id), []).append(chunk)
    return groups, {key for key, cs in groups.items() if is_whole(cs)}
