"""An embedded index's directory, apart from the shard itself: the lock that keeps it to one process, and
``hopgraph.json``, the record of what built the index (schema, embedder, vector size, HNSW graph settings, the
precision its documents were embedded in)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
from pathlib import Path
from typing import Any, NamedTuple

from hopgraph.index.backend import BackendError, IndexLockedError
from hopgraph.index.common import SCHEMA_VERSION
from hopgraph.index.hnsw import EARLIER_EF_CONSTRUCT, EARLIER_M, HNSW_EF_CONSTRUCT, HNSW_M

RECORD = "hopgraph.json"
LOCK_FILE = "lock"


def lock_dir(path: Path) -> int:
    """Takes the directory's exclusive lock; returns the open descriptor. Another holder, in this process or
    another, is named in the error."""
    lock_path = path / LOCK_FILE
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise BackendError(f"index directory {path} is not writable: {exc.strerror or exc}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        holder = "?"
        with contextlib.suppress(OSError):
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            if holder == str(os.getpid()):
                raise IndexLockedError(
                    f"index {path} is already open in this process; use hopgraph.index.factory.open_backend "
                    "to share one instance"
                ) from None
            raise IndexLockedError(
                f"index {path} is open in another process (pid {holder}); an embedded index is open in one process "
                "at a time: stop that one, use another --index, or a Qdrant server all can share (--url, QDRANT_URL)"
            ) from None
        raise BackendError(f"cannot lock index {path}: {exc}") from exc
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def unlock(fd: int) -> None:
    """Gives up the lock taken by :func:`lock_dir`."""
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def built_with(path: Path) -> str | None:
    """The embedder named in the record, so an index opens with the model that built it."""
    try:
        name = json.loads((path / RECORD).read_text()).get("embedder")
    except (OSError, ValueError, AttributeError):
        return None  # missing or broken: check_record reports a broken file
    return name if isinstance(name, str) and name else None


def built_doc_precision(path: Path) -> str | None:
    """How the documents of the index were embedded, by its record (``float`` where it says nothing); None for a
    new index."""
    try:
        meta = json.loads((path / RECORD).read_text())
    except (OSError, ValueError):
        return None  # missing or broken: check_record reports a broken file
    value = meta.get("doc_precision", "float") if isinstance(meta, dict) else None
    return value if value in ("float", "int8") else "float"


def _recorded(meta: dict[str, Any], key: str, earlier: int) -> int:
    """A graph setting in the record, or ``earlier`` for indexes created before it was recorded."""
    value = meta.get(key)
    return value if isinstance(value, int) and value > 0 else earlier


class Record(NamedTuple):
    """What the record says of how the index is built."""

    hnsw_m: int
    ef_construct: int
    doc_precision: str
    """``float`` or ``int8``: how its documents were embedded (``float`` for indexes recorded before it was)."""


def check_record(path: Path, embedder_name: str, dim: int, doc_precision: str = "float") -> Record:
    """How the index is built, after checking that its record names this embedder; a new index gets a record
    with the current graph settings and ``doc_precision``, the precision its documents will be embedded in."""
    meta_path = path / RECORD
    if meta_path.exists():
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError) as exc:
            raise BackendError(f"index {path}: unreadable {RECORD}: {exc}") from exc
        if meta.get("dim") != dim or meta.get("embedder") != embedder_name:
            raise BackendError(
                f"index {path} was built with embedder {meta.get('embedder')!r} (dim {meta.get('dim')}); "
                f"it cannot be searched with {embedder_name!r} (dim {dim}). Use --embedder {meta.get('embedder')} "
                "or a new --index."
            )
        recorded = meta.get("doc_precision")
        return Record(_recorded(meta, "hnsw_m", EARLIER_M), _recorded(meta, "hnsw_ef_construct", EARLIER_EF_CONSTRUCT),
                      recorded if recorded in ("float", "int8") else "float")
    tmp = meta_path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"schema": SCHEMA_VERSION, "embedder": embedder_name, "dim": dim,
                               "hnsw_m": HNSW_M, "hnsw_ef_construct": HNSW_EF_CONSTRUCT,
                               "doc_precision": doc_precision}))
    os.replace(tmp, meta_path)
    return Record(HNSW_M, HNSW_EF_CONSTRUCT, doc_precision)


def record_doc_precision(path: Path, doc_precision: str) -> None:
    """Rewrites the record's ``doc_precision``, for an index that holds no documents yet."""
    meta_path = path / RECORD
    meta = json.loads(meta_path.read_text())
    meta["doc_precision"] = doc_precision
    tmp = meta_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(meta))
    os.replace(tmp, meta_path)
