"""How both backends build their HNSW graphs and how wide they search them.

The embedded shard and a Qdrant server collection are created with the same graph settings (links per point,
ef_construct) and int8 copies of the dense vectors, and search with the same breadth for their size, so an
index behaves alike whichever engine holds it. Indexes built earlier keep the settings they were built with,
and the breadth that fits those.
"""

from __future__ import annotations

import math

# Search breadth up to HNSW_EF_GROWS_FROM points.
DEFAULT_HNSW_EF = 128
# HNSW graphs are built with these links per point (m) and this ef_construct. A graph built from longer
# candidate lists finds the same neighbours with a narrower search at 1M points, and one with twice the
# links narrower still: recall@10 0.96 at ef 128 with m 32, where m 16 needs ef 320 (docs/benchmarks-index.md,
# "A better graph"), for about 1.1 times the optimize time and twice the graph's links in memory.
HNSW_M = 32
HNSW_EF_CONSTRUCT = 200
# Indexes built before these settings were recorded used these (Qdrant's own defaults); they keep them.
EARLIER_M = 16
EARLIER_EF_CONSTRUCT = 100
# From this many points on, the default hnsw_ef grows with every tenfold growth, by how the graph was built
# (see default_hnsw_ef), up to HNSW_EF_MAX: at a fixed ef, recall@10 on vectors shaped like real embeddings
# falls as the index grows (docs/benchmarks-index.md).
HNSW_EF_GROWS_FROM = 100_000
HNSW_EF_MAX = 512
# HNSW walks the int8 copies and takes this many times the asked-for candidates, rescored with the
# original vectors: recall on real MiniLM vectors stays that of plain HNSW (docs/benchmarks-index.md).
QUANTIZED_OVERSAMPLING = 2.0
# The int8 copies clip each dimension at this quantile of its values.
INT8_QUANTILE = 0.99


def default_hnsw_ef(points: int, ef_construct: int = HNSW_EF_CONSTRUCT, m: int = HNSW_M) -> int:
    """hnsw_ef for an index of ``points`` points whose graph was built with ``m`` and ``ef_construct``: 128 up to
    100,000 points, then at 1,000,000: 160 for the current graphs (m 32, ef_construct 200), 320 for m 16 and
    ef_construct 200, 512 for the first graphs (m 16, ef_construct 100).

    Measured on points shaped like MiniLM embeddings (bench/index_dense_recall.py, bench/index_scale.py):
    recall@10 at 1M is 0.95 to 0.96 with each of these. Past 1M the growth is carried on, not measured.
    """
    if points <= HNSW_EF_GROWS_FROM:
        return DEFAULT_HNSW_EF
    if ef_construct < HNSW_EF_CONSTRUCT:
        growth = 4.0
    elif m < HNSW_M:
        growth = 2.5
    else:
        growth = 1.25
    return min(HNSW_EF_MAX, round(DEFAULT_HNSW_EF * growth ** math.log10(points / HNSW_EF_GROWS_FROM)))


