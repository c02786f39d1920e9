"""How a search is spelt as qdrant-edge query requests: the BM25 query vector without its commonest terms when
they would walk more postings than the budget allows, exact or HNSW dense search (int8 candidates rescored with the
original vectors), and the dense and sparse requests themselves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from hopgraph.index import common_terms
from hopgraph.index.common import DENSE, SPARSE
from hopgraph.index.hnsw import QUANTIZED_OVERSAMPLING, default_hnsw_ef


class EdgeRequests:
    """Query requests for a backend holding the ``qdrant_edge`` module as ``_qe`` and its shard's point count."""

    _qe: Any
    _lock: Any
    _points: int
    _term_shares: dict[int, float] | None
    _call: Callable[..., Any]
    bm25_postings_budget: int | None
    exact_threshold: int
    hnsw_ef: int | None
    hnsw_m: int
    ef_construct: int

    def _bm25_query(self, sparse: Any) -> Any:
        """The BM25 query vector as searched: without its most common terms when they would walk more postings
        than the budget allows."""
        budget = self.bm25_postings_budget
        if budget is None or not common_terms.may_exceed(len(sparse.indices), self._points, budget):
            return sparse
        with self._lock:
            if self._term_shares is None:
                qe = self._qe
                req = qe.QueryRequest(limit=common_terms.SAMPLE, query=qe.Sample.Random, with_payload=False,
                                      with_vector=[SPARSE])
                sample = self._call(lambda s: s.query(req))
                self._term_shares = common_terms.term_shares(
                    p.vector[SPARSE].indices for p in sample if p.vector and SPARSE in p.vector)
            shares = self._term_shares
        pruned = common_terms.prune(list(sparse.indices), list(sparse.values), shares, self._points, budget)
        return sparse if pruned is None else self._qe.SparseVector(*pruned)

    def _dense_params(self) -> Any:
        if self._points < self.exact_threshold:
            return self._qe.SearchParams(exact=True)
        # Twice the candidates from the int8 vectors, rescored with the originals: recall on real
        # MiniLM vectors stays that of plain HNSW (docs/benchmarks-index.md).
        rescore = self._qe.QuantizationSearchParams(rescore=True, oversampling=QUANTIZED_OVERSAMPLING)
        ef = self.hnsw_ef if self.hnsw_ef is not None else default_hnsw_ef(self._points, self.ef_construct, self.hnsw_m)
        return self._qe.SearchParams(hnsw_ef=max(ef, 1), quantization=rescore)

    def _dense_request(self, vec: np.ndarray, flt: Any, limit: int, with_payload: Any) -> Any:
        qe = self._qe
        return qe.QueryRequest(
            limit=limit,
            query=qe.Query.Nearest(np.asarray(vec).tolist(), using=DENSE),
            filter=flt,
            params=self._dense_params(),
            with_payload=with_payload,
            with_vector=False,
        )

    def _sparse_request(self, sparse: Any, flt: Any, limit: int, with_payload: Any) -> Any:
        qe = self._qe
        return qe.QueryRequest(
            limit=limit,
            query=qe.Query.Nearest(sparse, using=SPARSE),
            filter=flt,
            with_payload=with_payload,
            with_vector=False,
        )
