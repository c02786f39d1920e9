"""Resolve the objects a run needs (backend, chat model) from the Context."""

from __future__ import annotations

from hopgraph.config import Context
from hopgraph.index.backend import Scope, SearchBackend


def get_backend(context: Context) -> SearchBackend:
    if context.backend is not None:
        return context.backend  # type: ignore[no-any-return]
    from hopgraph.index.factory import open_backend

    return open_backend(index_dir=None if context.qdrant_url else context.index_dir(), url=context.qdrant_url)


def get_scope(context: Context) -> Scope:
    return Scope(containers=tuple(context.containers), tags=tuple(context.tags))
