"""Index side: backends, embedders, ingestion."""

from hopgraph.index.backend import (
    BackendError,
    Chunk,
    Document,
    Hit,
    IndexLockedError,
    Scope,
    ScopeError,
    SearchBackend,
    make_chunk_id,
    point_id,
)

__all__ = [
    "BackendError",
    "Chunk",
    "Document",
    "Hit",
    "IndexLockedError",
    "Scope",
    "ScopeError",
    "SearchBackend",
    "make_chunk_id",
    "point_id",
]
