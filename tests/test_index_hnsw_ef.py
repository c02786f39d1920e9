"""The HNSW search breadth the embedded backend uses: by the index's size unless set."""

from __future__ import annotations

from pathlib import Path

from hopgraph.index.edge import DEFAULT_HNSW_EF, HNSW_EF_MAX, EdgeBackend, default_hnsw_ef
from hopgraph.index.embed import get_embedder


def test_default_ef_grows_with_the_index_and_is_capped() -> None:
    assert default_hnsw_ef(0) == default_hnsw_ef(100_000) == DEFAULT_HNSW_EF == 128
    assert default_hnsw_ef(1_000_000) == 512  # four times as much for every tenfold growth past 100k
    sizes = [150_000, 300_000, 600_000, 1_000_000]
    efs = [default_hnsw_ef(n) for n in sizes]
    assert efs == sorted(efs) and len(set(efs)) == len(efs)
    assert default_hnsw_ef(10**9) == HNSW_EF_MAX == 512


def test_backend_uses_the_size_rule_unless_ef_is_set(tmp_path: Path) -> None:
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm"), exact_threshold=0) as backend:
        assert backend.hnsw_ef is None
        assert backend._dense_params().hnsw_ef == DEFAULT_HNSW_EF
        backend._points = 1_000_000  # what the rule sees of a large index
        assert backend._dense_params().hnsw_ef == 512
        backend.hnsw_ef = 64
        assert backend._dense_params().hnsw_ef == 64
        backend._points = 0
