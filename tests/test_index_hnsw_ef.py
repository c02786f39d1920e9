"""How both backends build their HNSW graphs, and the search breadth they use: by the index's size and how its
graph was built, unless set."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from qdrant_client import QdrantClient, models

from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.hnsw import (
    DEFAULT_HNSW_EF,
    EARLIER_EF_CONSTRUCT,
    EARLIER_M,
    HNSW_EF_CONSTRUCT,
    HNSW_EF_MAX,
    HNSW_M,
    default_hnsw_ef,
)
from hopgraph.index.server import ServerBackend


def test_default_ef_grows_with_the_index_and_is_capped() -> None:
    assert default_hnsw_ef(0) == default_hnsw_ef(100_000) == DEFAULT_HNSW_EF == 128
    assert default_hnsw_ef(1_000_000) == 160  # 1.25 times as much for every tenfold growth past 100k
    sizes = [150_000, 300_000, 600_000, 1_000_000, 3_000_000]
    efs = [default_hnsw_ef(n) for n in sizes]
    assert efs == sorted(efs) and len(set(efs)) == len(efs)
    assert default_hnsw_ef(10**15) == HNSW_EF_MAX == 512


def test_graphs_with_fewer_links_or_a_shorter_build_search_wider() -> None:
    assert HNSW_M == 32 and EARLIER_M == 16
    m16 = [default_hnsw_ef(n, HNSW_EF_CONSTRUCT, EARLIER_M) for n in (100_000, 1_000_000)]
    first = [default_hnsw_ef(n, EARLIER_EF_CONSTRUCT, EARLIER_M) for n in (100_000, 1_000_000)]
    assert m16 == [DEFAULT_HNSW_EF, 320]  # 2.5 times as much per tenfold growth
    assert first == [DEFAULT_HNSW_EF, 512]  # four times as much
    for n in (150_000, 500_000, 1_000_000, 10**8):
        now = default_hnsw_ef(n)
        assert default_hnsw_ef(n, EARLIER_EF_CONSTRUCT, EARLIER_M) >= default_hnsw_ef(n, HNSW_EF_CONSTRUCT, EARLIER_M)
        assert default_hnsw_ef(n, HNSW_EF_CONSTRUCT, EARLIER_M) > now


def test_backend_uses_the_size_rule_unless_ef_is_set(tmp_path: Path) -> None:
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm"), exact_threshold=0) as backend:
        assert backend.hnsw_ef is None
        assert backend._dense_params().hnsw_ef == DEFAULT_HNSW_EF
        backend._points = 1_000_000  # what the rule sees of a large index
        assert backend._dense_params().hnsw_ef == 160
        backend.hnsw_ef = 64
        assert backend._dense_params().hnsw_ef == 64
        backend._points = 0


def test_a_new_index_records_its_graph_settings_and_keeps_them(tmp_path: Path) -> None:
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        assert (backend.hnsw_m, backend.ef_construct) == (HNSW_M, HNSW_EF_CONSTRUCT) == (32, 200)
        config = backend._config().hnsw_config
        assert (config.m, config.ef_construct) == (32, 200)
    meta = json.loads((tmp_path / "idx" / "hopgraph.json").read_text())
    assert (meta["hnsw_m"], meta["hnsw_ef_construct"]) == (32, 200)
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        assert (backend.hnsw_m, backend.ef_construct) == (32, 200)


def _drop_records(index: Path, *keys: str) -> Path:
    """Makes ``index`` look as if it was created before hopgraph.json recorded ``keys``."""
    with EdgeBackend(index, embedder=get_embedder("minilm")):
        pass
    meta_path = index / "hopgraph.json"
    meta = json.loads(meta_path.read_text())
    for key in keys:
        del meta[key]
    meta_path.write_text(json.dumps(meta))
    return meta_path


def test_an_index_without_the_records_keeps_the_first_graph_and_search_breadth(tmp_path: Path) -> None:
    meta_path = _drop_records(tmp_path / "idx", "hnsw_ef_construct", "hnsw_m")
    for _ in range(2):  # reopening does not change it
        with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm"), exact_threshold=0) as backend:
            assert (backend.hnsw_m, backend.ef_construct) == (EARLIER_M, EARLIER_EF_CONSTRUCT) == (16, 100)
            # New segments are built like the old ones, so the wider default search fits all of them.
            config = backend._config().hnsw_config
            assert (config.m, config.ef_construct) == (16, 100)
            backend._points = 1_000_000
            assert backend._dense_params().hnsw_ef == 512
            backend._points = 0
    assert not {"hnsw_ef_construct", "hnsw_m"} & set(json.loads(meta_path.read_text()))


def test_an_index_recording_only_its_ef_construct_keeps_16_links(tmp_path: Path) -> None:
    _drop_records(tmp_path / "idx", "hnsw_m")
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm"), exact_threshold=0) as backend:
        assert (backend.hnsw_m, backend.ef_construct) == (16, 200)
        assert backend._config().hnsw_config.m == 16
        backend._points = 1_000_000
        assert backend._dense_params().hnsw_ef == 320
        backend._points = 0


def _server(client: QdrantClient, **kw: Any) -> ServerBackend:
    return ServerBackend(client=client, collection="docs", embedder=get_embedder("minilm"), **kw)


def _as_if_counted(backend: ServerBackend, points: int) -> None:
    """What the size rule sees of a collection of ``points`` points (until the count is renewed)."""
    backend._stats = (time.monotonic(), points, None)


def test_a_new_server_collection_is_built_like_an_embedded_index() -> None:
    client = QdrantClient(":memory:")
    created: list[dict[str, Any]] = []
    create = client.create_collection

    def recording(*args: Any, **kw: Any) -> bool:
        created.append(kw)
        return create(*args, **kw)

    client.create_collection = recording  # type: ignore[method-assign]
    backend = _server(client)
    assert len(created) == 1
    hnsw, quantization = created[0]["hnsw_config"], created[0]["quantization_config"]
    assert (hnsw.m, hnsw.ef_construct) == (HNSW_M, HNSW_EF_CONSTRUCT)
    assert quantization.scalar.type == models.ScalarType.INT8 and quantization.scalar.always_ram
    assert (backend.hnsw_m, backend.ef_construct, backend.quantized) == (32, 200, True)
    # Reopened, it reads how it was built from its metadata (local mode reports Qdrant's defaults).
    again = _server(client)
    assert len(created) == 1
    assert (again.hnsw_m, again.ef_construct, again.quantized) == (32, 200, True)
    params = again._dense_params()
    assert params.hnsw_ef == DEFAULT_HNSW_EF
    assert params.quantization is not None and params.quantization.rescore
    assert params.quantization.oversampling == 2.0
    _as_if_counted(again, 1_000_000)
    assert again._dense_params().hnsw_ef == 160
    again.hnsw_ef = 64
    assert again._dense_params().hnsw_ef == 64


def test_a_server_collection_built_with_qdrant_defaults_keeps_them_and_searches_wider() -> None:
    client = QdrantClient(":memory:")
    # As collections were created before hopgraph set the graph: Qdrant's defaults, no int8 copies.
    client.create_collection(
        "docs",
        vectors_config={"dense": models.VectorParams(size=384, distance=models.Distance.COSINE)},
        sparse_vectors_config={"bm25": models.SparseVectorParams(modifier=models.Modifier.IDF)},
        metadata={"hopgraph_embedder": "minilm", "hopgraph_schema": 1},
    )
    backend = _server(client)
    assert (backend.hnsw_m, backend.ef_construct, backend.quantized) == (EARLIER_M, EARLIER_EF_CONSTRUCT, False)
    _as_if_counted(backend, 1_000_000)
    params = backend._dense_params()
    assert params.hnsw_ef == 512 and params.quantization is None
