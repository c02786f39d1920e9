"""An in-memory backend for unit tests of the loop: keyword overlap scoring.

Not a search engine; it exists so the graph can be exercised without an index.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from hopgraph.index.backend import Chunk, Document, Hit, Scope, SearchBackend, StoredDocument
from hopgraph.index.common import is_whole
from hopgraph.index.fusion import check_fusion

_WORD = re.compile(r"\w+", re.UNICODE)


def _terms(text: str) -> list[str]:
    return [t.lower() for t in _WORD.findall(text)]


class MemoryBackend(SearchBackend):
    def __init__(self) -> None:
        self._chunks: dict[str, Chunk] = {}
        # Each chunk's distinct terms, sorted, made once at upsert instead of on every query.
        self._terms: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()
        # Tests install hooks here to inject latency or failures per query.
        self.before_query: Callable[[str, str], None] | None = None

    def _visible(self, chunk: Chunk, scope: Scope) -> bool:
        if chunk.container not in scope.containers:
            return False
        return all(t in chunk.tags for t in scope.tags)

    def _score(self, query: str, scope: Scope, limit: int, kind: str) -> list[Hit]:
        if self.before_query is not None:
            self.before_query(kind, query)
        q_terms = set(_terms(query))
        with self._lock:
            chunks = [(c, self._terms[c.chunk_id]) for c in self._chunks.values() if self._visible(c, scope)]
        n_docs = max(len(chunks), 1)
        df: dict[str, int] = {}
        matched: list[tuple[Chunk, list[str]]] = []
        for c, words in chunks:
            shared = [t for t in words if t in q_terms]
            if shared:
                matched.append((c, shared))
                for t in shared:
                    df[t] = df.get(t, 0) + 1
        # fsum over sorted terms: the same score in every process, whatever the hash seed. Every matched
        # chunk shares a term, so every score is above zero.
        hits = [Hit(chunk=c, score=math.fsum(math.log(1 + n_docs / df[t]) for t in shared)) for c, shared in matched]
        hits.sort(key=lambda h: (-h.score, h.chunk.chunk_id))
        return hits[:limit]

    def search(self, query: str, scope: Scope, limit: int, *, fusion: str | None = None) -> list[Hit]:
        # One keyword score, no lists to fuse: every fusion ranks alike here.
        if fusion is not None:
            check_fusion(fusion)
        return self._score(query, scope, limit, "search")

    def text_search(self, query: str, scope: Scope, limit: int) -> list[Hit]:
        return self._score(query, scope, limit, "text_search")

    def dense_search(self, query: str, scope: Scope, limit: int) -> list[Hit]:
        return self._score(query, scope, limit, "dense_search")

    def read(self, doc_id: str, scope: Scope) -> Document | None:
        if self.before_query is not None:
            self.before_query("read", doc_id)
        with self._lock:
            chunks = sorted(
                (c for c in self._chunks.values() if c.doc_id == doc_id and self._visible(c, scope)),
                key=lambda c: c.index,
            )
        if not chunks:
            return None
        return Document(doc_id=doc_id, title=chunks[0].title, container=chunks[0].container, chunks=tuple(chunks))

    def upsert(self, chunks: Sequence[Chunk]) -> None:
        with self._lock:
            for c in chunks:
                self._chunks[c.chunk_id] = c
                self._terms[c.chunk_id] = tuple(sorted(set(_terms(c.title + " " + c.text))))

    def delete_document(self, doc_id: str, container: str | None = None) -> int:
        with self._lock:
            doomed = [
                k for k, c in self._chunks.items()
                if c.doc_id == doc_id and (container is None or c.container == container)
            ]
            for k in doomed:
                del self._chunks[k]
                del self._terms[k]
        return len(doomed)

    def document_hash(self, doc_id: str, container: str) -> str | None:
        with self._lock:
            for c in self._chunks.values():
                if c.doc_id == doc_id and c.container == container:
                    return c.content_hash
        return None

    def document_record(self, doc_id: str, container: str) -> StoredDocument | None:
        with self._lock:
            chunks = [c for c in self._chunks.values() if c.doc_id == doc_id and c.container == container]
        if not chunks:
            return None
        first = min(chunks, key=lambda c: c.index)
        return StoredDocument(doc_id=doc_id, container=container, content_hash=first.content_hash,
                              source=first.source, origin=first.origin, tags=first.tags, complete=is_whole(chunks),
                              kind=first.kind)

    def update_document(self, doc_id: str, container: str, fields: dict[str, Any]) -> int:
        values: dict[str, Any] = {k: tuple(v) if k == "tags" else v for k, v in fields.items()}
        with self._lock:
            keys = [k for k, c in self._chunks.items() if c.doc_id == doc_id and c.container == container]
            for k in keys:
                self._chunks[k] = replace(self._chunks[k], **values)
        return len(keys)

    def document_sources(self, container: str) -> dict[str, str]:
        with self._lock:
            return {c.doc_id: c.origin or c.source for c in self._chunks.values() if c.container == container}

    def count(self) -> int:
        return len(self._chunks)

    def container_documents(self) -> dict[str, int]:
        with self._lock:
            docs = {(c.container, c.doc_id) for c in self._chunks.values()}
        return dict(Counter(container for container, _ in docs))

    def add_text(
        self, doc_id: str, title: str, text: str, container: str = "default", tags: Sequence[str] = ()
    ) -> None:
        """Convenience for tests: one document as one chunk."""
        from hopgraph.index.backend import make_chunk_id

        self.upsert([
            Chunk(
                chunk_id=make_chunk_id(container, doc_id, 0), doc_id=doc_id, index=0, title=title,
                text=text, container=container, tags=tuple(tags), source=f"mem://{doc_id}",
            )
        ])
