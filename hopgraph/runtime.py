"""Resolve the objects a run needs (backend, chat model) from the Context."""

from __future__ import annotations

from hopgraph.access import run_containers
from hopgraph.config import Context
from hopgraph.index.backend import Scope, SearchBackend


def get_backend(context: Context, scope: Scope | None = None) -> SearchBackend:
    """The backend a run reads. Reading never creates an index: a missing one raises IndexNotFoundError.

    Given the run's ``scope``, an index or containers with no documents raise NothingToSearchError,
    naming the containers that do hold documents.
    """
    from hopgraph.index.factory import check_scope, open_backend

    if context.backend is not None:
        backend: SearchBackend = context.backend
        location = None
    else:
        index_dir = None if context.qdrant_url else context.index_dir()
        backend = open_backend(index_dir=index_dir, url=context.qdrant_url, create=False)
        location = (index_dir, context.qdrant_url)
    if scope is not None:
        from hopgraph.serving.settings import access_control_configured

        # Behind access control a caller learns nothing of containers outside its run's scope.
        check_scope(backend, scope, location, listed=scope.containers if access_control_configured() else None)
    return backend


def get_scope(context: Context) -> Scope:
    # Local callers are trusted with every container; the served graph resolved its identity's before this.
    return Scope(containers=tuple(run_containers(context.containers, None)), tags=tuple(context.tags))
