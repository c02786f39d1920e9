"""Opens the right backend once per process and hands the same instance to every caller.

Writers (ingest, the demo) may create an index; readers (ask, search, the graph) never do:
a missing index, an empty one, or containers that hold nothing are errors that say what to do.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import time
import weakref
from collections.abc import Sequence

from hopgraph.index.backend import BackendError, IndexNotFoundError, NothingToSearchError, Scope, SearchBackend
from hopgraph.index.embed import Embedder, embedder_spec, resolve_doc_precision

_cache: dict[tuple[str, str], SearchBackend] = {}
_lock = threading.Lock()
# Empty containers already warned about, per open backend: one warning, not one per search round.
_warned: set[tuple[int, str]] = set()
# A run checks its scope every turn, and counting documents per container grows with the index (about 7 ms at
# 100,000 chunks on the embedded backend), so a container seen holding documents is taken to hold them for this
# long. One seen empty is counted again at the next check: documents written meanwhile are found at once.
HELD_FOR_S = 30.0
_held: weakref.WeakKeyDictionary[SearchBackend, dict[str, float]] = weakref.WeakKeyDictionary()
_held_lock = threading.Lock()  # not _lock, which is held while an index opens
log = logging.getLogger("hopgraph")


def _key(index_dir: str | None, url: str | None) -> tuple[str, str]:
    if url:
        return ("url", url.rstrip("/"))
    if not index_dir:
        from hopgraph.config import default_index_dir

        index_dir = default_index_dir()
    return ("path", os.path.realpath(os.path.expanduser(index_dir)))


def ingest_hint(index_dir: str | None = None, url: str | None = None) -> str:
    """The command that fills the index at ``index_dir`` or ``url``, to quote in messages."""
    kind, where = _key(index_dir, url)
    if kind == "url":
        return f"hopgraph ingest FILES_OR_FOLDERS --url {where}"
    if where == _key(None, None)[1]:
        return "hopgraph ingest FILES_OR_FOLDERS (or hopgraph demo, for the sample corpus)"
    return f"hopgraph ingest FILES_OR_FOLDERS --index {where}"


def _where(index_dir: str | None, url: str | None) -> str:
    kind, where = _key(index_dir, url)
    return f"at {where}" if kind == "url" else where


def _embedded_index_exists(path: str) -> bool:
    return os.path.exists(os.path.join(path, "shard", "edge_config.json"))


def open_backend(
    index_dir: str | None = None, url: str | None = None, embedder: str | None = None, *, create: bool = True,
    doc_precision: str | None = None,
) -> SearchBackend:
    """A Qdrant server if ``url`` is given, else the embedded index in ``index_dir``; ``doc_precision`` is how the
    documents a writer adds are embedded (default HOPGRAPH_DOC_PRECISION).

    Cached per path or url: the graph's nodes and concurrent tool calls share one open
    shard (a directory can be open in only one process, and only once in it). Raises
    ``BackendError`` (or ``IndexLockedError``) with a message meant for the user; with
    ``create=False`` (reading) an index that does not exist raises ``IndexNotFoundError``.
    """
    key = _key(index_dir, url)
    with _lock:
        backend = _cache.get(key)
        if backend is not None:
            _check_doc_precision(backend, doc_precision, key[1])
            return backend
        if key[0] == "url":
            from hopgraph.index.server import ServerBackend

            try:
                backend = ServerBackend(url=key[1], embedder=embedder_spec(embedder), create=create,
                                        doc_precision=doc_precision)
            except IndexNotFoundError as exc:
                raise IndexNotFoundError(f"{exc}; fill it with: {ingest_hint(url=key[1])}") from None
        else:
            from hopgraph.index.edge import EdgeBackend

            if not create and not _embedded_index_exists(key[1]):
                raise IndexNotFoundError(f"no index at {key[1]}; fill it with: {ingest_hint(index_dir=key[1])}")

            # None: the embedder the index was built with (hopgraph.json), else HOPGRAPH_EMBEDDER / minilm.
            backend = EdgeBackend(key[1], embedder=embedder, doc_precision=doc_precision)
        _cache[key] = backend
        return backend


def _check_doc_precision(backend: SearchBackend, doc_precision: str | None, where: str) -> None:
    """An open backend embeds documents as it was opened to: asking for the other precision is an error, not a
    silent switch."""
    embedder = getattr(backend, "embedder", None)
    if doc_precision in (None, "auto") or not isinstance(embedder, Embedder) or embedder.name != "minilm":
        return
    wanted = resolve_doc_precision(doc_precision)
    if wanted != embedder.doc_precision:
        raise BackendError(f"{where} is already open in this process with documents embedded in "
                           f"{embedder.doc_precision}, not {wanted}: close it first")


def open_for_reading(
    scope: Scope | None = None, index_dir: str | None = None, url: str | None = None, embedder: str | None = None
) -> SearchBackend:
    """The backend a reader searches: never created here, and (given ``scope``) one with documents to find."""
    backend = open_backend(index_dir=index_dir, url=url, embedder=embedder, create=False)
    if scope is not None:
        check_scope(backend, scope, location=(index_dir, url))
    return backend


def check_scope(
    backend: SearchBackend,
    scope: Scope,
    location: tuple[str | None, str | None] | None = None,
    listed: Sequence[str] | None = None,
) -> None:
    """Raise ``NothingToSearchError`` when none of ``scope``'s containers holds a document.

    ``location`` (index_dir, url) is where the backend was opened from, for the message; None for a
    backend the caller built. The message names the containers that do hold documents (only those in
    ``listed``, when given: a caller limited to some containers learns nothing of the others). A scope
    of which only some containers are empty is searched, with one warning per container and process.

    Containers seen holding documents in the last ``HELD_FOR_S`` seconds are not counted again; one emptied
    within that window is searched (and finds nothing) instead of getting the message.
    """
    if _seen_holding(backend, scope.containers):
        return
    held = backend.container_documents()
    now = time.monotonic()
    with _held_lock:
        _held[backend] = {c: now for c, n in held.items() if n}
    if not held:
        if location is None:
            raise NothingToSearchError("the index holds no documents")
        raise NothingToSearchError(
            f"the index {_where(*location)} holds no documents; fill it with: {ingest_hint(*location)}"
        )
    empty = [c for c in scope.containers if not held.get(c)]
    if not empty:
        return
    shown = [c for c in sorted(held) if listed is None or c in listed]
    names = ", ".join(f"'{c}'" for c in empty)
    message = f"container {names} holds no documents" if len(empty) == 1 else f"containers {names} hold no documents"
    if shown:
        message += "; containers with documents: " + ", ".join(f"{c} ({held[c]})" for c in shown)
    if len(empty) == len(scope.containers):
        raise NothingToSearchError(message)
    new = [c for c in empty if (id(backend), c) not in _warned]
    if new:
        _warned.update((id(backend), c) for c in new)
        log.warning("%s", message)


def _seen_holding(backend: SearchBackend, containers: Sequence[str]) -> bool:
    now = time.monotonic()
    with _held_lock:
        seen = _held.get(backend) or {}
        return bool(containers) and all(c in seen and now - seen[c] < HELD_FOR_S for c in containers)


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
