"""The embedded backend: one qdrant-edge shard (in-process Rust Qdrant) in a directory.

Layout of an index directory::

    DIR/lock            exclusive flock held while a process has the index open
    DIR/hopgraph.json   schema version, embedder name, vector size, how the HNSW graph is built (m, ef_construct)
                        and how the documents were embedded (doc_precision: float or int8)
    DIR/shard/          the qdrant-edge shard (segments + write-ahead log)

The lock and hopgraph.json are kept by :mod:`hopgraph.index.edge_dir`, the shard's settings by
:mod:`hopgraph.index.edge_shard`, the spelling of filter conditions by :mod:`hopgraph.index.edge_filters`, the
spelling of query requests by :mod:`hopgraph.index.edge_requests`.
"""

from __future__ import annotations

import functools
import os
import threading
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from hopgraph.index import common_terms, edge_dir
from hopgraph.index.backend import (
    BackendError,
    Chunk,
    Hit,
    Scope,
    point_id,
)
from hopgraph.index.common import (
    DENSE,
    READY,
    SPARSE,
    STATUS,
    chunk_payload,
    clean_chunk,
    clean_text,
    payload_chunk,
)
from hopgraph.index.edge_filters import EdgeFilters
from hopgraph.index.edge_requests import EdgeRequests
from hopgraph.index.edge_shard import open_shard, shard_config
from hopgraph.index.embed import Embedder, get_embedder
from hopgraph.index.fusion import (
    HYBRID_FLOORS,
    backend_fusion,
    fuse_ids,
    score_band,
    sort_hits,
    through_ties,
    untied_candidates,
)
from hopgraph.index.vectors import VectorBackend, group_documents

T = TypeVar("T")

# Below this many points dense search is exact (brute force); above it HNSW is used.
# bench/bench_index.py measures both sides: see docs/benchmarks-index.md.
DEFAULT_EXACT_THRESHOLD = 10_000
# Each list of a hybrid query contributes this many candidates (at least) to the fusion.
DEFAULT_PREFETCH = 20
_SCROLL_PAGE = 256
# Most distinct values a facet lists (containers of one index).
_FACET_LIMIT = 100_000


class EdgeBackend(EdgeFilters, EdgeRequests, VectorBackend):
    """Hybrid search on an embedded qdrant-edge shard.

    ``doc_precision``: how the embedder named by name embeds documents (``auto``, ``int8``, ``float``; default
    HOPGRAPH_DOC_PRECISION; ``auto`` keeps to the index's). Documents embedded otherwise than those already in
    the index are refused.

    ``score_band``: if set, every query's hits are trimmed to those within this relative band
    of the top score (see :func:`hopgraph.index.fusion.score_band`). Default ``None`` (off).

    ``hnsw_ef``: the HNSW search breadth; ``None`` (default) sets it by the index's size
    (:func:`hopgraph.index.hnsw.default_hnsw_ef`).

    ``bm25_postings_budget``: the postings a BM25 query may walk; a query whose terms' estimated postings
    exceed it keeps its rarest terms that fit (see :mod:`hopgraph.index.common_terms`). ``None`` keeps every
    term at any size.

    ``fusion``: how a hybrid query merges its dense and BM25 lists: ``"dbsf"`` (distribution-based score fusion,
    :func:`hopgraph.index.fusion.dbsf_ids`) or ``"rrf"`` (reciprocal rank fusion, k 60); ``None`` (default):
    HOPGRAPH_FUSION, else ``"dbsf"``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        embedder: Embedder | str | None = None,
        *,
        doc_precision: str | None = None,
        score_band: float | None = None,
        exact_threshold: int = DEFAULT_EXACT_THRESHOLD,
        hnsw_ef: int | None = None,
        prefetch: int = DEFAULT_PREFETCH,
        bm25_postings_budget: int | None = common_terms.DEFAULT_BUDGET,
        fusion: str | None = None,
    ) -> None:
        import qdrant_edge as qe

        self._qe = qe
        self.path = Path(path).expanduser()
        self.location = f"index {self.path}"
        self.score_band = score_band
        self.exact_threshold = exact_threshold
        self.hnsw_ef = hnsw_ef
        self.prefetch = prefetch
        self.fusion = backend_fusion(fusion)
        self.bm25_postings_budget = common_terms.checked_budget(bm25_postings_budget)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BackendError(f"cannot create index directory {self.path}: {exc.strerror or exc}") from exc
        if not os.access(self.path, os.W_OK):
            raise BackendError(f"index directory {self.path} is not writable")
        self._lock_fd: int | None = edge_dir.lock_dir(self.path)
        self._lock = threading.RLock()
        # Scopes whose filter matches every point; cleared by every write (see _scope_filter).
        self._whole_index_scopes: dict[tuple[tuple[str, ...], tuple[str, ...]], bool] = {}
        # Share of chunks holding each BM25 term, estimated at the first query after a write (see _bm25_query).
        self._term_shares: dict[int, float] | None = None
        try:
            if embedder is None:
                embedder = os.environ.get("HOPGRAPH_EMBEDDER") or edge_dir.built_with(self.path)
            self.embedder = (embedder if isinstance(embedder, Embedder)
                             else get_embedder(embedder, doc_precision, edge_dir.built_doc_precision(self.path)))
            # The graph settings the index was created with: all its segments are built alike.
            self.hnsw_m, self.ef_construct, self.doc_precision = edge_dir.check_record(
                self.path, getattr(self.embedder, "name", type(self.embedder).__name__), self.embedder.dim,
                self.embedder.doc_precision)
            self._shard: Any = self._open_shard()
            self._points = int(self._shard.info().points_count)
        except BaseException:
            self._release_lock()
            raise

    # --- setup ---------------------------------------------------------------------

    def _config(self) -> Any:
        return shard_config(self._qe, self.embedder.dim, self.hnsw_m, self.ef_construct)

    def _open_shard(self) -> Any:
        return open_shard(self._qe, self.path, self._config())

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            fd, self._lock_fd = self._lock_fd, None
            edge_dir.unlock(fd)

    def close(self) -> None:
        with self._lock:
            shard = getattr(self, "_shard", None)
            if shard is not None:
                try:
                    shard.flush()
                    shard.close()
                except Exception as exc:
                    raise BackendError(f"closing index {self.path}: {exc}") from exc
                finally:
                    self._shard = None
                    self._release_lock()

    def __enter__(self) -> EdgeBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- engine calls --------------------------------------------------------------------

    def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs one engine call under the shard lock, turning engine errors into BackendError."""
        with self._lock:
            if self._shard is None:
                raise BackendError(f"index {self.path} is closed")
            try:
                return fn(self._shard, *args)
            except BackendError:
                raise
            except Exception as exc:
                raise BackendError(f"index {self.path}: {exc}") from exc

    def _scope_filter(self, scope: Scope) -> Any:
        """The engine filter for ``scope``, or None when it would match every point.

        With one container (or a scope naming all of them) and every document complete, the
        filter excludes nothing, yet checking it on each point the search visits doubles the
        cost of an HNSW query. Whether it matches everything is counted once per scope and
        forgotten at the next write; callers hold the lock from here to their last query,
        so no write can slip in between.
        """
        key = (tuple(sorted(scope.containers)), tuple(sorted(scope.tags)))
        with self._lock:
            whole = self._whole_index_scopes.get(key)
            if whole is None:
                qe, flt = self._qe, self._filter(scope)
                total = int(self._call(lambda s: s.count(qe.CountRequest(exact=True))))
                matching = int(self._call(lambda s: s.count(qe.CountRequest(exact=True, filter=flt))))
                whole = self._whole_index_scopes[key] = total == matching
        return None if whole else self._filter(scope)

    def _fetch_points(self, request: Callable[[int], Any], n: int) -> list[Any]:
        return list(self._call(lambda s: s.query(request(n))))

    def _query_through_ties(self, request: Callable[[int], Any], limit: int) -> list[Any]:
        """The engine's best ``limit`` points and all tied with the last of them (see ``fusion.through_ties``)."""
        return through_ties(functools.partial(self._fetch_points, request), lambda p: float(p.score), limit)

    # --- queries with pre-computed vectors (used by search and the benchmark) -----------

    def dense_vector_search(self, vec: np.ndarray, scope: Scope, limit: int) -> list[Hit]:
        if limit <= 0 or self._points == 0:
            return []
        with self._lock:
            flt = self._scope_filter(scope)
            points = self._query_through_ties(lambda n: self._dense_request(vec, flt, n, True), limit)
            return self._payload_hits(points, limit)

    def sparse_vector_search(
        self, sparse: Any, scope: Scope, limit: int, extra: Sequence[Any] = (), must_not: Sequence[Any] = ()
    ) -> list[Hit]:
        if limit <= 0 or self._points == 0 or not list(sparse.indices):
            return []
        with self._lock:
            flt = self._filter(scope, extra, must_not) if extra or must_not else self._scope_filter(scope)
            query = self._bm25_query(sparse)
            points = self._query_through_ties(lambda n: self._sparse_request(query, flt, n, True), limit)
            return self._payload_hits(points, limit)

    def hybrid_vector_search(
        self, vec: np.ndarray, sparse: Any, scope: Scope, limit: int, fusion: str | None = None
    ) -> list[Hit]:
        """Dense and BM25 lists, fused in Python (``fusion``, else ``self.fusion``); equal fused scores go by chunk id.

        The lists carry point ids only; payloads are read for the fused top ``limit`` (and anything
        tied with its last place: only a chunk id decides such a tie). A list stops before a tie across
        its last place, whose cut is the engine's storage order (``fusion.untied_candidates``). Two plain
        queries beat one query_batch here: the batch hands work to the search pool, which costs more than
        it saves.
        """
        if limit <= 0 or self._points == 0:
            return []
        depth = max(self.prefetch, limit)
        with self._lock:
            flt = self._scope_filter(scope)
            requests = [lambda n: self._dense_request(vec, flt, n, False)]
            if list(sparse.indices):
                query = self._bm25_query(sparse)
                requests.append(lambda n: self._sparse_request(query, flt, n, False))
            lists, stats = [], []
            for request in requests:
                fetch = functools.partial(self._fetch_points, request)
                points, scores = untied_candidates(fetch(depth + 1), fetch, lambda p: float(p.score), depth, limit)
                lists.append(points)
                stats.append(scores)
        # Integer forms of the uuids: hashing and comparing those is cheap. Tied scores get equal
        # shares in the fusion, so the engine's order among them does not matter.
        return self._fused_hits([[(p.id.int, p.score) for p in pts] for pts in lists], limit, fusion, stats)

    def _fused_hits(self, ranked: list[list[tuple[int, float]]], limit: int, fusion: str | None,
                    stats: list[list[float]] | None = None) -> list[Hit]:
        """The dense list and (if any) the BM25 list, as (point id, score), fused into the top ``limit`` hits;
        ``stats`` as in ``fusion.dbsf_ids``."""
        fused = fuse_ids(fusion or self.fusion, ranked, len(ranked[0]) + len(ranked[-1]), floors=HYBRID_FLOORS,
                         stats=stats)
        if not fused:
            return []
        # Everything tied with the last place that fits must be looked at to break the tie by chunk id.
        cut = min(limit, len(fused))
        edge = round(fused[cut - 1][1], 9)
        while cut < len(fused) and round(fused[cut][1], 9) == edge:
            cut += 1
        ids = [uuid.UUID(int=pid) for pid, _ in fused[:cut]]
        records = self._call(lambda s: s.retrieve(ids, True, False))
        chunks = {r.id.int: payload_chunk(r.payload or {}) for r in records}
        hits = sort_hits([Hit(chunk=chunks[pid], score=score) for pid, score in fused[:cut] if pid in chunks], 9)
        return score_band(hits[:limit], self.score_band)

    # --- SearchBackend ---------------------------------------------------------------

    def _scroll(self, flt: Any, fields: Sequence[str] | None = None) -> list[Any]:
        qe = self._qe
        with_payload = list(fields) if fields is not None else True
        out: list[Any] = []
        offset = None
        while True:
            req = qe.ScrollRequest(
                offset=offset, limit=_SCROLL_PAGE, filter=flt, with_payload=with_payload, with_vector=False
            )
            records, offset = self._call(lambda s, r=req: s.scroll(r))
            out.extend(records)
            if offset is None or not records:
                return out

    def _facet(self, key: str, flt: Any) -> dict[str, int]:
        req = self._qe.FacetRequest(key=key, limit=_FACET_LIMIT, exact=True, filter=flt)
        response = self._call(lambda s: s.facet(req))
        return {str(hit.value): int(hit.count) for hit in response.hits if hit.count}

    # --- writes ------------------------------------------------------------------------

    def upsert_vectors(self, chunks: Sequence[Chunk], dense: np.ndarray, sparse: Sequence[Any]) -> None:
        """Writes chunks with vectors computed by the caller.

        A document becomes visible once all ``chunk_count`` chunks with the same content
        hash are stored: chunks carry ``complete=False`` until then, so a crash half way
        through a document never leaves it looking complete.
        """
        qe = self._qe
        chunks = [clean_chunk(c) for c in chunks]
        groups, whole = group_documents(chunks)
        points = []
        for c, d, s in zip(chunks, dense, sparse, strict=True):
            payload = chunk_payload(c, complete=(c.container, c.doc_id) in whole)
            vec = {DENSE: [float(x) for x in d], SPARSE: s}
            points.append(qe.Point(point_id(c.chunk_id), vec, payload))
        self._write(qe.UpdateOperation.upsert_points(points))
        for key, cs in groups.items():
            if key not in whole:
                self._mark_if_complete(cs[0])
        self._refresh_count()

    def _write(self, operation: Any) -> None:
        with self._lock:
            self._whole_index_scopes.clear()
            self._term_shares = None
            self._call(lambda s: s.update(operation))

    def _mark_if_complete(self, c: Chunk) -> None:
        qe = self._qe
        flt = self._doc_filter(c.container, c.doc_id, [self._match("content_hash", c.content_hash)])
        n = self._call(lambda s: s.count(qe.CountRequest(exact=True, filter=flt)))
        if n >= c.chunk_count:
            self._write(qe.UpdateOperation.set_payload_by_filter(flt, {STATUS: READY}))

    def _set_payload(self, flt: Any, payload: dict[str, Any]) -> None:
        self._write(self._qe.UpdateOperation.set_payload_by_filter(flt, payload))

    def _refresh_count(self) -> None:
        self._points = int(self._call(lambda s: s.info().points_count))

    def delete_document(self, doc_id: str, container: str | None = None) -> int:
        doc_id = clean_text(doc_id)
        qe = self._qe
        flt = self._doc_filter(container, doc_id)
        n = int(self._call(lambda s: s.count(qe.CountRequest(exact=True, filter=flt))))
        if n:
            self._write(qe.UpdateOperation.delete_points_by_filter(flt))
            self._refresh_count()
        return n

    def _retrieve(self, point_ids: list[str]) -> list[Any]:
        return self._call(lambda s: s.retrieve(point_ids, True, False))

    def count(self) -> int:
        return self._points

    def _record_doc_precision(self, precision: str) -> None:
        edge_dir.record_doc_precision(self.path, precision)

    def flush(self) -> None:
        self._call(lambda s: s.flush())

    def optimize(self) -> bool:
        """Merges segments and builds the HNSW graph; worthwhile once above the exact threshold."""
        done = bool(self._call(lambda s: s.optimize()))
        self._refresh_count()
        return done

