"""A Qdrant server or cluster as the backend, through qdrant-client.

Same schema, same BM25 vectors (qdrant-edge's Bm25, IDF applied by the collection) and
the same Python-side fusion as the embedded backend, so both rank alike.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from hopgraph.index import common_terms
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
from hopgraph.index.embed import Embedder, get_embedder
from hopgraph.index.fusion import HYBRID_FLOORS, backend_fusion, fuse_ids, score_band, through_ties, untied_candidates
from hopgraph.index.hnsw import QUANTIZED_OVERSAMPLING, default_hnsw_ef
from hopgraph.index.server_collection import built_doc_precision, open_collection
from hopgraph.index.vectors import VectorBackend, group_documents

T = TypeVar("T")
log = logging.getLogger(__name__)

DEFAULT_PREFETCH = 20
_SCROLL_PAGE = 256
_FACET_LIMIT = 100_000
# How long the point count and term shares behind the BM25 postings budget are trusted: other clients may
# write to a shared collection, and this backend only sees its own writes.
TERM_STATS_TTL_S = 300.0


class ServerBackend(VectorBackend):
    """``url``/``api_key`` default to QDRANT_URL / QDRANT_API_KEY; ``client`` injects a ready
    ``QdrantClient`` (tests use ``QdrantClient(":memory:")``). ``score_band``, ``hnsw_ef``,
    ``bm25_postings_budget`` and ``fusion`` as in EdgeBackend; the point count behind the default ``hnsw_ef``
    and the budget, and the term shares behind the budget, are renewed after this backend's own writes and
    every ``TERM_STATS_TTL_S`` seconds.

    A new collection is built like an embedded index: HNSW with ``HNSW_M`` links and ``HNSW_EF_CONSTRUCT``,
    int8 copies of the dense vectors kept in RAM. An existing collection keeps how it was built, and is
    searched with the breadth that fits it."""

    def __init__(
        self,
        url: str | None = None,
        api_key: str | None = None,
        collection: str = "hopgraph",
        embedder: Embedder | str | None = None,
        client: Any = None,
        *,
        doc_precision: str | None = None,
        timeout_s: float = 10.0,
        connect_timeout_s: float = 3.0,
        score_band: float | None = None,
        prefetch: int = DEFAULT_PREFETCH,
        hnsw_ef: int | None = None,
        bm25_postings_budget: int | None = common_terms.DEFAULT_BUDGET,
        fusion: str | None = None,
        create: bool = True,
    ) -> None:
        from qdrant_client import QdrantClient
        from qdrant_client import models as qm

        self._qm = qm
        self.collection = collection
        self.score_band = score_band
        self.prefetch = prefetch
        self.fusion = backend_fusion(fusion)
        self.hnsw_ef = hnsw_ef
        self.bm25_postings_budget = common_terms.checked_budget(bm25_postings_budget)
        # (when counted, points, term shares or None until a query needs them); see _term_stats.
        self._stats: tuple[float, int, dict[int, float] | None] | None = None
        self._stats_lock = threading.Lock()
        self._lock = threading.Lock()
        if client is not None:
            self.url = "(client)"
            self._client = client
        else:
            self.url = url or os.environ.get("QDRANT_URL") or "http://localhost:6333"
            key = api_key or os.environ.get("QDRANT_API_KEY") or None
            # A short timeout for the first contact, so a dead server fails fast.
            probe = QdrantClient(url=self.url, api_key=key, timeout=int(max(connect_timeout_s, 1)),
                                 check_compatibility=False)
            try:
                probe.get_collections()
            except Exception as exc:
                raise BackendError(f"cannot reach Qdrant at {self.url}: {_short(exc)}") from exc
            finally:
                probe.close()
            self._client = QdrantClient(url=self.url, api_key=key, timeout=int(max(timeout_s, 1)),
                                        check_compatibility=False)
        if not isinstance(embedder, Embedder):
            # Without a setting, documents are embedded the way the collection's already are.
            embedder = get_embedder(embedder, doc_precision, built_doc_precision(self._client, collection, self._call))
        self.embedder = embedder
        with self._lock:
            # How the collection's graph is built and whether it holds int8 copies: the search params follow it.
            build = open_collection(self._client, collection, self.embedder, self.url, self._call, create)
        self.hnsw_m, self.ef_construct, self.quantized = build.m, build.ef_construct, build.quantized
        self.doc_precision = build.doc_precision
        self.location, self.option_hint = f"collection {collection!r} at {self.url}", "another collection"

    # --- setup ---------------------------------------------------------------------

    def _call(self, fn: Callable[[], T]) -> T:
        try:
            with warnings.catch_warnings():
                # Local mode warns that payload indexes and search params do nothing there.
                warnings.simplefilter("ignore", UserWarning)
                return fn()
        except BackendError:
            raise
        except Exception as exc:
            raise BackendError(f"Qdrant at {self.url}: {_short(exc)}") from exc

    def close(self) -> None:
        with contextlib.suppress(Exception):  # closing a dead connection is not an error
            self._client.close()

    # --- helpers -------------------------------------------------------------------------

    def _match(self, key: str, value: str | int) -> Any:
        return self._qm.FieldCondition(key=key, match=self._qm.MatchValue(value=value))

    def _match_any(self, key: str, values: list[str]) -> Any:
        return self._qm.FieldCondition(key=key, match=self._qm.MatchAny(any=values))

    def _phrase(self, key: str, phrase: str) -> Any:
        return self._qm.FieldCondition(key=key, match=self._qm.MatchPhrase(phrase=phrase))

    def _has_text(self, key: str, term: str) -> Any:
        return self._qm.FieldCondition(key=key, match=self._qm.MatchText(text=term))

    def _where(self, must: Sequence[Any] = (), should: Sequence[Any] = (), must_not: Sequence[Any] = ()) -> Any:
        return self._qm.Filter(must=list(must) or None, should=list(should) or None, must_not=list(must_not) or None)

    def _dense_params(self) -> Any:
        """Search params for the dense list: ``hnsw_ef``, or the breadth for the collection's size and graph
        (:func:`~hopgraph.index.hnsw.default_hnsw_ef`); int8 candidates rescored with the originals."""
        qm = self._qm
        ef = self.hnsw_ef if self.hnsw_ef is not None else default_hnsw_ef(
            self._point_count(), self.ef_construct, self.hnsw_m)
        rescore = qm.QuantizationSearchParams(rescore=True, oversampling=QUANTIZED_OVERSAMPLING)
        return qm.SearchParams(hnsw_ef=max(ef, 1), quantization=rescore if self.quantized else None)

    @staticmethod
    def _sparse(sv: Any) -> Any:
        from qdrant_client import models as qm

        return qm.SparseVector(indices=list(sv.indices), values=[float(v) for v in sv.values])

    def _bm25_query(self, sparse: Any) -> Any:
        """The BM25 query vector as searched: without its most common terms when they would walk more postings
        than the budget allows (see :mod:`hopgraph.index.common_terms`)."""
        budget = self.bm25_postings_budget
        if budget is not None:
            points, shares = self._term_stats(len(sparse.indices), budget)
            if shares is not None:
                pruned = common_terms.prune(list(sparse.indices), list(sparse.values), shares, points, budget)
                if pruned is not None:
                    return self._qm.SparseVector(indices=pruned[0], values=pruned[1])
        return self._sparse(sparse)

    def _fresh_stats(self) -> tuple[float, int, dict[int, float] | None]:
        """The kept statistics, with the point count counted again when it is older than ``TERM_STATS_TTL_S``.
        The caller holds ``_stats_lock``."""
        stats = self._stats
        if stats is None or time.monotonic() - stats[0] > TERM_STATS_TTL_S:
            c = self._client
            points = int(self._call(lambda: c.count(self.collection, exact=False).count))
            stats = self._stats = (time.monotonic(), points, None)
        return stats

    def _point_count(self) -> int:
        """The collection's point count, as kept for ``TERM_STATS_TTL_S``."""
        with self._stats_lock:
            return self._fresh_stats()[1]

    def _term_stats(self, terms: int, budget: int) -> tuple[int, dict[int, float] | None]:
        """The collection's point count and, when a query of ``terms`` terms may exceed ``budget``, the share of
        chunks holding each term (from a random sample); counted once and kept for ``TERM_STATS_TTL_S``."""
        qm, c = self._qm, self._client
        with self._stats_lock:
            when, points, shares = self._fresh_stats()
            if not common_terms.may_exceed(terms, points, budget):
                return points, None
            if shares is None:
                try:
                    sample = self._call(lambda: c.query_points(
                        self.collection, query=qm.SampleQuery(sample=qm.Sample.RANDOM), limit=common_terms.SAMPLE,
                        with_payload=False, with_vectors=[SPARSE]).points)
                except BackendError as exc:
                    # A server without random sampling: search every term rather than fail the search.
                    log.warning("BM25 postings budget off until the next estimate: %s", exc)
                    sample = []
                shares = common_terms.term_shares(
                    p.vector[SPARSE].indices for p in sample if isinstance(p.vector, dict) and SPARSE in p.vector)
                self._stats = (when, points, shares)
            return points, shares

    def _req(self, using: str, query: Any, flt: Any, limit: int, with_payload: Any = True) -> Any:
        qm = self._qm
        return qm.QueryRequest(
            query=query, using=using, filter=flt, limit=limit, with_payload=with_payload, with_vector=False,
            params=self._dense_params() if using == DENSE else None,
        )

    def _points(self, reqs: list[Any]) -> list[list[Any]]:
        c = self._client
        return [r.points for r in self._call(lambda: c.query_batch_points(self.collection, requests=reqs))]

    def _ids_only(self, request: Callable[[int, Any], Any], n: int) -> list[Any]:
        """The best ``n`` points of one request, with their chunk ids only."""
        return list(self._points([request(n, ["chunk_id"])])[0])

    def _hits_through_ties(self, request: Callable[[int], Any], limit: int) -> list[Hit]:
        """The server's best ``limit`` hits and all tied with the last of them (see ``fusion.through_ties``),
        best first, ties by chunk id."""
        points = through_ties(lambda n: self._points([request(n)])[0], lambda p: float(p.score), limit)
        return self._payload_hits(points, limit)

    # --- queries with pre-computed vectors ----------------------------------------------

    def dense_vector_search(self, vec: np.ndarray, scope: Scope, limit: int) -> list[Hit]:
        if limit <= 0:
            return []
        query, flt = np.asarray(vec).tolist(), self._filter(scope)
        return self._hits_through_ties(lambda n: self._req(DENSE, query, flt, n), limit)

    def sparse_vector_search(
        self, sparse: Any, scope: Scope, limit: int, extra: Sequence[Any] = (), must_not: Sequence[Any] = ()
    ) -> list[Hit]:
        if limit <= 0 or not list(sparse.indices):
            return []
        query, flt = self._bm25_query(sparse), self._filter(scope, extra, must_not)
        return self._hits_through_ties(lambda n: self._req(SPARSE, query, flt, n), limit)

    def hybrid_vector_search(
        self, vec: np.ndarray, sparse: Any, scope: Scope, limit: int, fusion: str | None = None
    ) -> list[Hit]:
        """Two lists (chunk ids only) in one batch request, fused in Python, then the top payloads.

        A list stops before a tie across its last place, whose cut is the server's storage order
        (``fusion.untied_candidates``).
        """
        if limit <= 0:
            return []
        depth = max(self.prefetch, limit)
        flt = self._filter(scope)
        requests = [functools.partial(self._req, DENSE, np.asarray(vec).tolist(), flt)]
        if list(sparse.indices):
            requests.append(functools.partial(self._req, SPARSE, self._bm25_query(sparse), flt))
        firsts = self._points([request(depth + 1, ["chunk_id"]) for request in requests])
        lists = [untied_candidates(got, functools.partial(self._ids_only, request), lambda p: float(p.score),
                                   depth, limit)
                 for got, request in zip(firsts, requests, strict=True)]
        # Tied scores get equal shares in the fusion, so the server's order among them does not matter.
        ranked = [[(str((p.payload or {}).get("chunk_id", "")), float(p.score)) for p in pts] for pts, _ in lists]
        fused = fuse_ids(fusion or self.fusion, ranked, limit, floors=HYBRID_FLOORS,
                         stats=[scores for _, scores in lists])
        if not fused:
            return []
        ids = [point_id(cid) for cid, _ in fused]
        c = self._client
        recs = self._call(lambda: c.retrieve(self.collection, ids=ids, with_payload=True, with_vectors=False))
        chunks = {str(r.id): payload_chunk(r.payload or {}) for r in recs}
        hits = [
            Hit(chunk=chunks[pid], score=score) for pid, (_, score) in zip(ids, fused, strict=True) if pid in chunks
        ]
        return score_band(hits, self.score_band)

    # --- SearchBackend ---------------------------------------------------------------

    def _scroll(self, flt: Any, fields: Sequence[str] | None = None) -> list[Any]:
        c = self._client
        with_payload = list(fields) if fields is not None else True
        out: list[Any] = []
        offset: Any = None

        def page(o: Any) -> tuple[list[Any], Any]:
            return c.scroll(
                self.collection, scroll_filter=flt, limit=_SCROLL_PAGE, offset=o, with_payload=with_payload,
                with_vectors=False,
            )

        while True:
            records, offset = self._call(functools.partial(page, offset))
            out.extend(records)
            if offset is None or not records:
                return out

    def _facet(self, key: str, flt: Any) -> dict[str, int]:
        c = self._client
        response = self._call(
            lambda: c.facet(self.collection, key=key, facet_filter=flt, limit=_FACET_LIMIT, exact=True)
        )
        return {str(hit.value): int(hit.count) for hit in response.hits if hit.count}

    # --- writes --------------------------------------------------------------------------

    def upsert_vectors(self, chunks: Sequence[Chunk], dense: np.ndarray, sparse: Sequence[Any]) -> None:
        """As EdgeBackend.upsert_vectors: a document turns ``ready`` once all its chunks are stored."""
        qm = self._qm
        c = self._client
        chunks = [clean_chunk(ch) for ch in chunks]
        groups, whole = group_documents(chunks)
        points = [
            qm.PointStruct(
                id=point_id(ch.chunk_id),
                vector={DENSE: [float(x) for x in d], SPARSE: self._sparse(s)},
                payload=chunk_payload(ch, complete=(ch.container, ch.doc_id) in whole),
            )
            for ch, d, s in zip(chunks, dense, sparse, strict=True)
        ]
        self._stats = None
        self._call(lambda: c.upsert(self.collection, points=points, wait=True))
        for key, cs in groups.items():
            if key not in whole:
                self._mark_if_complete(cs[0])

    def _mark_if_complete(self, ch: Chunk) -> None:
        c = self._client
        flt = self._doc_filter(ch.container, ch.doc_id, [self._match("content_hash", ch.content_hash)])
        n = self._call(lambda: c.count(self.collection, count_filter=flt, exact=True).count)
        if n >= ch.chunk_count:
            self._call(lambda: c.set_payload(self.collection, payload={STATUS: READY}, points=flt, wait=True))

    def _set_payload(self, flt: Any, payload: dict[str, Any]) -> None:
        c = self._client
        self._call(lambda: c.set_payload(self.collection, payload=payload, points=flt, wait=True))

    def delete_document(self, doc_id: str, container: str | None = None) -> int:
        doc_id = clean_text(doc_id)
        qm = self._qm
        c = self._client
        flt = self._doc_filter(container, doc_id)
        n = int(self._call(lambda: c.count(self.collection, count_filter=flt, exact=True).count))
        if n:
            self._stats = None
            self._call(lambda: c.delete(self.collection, points_selector=qm.FilterSelector(filter=flt), wait=True))
        return n

    def _retrieve(self, point_ids: list[str]) -> list[Any]:
        c = self._client
        return self._call(lambda: c.retrieve(self.collection, ids=point_ids, with_payload=True, with_vectors=False))

    def count(self) -> int:
        c = self._client
        return int(self._call(lambda: c.count(self.collection, exact=True).count))

    def _record_doc_precision(self, precision: str) -> None:
        c = self._client
        meta = dict(self._call(lambda: c.get_collection(self.collection)).config.metadata or {})
        meta["hopgraph_doc_precision"] = precision
        self._call(lambda: c.update_collection(self.collection, metadata=meta))


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
