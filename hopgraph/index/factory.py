"""Opens the right backend once per process and hands the same instance to every caller."""

from __future__ import annotations

import atexit
import contextlib
import os
import threading

from hopgraph.index.backend import SearchBackend
from hopgraph.index.embed import embedder_spec

_cache: dict[tuple[str, str], SearchBackend] = {}
_lock = threading.Lock()


def _key(index_dir: str | None, url: str | None) -> tuple[str, str]:
    if url:
        return ("url", url.rstrip("/"))
    if not index_dir:
        from hopgraph.config import default_index_dir

        index_dir = default_index_dir()
    return ("path", os.path.realpath(os.path.expanduser(index_dir)))


def open_backend(
    index_dir: str | None = None, url: str | None = None, embedder: str | None = None
) -> SearchBackend:
    """A Qdrant server if ``url`` is given, else the embedded index in ``index_dir``.

    Cached per path or url: the graph's nodes and concurrent tool calls share one open
    shard (a directory can be open in only one process, and only once in it). Raises
    ``BackendError`` (or ``IndexLockedError``) with a message meant for the user.
    """
    key = _key(index_dir, url)
    with _lock:
        backend = _cache.get(key)
        if backend is not None:
            return backend
        if key[0] == "url":
            from hopgraph.index.server import ServerBackend

            backend = ServerBackend(url=key[1], embedder=embedder_spec(embedder))
        else:
            from hopgraph.index.edge import EdgeBackend

            # None: the embedder the index was built with (hopgraph.json), else HOPGRAPH_EMBEDDER / minilm.
            backend = EdgeBackend(key[1], embedder=embedder)
        _cache[key] = backend
        return backend


def close_backend(index_dir: str | None = None, url: str | None = None) -> None:
    """Closes and forgets one cached backend (no-op if it is not open)."""
    key = _key(index_dir, url)
    with _lock:
        backend = _cache.pop(key, None)
    if backend is not None:
        backend.close()


def close_all() -> None:
    with _lock:
        backends = list(_cache.values())
        _cache.clear()
    for b in backends:
        with contextlib.suppress(Exception):  # best effort at exit
            b.close()


atexit.register(close_all)
