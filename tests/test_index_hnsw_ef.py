"""The HNSW search breadth the embedded backend uses: by the index's size and how its graph was built, unless set."""

from __future__ import annotations

import json
from pathlib import Path

from hopgraph.index.edge import (
    DEFAULT_HNSW_EF,
    EARLIER_EF_CONSTRUCT,
    HNSW_EF_CONSTRUCT,
    HNSW_EF_MAX,
    EdgeBackend,
    default_hnsw_ef,
)
from hopgraph.index.embed import get_embedder


def test_default_ef_grows_with_the_index_and_is_capped() -> None:
    assert default_hnsw_ef(0) == default_hnsw_ef(100_000) == DEFAULT_HNSW_EF == 128
    assert default_hnsw_ef(1_000_000) == 320  # 2.5 times as much for every tenfold growth past 100k
    sizes = [150_000, 300_000, 600_000, 1_000_000, 3_000_000]
    efs = [default_hnsw_ef(n) for n in sizes]
    assert efs == sorted(efs) and len(set(efs)) == len(efs)
    assert default_hnsw_ef(10**9) == HNSW_EF_MAX == 512


def test_graphs_built_with_the_earlier_ef_construct_search_wider() -> None:
    assert default_hnsw_ef(100_000, EARLIER_EF_CONSTRUCT) == DEFAULT_HNSW_EF
    assert default_hnsw_ef(1_000_000, EARLIER_EF_CONSTRUCT) == 512  # four times as much per tenfold growth
    for n in (150_000, 500_000, 1_000_000, 10**8):
        assert default_hnsw_ef(n, EARLIER_EF_CONSTRUCT) >= default_hnsw_ef(n, HNSW_EF_CONSTRUCT)


def test_backend_uses_the_size_rule_unless_ef_is_set(tmp_path: Path) -> None:
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm"), exact_threshold=0) as backend:
        assert backend.hnsw_ef is None
        assert backend._dense_params().hnsw_ef == DEFAULT_HNSW_EF
        backend._points = 1_000_000  # what the rule sees of a large index
        assert backend._dense_params().hnsw_ef == 320
        backend.hnsw_ef = 64
        assert backend._dense_params().hnsw_ef == 64
        backend._points = 0


def test_a_new_index_records_its_ef_construct_and_keeps_it(tmp_path: Path) -> None:
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        assert backend.ef_construct == HNSW_EF_CONSTRUCT == 200
        assert backend._config().hnsw_config.ef_construct == 200
    assert json.loads((tmp_path / "idx" / "hopgraph.json").read_text())["hnsw_ef_construct"] == 200
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        assert backend.ef_construct == 200


def test_an_index_without_the_record_keeps_the_earlier_graph_and_search_breadth(tmp_path: Path) -> None:
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")):
        pass
    meta_path = tmp_path / "idx" / "hopgraph.json"
    meta = json.loads(meta_path.read_text())
    del meta["hnsw_ef_construct"]  # as indexes created before the record was kept
    meta_path.write_text(json.dumps(meta))
    for _ in range(2):  # reopening does not change it
        with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm"), exact_threshold=0) as backend:
            assert backend.ef_construct == EARLIER_EF_CONSTRUCT == 100
            # New segments are built like the old ones, so the wider default search fits all of them.
            assert backend._config().hnsw_config.ef_construct == 100
            backend._points = 1_000_000
            assert backend._dense_params().hnsw_ef == 512
            backend._points = 0
    assert "hnsw_ef_construct" not in json.loads(meta_path.read_text())
