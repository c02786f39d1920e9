"""A hopgraph collection on a Qdrant server: how it is created (vectors, HNSW graph, int8 copies, payload
indexes), how an existing one is checked against the embedder, and how its graph was built."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from hopgraph.index.backend import BackendError, IndexNotFoundError
from hopgraph.index.common import DENSE, KEYWORD_FIELDS, SPARSE
from hopgraph.index.embed import Embedder
from hopgraph.index.hnsw import HNSW_EF_CONSTRUCT, HNSW_M, INT8_QUANTILE


@dataclass(frozen=True)
class GraphBuild:
    """How a collection's HNSW graph is built and whether it holds int8 copies of the dense vectors."""

    m: int
    ef_construct: int
    quantized: bool
    doc_precision: str = "float"
    """How its documents were embedded: ``float``, or ``int8`` (``float`` where the metadata says nothing)."""


NEW_COLLECTION = GraphBuild(m=HNSW_M, ef_construct=HNSW_EF_CONSTRUCT, quantized=True)


def built_doc_precision(client: Any, name: str, call: Callable[[Callable[[], Any]], Any]) -> str | None:
    """How the documents of collection ``name`` were embedded, by its metadata (``float`` where it says nothing);
    None when there is no such collection."""
    if not call(lambda: client.collection_exists(name)):
        return None
    return _doc_precision_of(getattr(call(lambda: client.get_collection(name)).config, "metadata", None) or {})


def _doc_precision_of(meta: dict[str, Any]) -> str:
    recorded = meta.get("hopgraph_doc_precision")
    return recorded if recorded in ("float", "int8") else "float"


def open_collection(
    client: Any, name: str, embedder: Embedder, where: str, call: Callable[[Callable[[], Any]], Any], create: bool
) -> GraphBuild:
    """Checks collection ``name`` against ``embedder`` and returns how it was built, creating it when missing
    and ``create`` is set. ``call`` runs each client call, turning its failures into BackendError; ``where``
    names the server in messages."""
    from qdrant_client import models as qm

    emb_name = getattr(embedder, "name", type(embedder).__name__)
    if call(lambda: client.collection_exists(name)):
        info = call(lambda: client.get_collection(name))
        vectors = info.config.params.vectors
        dense_params = vectors.get(DENSE) if isinstance(vectors, dict) else None
        size = dense_params.size if dense_params is not None else None
        if size != embedder.dim:
            raise BackendError(
                f"collection {name!r} at {where} has dense size {size}, but embedder "
                f"{emb_name!r} makes {embedder.dim}: use the embedder it was built with"
            )
        meta = getattr(info.config, "metadata", None) or {}
        built = meta.get("hopgraph_embedder")
        if built and built != emb_name:
            raise BackendError(f"collection {name!r} at {where} was built with embedder {built!r}, not {emb_name!r}")
        return replace(_build_of(info, meta, dense_params), doc_precision=_doc_precision_of(meta))
    if not create:
        raise IndexNotFoundError(f"Qdrant at {where} has no collection {name!r}")
    call(
        lambda: client.create_collection(
            name,
            vectors_config={DENSE: qm.VectorParams(size=embedder.dim, distance=qm.Distance.COSINE)},
            sparse_vectors_config={SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
            hnsw_config=qm.HnswConfigDiff(m=NEW_COLLECTION.m, ef_construct=NEW_COLLECTION.ef_construct),
            quantization_config=qm.ScalarQuantization(scalar=qm.ScalarQuantizationConfig(
                type=qm.ScalarType.INT8, quantile=INT8_QUANTILE, always_ram=True)),
            metadata={"hopgraph_embedder": emb_name, "hopgraph_schema": 1,
                      "hopgraph_hnsw_m": NEW_COLLECTION.m, "hopgraph_hnsw_ef_construct": NEW_COLLECTION.ef_construct,
                      "hopgraph_doc_precision": embedder.doc_precision},
        )
    )
    fields = [(f, qm.PayloadSchemaType.KEYWORD) for f in KEYWORD_FIELDS] + [("index", qm.PayloadSchemaType.INTEGER)]
    for field, schema in fields:
        call(partial(client.create_payload_index, name, field_name=field, field_schema=schema))
    return replace(NEW_COLLECTION, doc_precision=embedder.doc_precision)


def _build_of(info: Any, meta: dict[str, Any], dense_params: Any) -> GraphBuild:
    """How an existing collection was built. Its metadata is asked first (a local-mode client reports Qdrant's
    defaults whatever the collection was created with), then the dense vector's own settings, then the
    collection's."""
    hnsw, vector_hnsw = info.config.hnsw_config, getattr(dense_params, "hnsw_config", None)
    m = meta.get("hopgraph_hnsw_m") or getattr(vector_hnsw, "m", None) or hnsw.m
    ef_construct = (meta.get("hopgraph_hnsw_ef_construct") or getattr(vector_hnsw, "ef_construct", None)
                    or hnsw.ef_construct)
    created_by_hopgraph = "hopgraph_hnsw_m" in meta  # with its graph settings, and so with int8 copies
    quantized = created_by_hopgraph or info.config.quantization_config is not None or (
        getattr(dense_params, "quantization_config", None) is not None)
    return GraphBuild(m=int(m), ef_construct=int(ef_construct), quantized=quantized)
