"""Common-term pruning of BM25 queries: what is left out, when, and that everything else is untouched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from hopgraph.index.backend import Chunk, Hit, Scope, make_chunk_id
from hopgraph.index.common import bm25_document, bm25_query
from hopgraph.index.common_terms import common_terms, prune
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder

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


def _write(backend: EdgeBackend, chunks: list[Chunk]) -> None:
    rng = np.random.default_rng(len(chunks))
    dense = rng.standard_normal((len(chunks), backend.embedder.dim)).astype(np.float32)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    backend.upsert_vectors(chunks, dense, [bm25_document(f"{c.title}\n{c.text}") for c in chunks])


def _view(hits: list[Hit]) -> list[tuple[str, float]]:
    return [(h.chunk.chunk_id, round(h.score, 6)) for h in hits]


@pytest.fixture
def notes(tmp_path: Path) -> Iterator[EdgeBackend]:
    # Pruning from the first point on, so a small index shows what a large one does.
    backend = EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm"), common_terms_from=0)
    _write(backend, _notes(60))
    yield backend
    backend.close()


def test_terms_in_most_chunks_are_left_out(notes: EdgeBackend) -> None:
    pruned = notes.text_search("wetland crane", S, 20)
    assert _view(pruned) == _view(notes.text_search("crane", S, 20))
    assert len(pruned) == 10 and all("crane" in h.chunk.text for h in pruned)
    notes.common_term_share = None
    full = notes.text_search("wetland crane", S, 20)
    # Searched with every term, the common one only adds to the scores (and lets other notes in).
    assert len(full) == 20
    assert full[0].score > pruned[0].score


def test_hybrid_queries_are_pruned_the_same_way(notes: EdgeBackend) -> None:
    vec = np.zeros(notes.embedder.dim, dtype=np.float32)
    vec[0] = 1.0
    assert _view(notes.hybrid_vector_search(vec, bm25_query("wetland heron"), S, 10)) == _view(
        notes.hybrid_vector_search(vec, bm25_query("heron"), S, 10))


def test_a_query_of_common_terms_only_is_searched_as_it_is(notes: EdgeBackend) -> None:
    pruned = notes.text_search("wetland survey", S, 10)
    notes.common_term_share = None
    assert _view(pruned) == _view(notes.text_search("wetland survey", S, 10))
    assert len(pruned) == 10


def test_small_indexes_keep_every_term(tmp_path: Path) -> None:
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        assert backend.common_terms_from > 60
        _write(backend, _notes(60))
        kept = backend.text_search("wetland crane", S, 20)
        assert len(kept) == 20  # "wetland" still counts: every note matches
        backend.common_term_share = None
        assert _view(kept) == _view(backend.text_search("wetland crane", S, 20))


def test_a_write_renews_the_estimate(notes: EdgeBackend) -> None:
    before = notes.text_search("crane heron", S, 30)
    assert len(before) == 20  # both birds count: 10 notes each
    # 100 more notes that all mention cranes: "crane" is now in most chunks and is left out.
    _write(notes, _notes(100, start=60, extra="with a crane overhead"))
    after = notes.text_search("crane heron", S, 30)
    assert _view(after) == _view(notes.text_search("heron", S, 30))
    assert all("heron" in h.chunk.text for h in after)


def test_common_terms_counts_chunks_not_occurrences() -> None:
    sample = [[1, 2, 2, 2], [1, 3], [1, 4], [5]]
    assert common_terms(sample, 0.5) == frozenset({1})  # in 3 of 4; term 2 is in one chunk, however often
    assert common_terms(sample, 0.75) == frozenset()  # strictly more than the share
    assert common_terms([], 0.5) == frozenset()


def test_prune_keeps_the_query_when_nothing_or_everything_is_common() -> None:
    assert prune([1, 2, 3], [1.0, 1.0, 1.0], frozenset({2})) == ([1, 3], [1.0, 1.0])
    assert prune([1, 2], [1.0, 1.0], frozenset({7})) is None
    assert prune([1, 2], [1.0, 1.0], frozenset({1, 2})) is None
    assert prune([1, 2], [1.0, 1.0], frozenset()) is None


def test_a_share_outside_zero_to_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="common_term_share"):
        EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm"), common_term_share=1.5)
