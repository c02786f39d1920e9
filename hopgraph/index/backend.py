"""The search backend interface every index implementation satisfies.

The loop's tools only ever talk to a ``SearchBackend``; the embedded qdrant-edge
shard, a Qdrant server and the in-memory test double all sit behind it.
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

# Fixed namespace so that point ids are stable across processes and machines.
POINT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "hopgraph:chunk")


def point_id(chunk_id: str) -> str:
    """Qdrant point id for a chunk: uuid5 of the chunk id."""
    return str(uuid.uuid5(POINT_NAMESPACE, chunk_id))


def make_chunk_id(container: str, doc_id: str, index: int) -> str:
    """Chunk ids carry the container so equal doc ids in two containers never collide."""
    return f"{container}/{doc_id}#{index}"


class BackendError(Exception):
    """The index could not answer (unreachable server, broken shard, timeout)."""


class IndexLockedError(BackendError):
    """Another process already has the embedded index open."""


class NothingToSearchError(BackendError):
    """The index, or every container a run may see, holds no documents."""


class IndexNotFoundError(NothingToSearchError):
    """Reading was asked of an index that does not exist (reading never creates one)."""


class ScopeError(ValueError):
    """A query was attempted without a usable container filter."""


@dataclass(frozen=True)
class Scope:
    """What the caller may see. Comes from the Context, never from the model."""

    containers: tuple[str, ...]
    tags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.containers, str) or not self.containers:
            raise ScopeError("a container filter is required for every query")
        if any(not isinstance(c, str) or not c.strip() for c in self.containers):
            raise ScopeError("container names must be non-empty strings")
        if isinstance(self.tags, str) or any(not isinstance(t, str) or not t for t in self.tags):
            raise ScopeError("tags must be non-empty strings")


@dataclass(frozen=True)
class Chunk:
    """One stored piece of a document; the payload of one Qdrant point."""

    chunk_id: str
    doc_id: str
    index: int
    title: str
    text: str
    container: str
    page: int | None = None
    tags: tuple[str, ...] = ()
    context: str = ""
    source: str = ""
    kind: str = "txt"
    content_hash: str = ""
    # Number of chunks in the whole document, so a reader can tell a complete one.
    chunk_count: int = 1
    # Where ingest found the document on its machine (hopgraph.index.sources); never shown to readers.
    origin: str = ""


@dataclass(frozen=True)
class StoredDocument:
    """What ingest reads of a stored document before it writes one under the same id (from its first chunk)."""

    doc_id: str
    container: str
    content_hash: str
    source: str
    origin: str
    tags: tuple[str, ...]
    complete: bool
    kind: str = ""
    legacy: bool = False
    """Written before payloads carried an origin (see hopgraph.index.sources.legacy_fields)."""


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float

    @property
    def doc_id(self) -> str:
        return self.chunk.doc_id


@dataclass(frozen=True)
class Document:
    doc_id: str
    title: str
    container: str
    chunks: tuple[Chunk, ...] = field(default_factory=tuple)

    @property
    def text(self) -> str:
        return "\n".join(c.text for c in self.chunks)

    @property
    def source(self) -> str:
        return self.chunks[0].source if self.chunks else ""

    @property
    def kind(self) -> str:
        return self.chunks[0].kind if self.chunks else ""


class SearchBackend(ABC):
    """Hybrid search over chunks. Every query method takes the caller's ``Scope``."""

    @abstractmethod
    def search(self, query: str, scope: Scope, limit: int, *, fusion: str | None = None) -> list[Hit]:
        """Hybrid: dense + BM25 lists fused. Chunk hits, best first.

        ``fusion`` names how (``hopgraph.index.fusion.FUSIONS``); ``None`` is the backend's own setting
        (distribution-based score fusion unless it was opened with another)."""

    @abstractmethod
    def text_search(self, query: str, scope: Scope, limit: int) -> list[Hit]:
        """BM25 only; honours "exact phrase" and -term."""

    @abstractmethod
    def dense_search(self, query: str, scope: Scope, limit: int) -> list[Hit]:
        """Dense vectors only."""

    @abstractmethod
    def read(self, doc_id: str, scope: Scope) -> Document | None:
        """The whole document, chunks in order, or None if not visible in scope."""

    @abstractmethod
    def upsert(self, chunks: Sequence[Chunk]) -> None:
        """Insert or replace chunks (embeds them)."""

    @abstractmethod
    def delete_document(self, doc_id: str, container: str | None = None) -> int:
        """Remove every chunk of a document; returns how many were removed."""

    @abstractmethod
    def document_hash(self, doc_id: str, container: str) -> str | None:
        """The stored content hash of a complete document, or None."""

    @abstractmethod
    def document_record(self, doc_id: str, container: str) -> StoredDocument | None:
        """What is stored of a document (complete or not), or None when none of it is."""

    def update_document(self, doc_id: str, container: str, fields: dict[str, Any]) -> int:
        """Sets payload fields (``tags``, ``source``, ``origin``, ``content_hash``) on every chunk of a stored
        document, keeping its vectors where the backend can; returns how many chunks changed.

        This fallback writes the document again (embedding it); the Qdrant backends set the fields in place."""
        document = self.read(doc_id, Scope((container,)))
        if document is None:
            return 0
        values: dict[str, Any] = {k: tuple(v) if k == "tags" else v for k, v in fields.items()}
        self.upsert([replace(c, **values) for c in document.chunks])
        return len(document.chunks)

    @abstractmethod
    def document_sources(self, container: str) -> dict[str, str]:
        """Every document of a container: doc_id -> where it was ingested from (its origin, else its source)."""

    @abstractmethod
    def count(self) -> int:
        """Number of stored chunks."""

    @abstractmethod
    def container_documents(self) -> dict[str, int]:
        """Documents per container, for every container that holds any."""

    def expect_documents(self, n: int) -> None:  # noqa: B027 - optional hook
        """About ``n`` documents are about to be added (a hint for the embedder; see ``Embedder.expect_documents``)."""

    def check_document_precision(self) -> None:  # noqa: B027 - optional hook
        """Raises ``BackendError`` when documents added now would be embedded otherwise than those already in the
        index (a backend that embeds nothing has nothing to check)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release files or connections."""
