"""The BM25 postings budget: which query terms are left out, when, and that everything else is untouched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hopgraph.index import server
from hopgraph.index.backend import Chunk, Hit, Scope, make_chunk_id
from hopgraph.index.common import bm25_document, bm25_query
from hopgraph.index.common_terms import may_exceed, prune, term_shares
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.server import ServerBackend
from hopgraph.index.vectors import VectorBackend

S = Scope(("default",))
BIRDS = ["crane", "heron", "stork", "egret", "ibis", "bittern"]


def _notes(n: int, start: int = 0, extra: str = "") -> list[Chunk]:
    # "wetland" is in every note; each bird in a sixth of them.
    return [
        Chunk(chunk_id=make_chunk_id("default", f"n{i}", 0), doc_id=f"n{i}", index=0, title=f"note {i}",
              text=f"wetland survey {i}: a {BIRDS[i % len(BIRDS)]} seen near the reeds {extra}".strip(),
              container="default", content_hash="h")
        for i in range(start, start + n)
    ]


def _open(kind: str, tmp_path: Path, client: Any = None, **kw: Any) -> VectorBackend:
    emb = get_embedder("minilm")
    if kind == "edge":
        return EdgeBackend(tmp_path / "idx", embedder=emb, **kw)
    from qdrant_client import QdrantClient

    return ServerBackend(client=client or QdrantClient(":memory:"), collection="notes", embedder=emb, **kw)


def _sampled(backend: VectorBackend) -> bool:
    """Whether the backend has estimated its term shares (it does so only when a query could exceed the budget)."""
    if isinstance(backend, EdgeBackend):
        return backend._term_shares is not None
    assert isinstance(backend, ServerBackend)
    return backend._stats is not None and backend._stats[2] is not None


def _write(backend: VectorBackend, chunks: list[Chunk]) -> None:
    rng = np.random.default_rng(len(chunks))
    dense = rng.standard_normal((len(chunks), backend.embedder.dim)).astype(np.float32)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    backend.upsert_vectors(chunks, dense, [bm25_document(f"{c.title}\n{c.text}") for c in chunks])


def _view(hits: list[Hit]) -> list[tuple[str, float]]:
    return [(h.chunk.chunk_id, round(h.score, 6)) for h in hits]


@pytest.fixture(params=["edge", "server"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def notes(kind: str, tmp_path: Path) -> Iterator[VectorBackend]:
    # A budget of 30 postings over 60 notes, so a small index shows what a budget does to a large one.
    backend = _open(kind, tmp_path, bm25_postings_budget=30)
    _write(backend, _notes(60))
    yield backend
    backend.close()


def test_terms_over_the_budget_are_left_out_most_common_first(notes: VectorBackend) -> None:
    # "crane" is in 10 notes (fits 30), "wetland" in all 60 (does not): searched as "crane" alone.
    pruned = notes.text_search("wetland crane", S, 20)
    assert _view(pruned) == _view(notes.text_search("crane", S, 20))
    assert len(pruned) == 10 and all("crane" in h.chunk.text for h in pruned)
    notes.bm25_postings_budget = None  # type: ignore[attr-defined]
    full = notes.text_search("wetland crane", S, 20)
    # Searched with every term, the common one only adds to the scores (and lets other notes in).
    assert len(full) == 20
    assert full[0].score > pruned[0].score


def test_terms_that_fit_together_are_all_kept(notes: VectorBackend) -> None:
    # Two birds: 10 + 10 postings fit 30.
    kept = notes.text_search("crane heron", S, 30)
    notes.bm25_postings_budget = None  # type: ignore[attr-defined]
    assert _view(kept) == _view(notes.text_search("crane heron", S, 30))
    assert len(kept) == 20


def test_hybrid_queries_are_pruned_the_same_way(notes: VectorBackend) -> None:
    vec = np.zeros(notes.embedder.dim, dtype=np.float32)
    vec[0] = 1.0
    assert _view(notes.hybrid_vector_search(vec, bm25_query("wetland heron"), S, 10)) == _view(
        notes.hybrid_vector_search(vec, bm25_query("heron"), S, 10))


def test_a_query_of_common_terms_only_keeps_one_term(notes: VectorBackend) -> None:
    # Both words are in every note: the one kept is the first by term id (their shares tie).
    kept = min(("wetland", "survey"), key=lambda w: bm25_query(w).indices[0])
    pruned = notes.text_search("wetland survey", S, 10)
    assert _view(pruned) == _view(notes.text_search(kept, S, 10))
    assert len(pruned) == 10


def test_small_indexes_keep_every_term(kind: str, tmp_path: Path) -> None:
    backend = _open(kind, tmp_path)
    try:
        budget = backend.bm25_postings_budget  # type: ignore[attr-defined]
        assert budget is not None and budget > 60 * 2
        _write(backend, _notes(60))
        kept = backend.text_search("wetland crane", S, 20)
        assert len(kept) == 20  # "wetland" still counts: every note matches
        # Never sampled: no query of an index this small can exceed the default budget.
        assert not _sampled(backend)
        backend.bm25_postings_budget = None  # type: ignore[attr-defined]
        assert _view(kept) == _view(backend.text_search("wetland crane", S, 20))
    finally:
        backend.close()


def test_a_write_renews_the_estimate(notes: VectorBackend) -> None:
    before = notes.text_search("crane heron", S, 30)
    assert len(before) == 20  # both birds count: 10 notes each
    # 100 more notes that all mention cranes: "crane" is now in most chunks and is left out.
    _write(notes, _notes(100, start=60, extra="with a crane overhead"))
    after = notes.text_search("crane heron", S, 30)
    assert _view(after) == _view(notes.text_search("heron", S, 30))
    assert all("heron" in h.chunk.text for h in after)


def test_term_shares_count_chunks_not_occurrences() -> None:
    sample = [[1, 2, 2, 2], [1, 3], [1, 4], [5]]
    shares = term_shares(sample)
    assert shares[1] == 0.75 and shares[2] == 0.25  # term 2 is in one chunk, however often
    assert term_shares([]) == {}


def test_prune_keeps_the_rarest_terms_that_fit_in_query_order() -> None:
    shares = {1: 0.5, 2: 0.01, 3: 0.1, 4: 0.001}
    # 1,000 points: postings 500 / 10 / 100 / 1; a budget of 120 keeps terms 4, 2 and 3.
    assert prune([1, 2, 3, 4], [1.0, 2.0, 3.0, 4.0], shares, 1000, 120) == ([2, 3, 4], [2.0, 3.0, 4.0])
    assert prune([1, 2, 3, 4], [1.0, 2.0, 3.0, 4.0], shares, 1000, 20) == ([2, 4], [2.0, 4.0])
    assert prune([1, 2], [1.0, 1.0], shares, 1000, 600) is None  # everything fits
    # The rarest term stays even when it alone is over the budget; a term the sample never saw counts as rare.
    assert prune([1, 3], [1.0, 1.0], shares, 1000, 5) == ([3], [1.0])
    assert prune([1, 9], [1.0, 1.0], shares, 1000, 5) == ([9], [1.0])


def test_may_exceed_only_when_the_index_and_the_query_are_large_enough() -> None:
    assert not may_exceed(8, 10_000, 100_000)
    assert may_exceed(8, 20_000, 100_000)
    assert not may_exceed(1, 10**9, 100_000)  # one term is always searched


def test_a_budget_below_one_is_refused(kind: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bm25_postings_budget"):
        _open(kind, tmp_path, bm25_postings_budget=0)


def test_a_server_sees_other_clients_writes_once_its_estimate_expires(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from qdrant_client import QdrantClient

    client = QdrantClient(":memory:")
    reader = _open("server", tmp_path, client, bm25_postings_budget=30)
    writer = _open("server", tmp_path, client, bm25_postings_budget=30)
    _write(writer, _notes(60))
    assert len(reader.text_search("crane heron", S, 30)) == 20  # both birds fit the budget
    # Another client makes "crane" common; the reader's estimate is still the one it made.
    _write(writer, _notes(100, start=60, extra="with a crane overhead"))
    assert len(reader.text_search("crane heron", S, 200)) == 120
    monkeypatch.setattr(server, "TERM_STATS_TTL_S", 0.0)
    after = reader.text_search("crane heron", S, 200)
    assert _view(after) == _view(reader.text_search("heron", S, 200))
    assert len(after) == len([n for n in _notes(160) if "heron" in n.text])


def test_a_server_that_cannot_sample_searches_every_term(tmp_path: Path) -> None:
    from qdrant_client import QdrantClient
    from qdrant_client import models as qm

    client = QdrantClient(":memory:")
    backend = _open("server", tmp_path, client, bm25_postings_budget=30)
    _write(backend, _notes(60))
    plain = client.query_points

    def no_sampling(*args: Any, **kwargs: Any) -> Any:
        if isinstance(kwargs.get("query"), qm.SampleQuery):
            raise RuntimeError("Unknown query type: sample")
        return plain(*args, **kwargs)

    client.query_points = no_sampling  # type: ignore[method-assign]
    kept = backend.text_search("wetland crane", S, 20)
    backend.bm25_postings_budget = None  # type: ignore[attr-defined]
    assert _view(kept) == _view(backend.text_search("wetland crane", S, 20))
    assert len(kept) == 20
