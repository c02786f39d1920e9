"""The index an evaluation runs on: built once per corpus and embedder, then reused."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from hopgraph.config import user_cache_dir
from hopgraph.evals.data import EvalError
from hopgraph.index.backend import IndexLockedError, SearchBackend
from hopgraph.index.chunking import CHUNKER_VERSION
from hopgraph.index.common import hash_file
from hopgraph.index.edge_dir import LOCK_FILE, lock_dir, unlock
from hopgraph.index.embed import doc_precision_setting, embedder_spec, resolve_doc_precision
from hopgraph.index.ingest import ingest_beir

EVAL_CONTAINER = "eval"
READY_FILE = "eval-ready.json"


def default_cache_root() -> Path:
    return user_cache_dir() / "eval-index"


def corpus_key(corpus_path: Path, embedder: str, doc_precision: str = "float") -> str:
    """Names the cached index: the corpus bytes, the embedder, how documents are chunked and the precision they
    are embedded in."""
    h = hash_file(corpus_path)
    h.update(f"\0embedder={embedder}\0chunker={CHUNKER_VERSION}".encode())
    if doc_precision != "float":
        # Float indexes keep the names they had before documents could be embedded in int8.
        h.update(f"\0doc_precision={doc_precision}".encode())
    return h.hexdigest()[:16]


def ingest_corpus(
    backend: SearchBackend, corpus_path: Path, container: str = EVAL_CONTAINER, progress: bool = True
) -> dict[str, Any]:
    started = time.perf_counter()
    report = ingest_beir(backend, corpus_path, container, progress=progress)
    if report.skipped:
        path, reason = report.skipped[0]
        raise EvalError(f"ingesting {path} failed: {reason}")
    flush = getattr(backend, "flush", None)
    if callable(flush):
        flush()
    return {"documents": report.docs, "chunks": backend.count(),
            "seconds": round(time.perf_counter() - started, 1)}


def _clear_half_built(path: Path) -> None:
    """Removes an index an interrupted run left half built; one another process is still building (it holds the
    index's lock) is left alone, and opening it then fails with the error that names that process."""
    try:
        fd = lock_dir(path)
    except IndexLockedError:
        return
    try:
        for entry in path.iterdir():
            if entry.name != LOCK_FILE:
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    finally:
        unlock(fd)


def open_eval_index(
    corpus_path: Path, name: str, index_root: str | None = None, embedder: str | None = None,
    progress: bool = True, doc_precision: str | None = None,
) -> tuple[SearchBackend, dict[str, Any]]:
    """Opens the cached index for this corpus, embedder and document precision (default HOPGRAPH_DOC_PRECISION),
    building it when missing or stale."""
    from hopgraph.index.factory import open_backend

    spec = embedder_spec(embedder)
    precision = resolve_doc_precision(doc_precision or doc_precision_setting()) if spec == "minilm" else "float"
    key = corpus_key(corpus_path, spec, precision)
    root = Path(index_root).expanduser() if index_root else default_cache_root()
    path = root / f"{name}-{key}"
    ready = path / READY_FILE
    info: dict[str, Any] = {"path": str(path), "key": key, "embedder": spec, "doc_precision": precision,
                            "reused": ready.is_file()}
    if not ready.is_file() and path.exists():
        _clear_half_built(path)
    backend = open_backend(index_dir=str(path), embedder=spec, doc_precision=precision)
    if info["reused"]:
        info.update(json.loads(ready.read_text()))
        return backend, info
    stats = ingest_corpus(backend, corpus_path, progress=progress)
    info.update(stats)
    ready.write_text(json.dumps(stats))
    return backend, info
