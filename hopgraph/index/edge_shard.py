"""What an embedded index's qdrant-edge shard is made of, and opening it.

The settings (dense and BM25 vectors, the HNSW graph, int8 copies of the dense vectors, one search thread)
and the payload indexes a new shard gets. Queries and writes are :class:`hopgraph.index.edge.EdgeBackend`'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hopgraph.index.backend import BackendError
from hopgraph.index.common import DENSE, KEYWORD_FIELDS, SPARSE
from hopgraph.index.hnsw import INT8_QUANTILE


def int8_vectors(qe: Any) -> Any:
    """The shard's quantization setting: int8 copies of the dense vectors, kept in RAM.

    HNSW walks these (a quarter of the memory traffic) and the candidates are rescored with the
    originals (see ``EdgeBackend._dense_params``). Exact search ignores them.
    """
    return qe.ScalarQuantizationConfig(qe.ScalarType.Int8, quantile=INT8_QUANTILE, memory=qe.Memory.Pinned)


def shard_config(qe: Any, dim: int, hnsw_m: int, ef_construct: int) -> Any:
    """The shard's settings. An index keeps the graph settings it was created with, so all its segments are
    alike and the default search breadth fits them."""
    return qe.EdgeConfig(
        vectors={DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)},
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        hnsw_config=qe.HnswIndexConfig(m=hnsw_m, ef_construct=ef_construct, full_scan_threshold=10_000),
        quantization_config=int8_vectors(qe),
        # One search thread per query: on small machines the pool's hand-offs cost more than
        # they save, and concurrent tool calls already bring their own parallelism.
        max_search_threads=1,
    )


def open_shard(qe: Any, index_dir: Path, config: Any) -> Any:
    """Loads the shard under ``index_dir``, or creates it with its payload indexes."""
    shard_dir = index_dir / "shard"
    try:
        if (shard_dir / "edge_config.json").exists():
            return qe.EdgeShard.load(str(shard_dir), config)
        shard = qe.EdgeShard.create(str(shard_dir), config)
        for name in KEYWORD_FIELDS:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
        shard.update(qe.UpdateOperation.create_field_index("index", qe.PayloadSchemaType.Integer))
        return shard
    except Exception as exc:
        raise BackendError(f"cannot open index {index_dir}: {exc}") from exc
