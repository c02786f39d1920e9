"""Resolve the objects a run needs (backend, chat model) from the Context."""

from __future__ import annotations

from hopgraph.access import run_containers
from hopgraph.config import Context
from hopgraph.index.backend import Scope, SearchBackend


def get_backend(context: Context) -> SearchBackend:
    if context.backend is not None:
        return context.backend  # type: ignore[no-any-return]
    from hopgraph.index.factory import open_backend

    return open_backend(index_dir=None if context.qdrant_url else context.index_dir(), url=context.qdrant_url)


def get_scope(context: Context) -> Scope:
    # Local callers are trusted with every container; the served graph resolved its identity's before this.
    return Scope(containers=tuple(run_containers(context.containers, None)), tags=tuple(context.tags))
