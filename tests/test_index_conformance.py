"""One search contract, checked on every real backend: the embedded shard and a Qdrant server
(qdrant-client's in-process ``:memory:`` mode stands in for the server). Storage is in
test_index_conformance_storage.py."""

from __future__ import annotations

import pytest

from hopgraph.index.backend import BackendError, Scope, ScopeError
from hopgraph.index.embed import MiniLMEmbedder
from hopgraph.index.fusion import DBSF_WINDOW, HYBRID_FLOORS, fuse_ids
from hopgraph.index.vectors import VectorBackend
from tests.support.conformance import CORPUS, Harness, S, chunk, corpus_chunks, ids

# The harness and loaded fixtures.
pytest_plugins = ["tests.support.conformance_fixtures"]

# --- ranking ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Eiffel Tower capital France", "paris"),
        ("Guido van Rossum programming", "python"),
        ("pancreas hormone blood sugar", "insulin"),
        ("lava ash eruption crust", "volcano"),
    ],
)
def test_every_mode_puts_the_right_doc_first(loaded: Harness, query: str, expected: str) -> None:
    b = loaded.backend
    for fn in (b.search, b.text_search, b.dense_search):
        hits = fn(query, S, 3)
        assert hits, fn.__name__
        assert hits[0].doc_id == expected, (fn.__name__, ids(hits))
        assert all(hits[i].score >= hits[i + 1].score for i in range(len(hits) - 1))


def test_dense_finds_paraphrase_without_shared_words(loaded: Harness) -> None:
    assert loaded.backend.dense_search("feline pet that purrs", S, 1)[0].doc_id == "cats"
    assert loaded.backend.search("a game with a king on a board", S, 1)[0].doc_id == "chess"


@pytest.mark.parametrize("precision", ["int8", "float"])
def test_both_query_precisions_find_the_same_documents(loaded: Harness, precision: str) -> None:
    """Queries from the int8 copy or the float model, always against float document vectors."""
    b = loaded.backend
    assert isinstance(b, VectorBackend)
    b.embedder = MiniLMEmbedder(precision=precision)
    assert b.embedder.precision == precision
    paraphrases = {
        "feline pet that purrs": "cats",
        "a game with a king on a board": "chess",
        "the city of the Louvre": "paris",
        "who created the Python programming language": "python",
    }
    for query, expected in paraphrases.items():
        assert b.dense_search(query, S, 1)[0].doc_id == expected, query
        assert b.search(query, S, 1)[0].doc_id == expected, query


def test_document_sources_lists_one_container(harness: Harness) -> None:
    b = harness.backend
    assert b.document_sources("default") == {}
    b.upsert(corpus_chunks())
    b.upsert([chunk("cats", "Private notes about cats.", container="private")])
    b.upsert([chunk("long", f"part {i} " * 10, index=i, count=3) for i in range(3)])  # one entry per document
    assert b.document_sources("default") == {**{d: f"test://{d}" for d in CORPUS}, "long": "test://long"}
    assert b.document_sources("private") == {"cats": "test://cats"}
    b.delete_document("cats", "default")
    assert "cats" not in b.document_sources("default") and b.document_sources("private") == {"cats": "test://cats"}


def test_a_scroll_for_some_fields_reads_only_them(harness: Harness) -> None:
    # What document_sources reads of every chunk of a container: two short fields, never the text.
    b = harness.backend
    assert isinstance(b, VectorBackend)
    b.upsert(corpus_chunks())
    flt = b._container_filter("default")
    some = b._scroll(flt, fields=("doc_id", "source"))
    assert len(some) == len(b._scroll(flt)) == len(CORPUS)
    assert all(set(r.payload) == {"doc_id", "source"} for r in some), [r.payload for r in some]


def test_hits_carry_the_payload(loaded: Harness) -> None:
    hit = loaded.backend.search("Eiffel Tower", S, 1)[0]
    c = hit.chunk
    assert (c.doc_id, c.title, c.container, c.index, c.chunk_count) == ("paris", "Paris", "default", 0, 1)
    assert c.text == CORPUS["paris"][1]
    assert c.context == "Paris: summary" and c.source == "test://paris" and c.content_hash == "h1"
    assert c.page is None and c.kind == "txt"


def test_limit_is_respected(loaded: Harness) -> None:
    b = loaded.backend
    assert len(b.search("the", S, 2)) <= 2
    assert len(b.dense_search("anything at all", S, 4)) == 4
    assert b.search("cats", S, 0) == []


# --- scope --------------------------------------------------------------------------------


def test_container_filter_admits_no_foreign_docs(harness: Harness) -> None:
    b = harness.backend
    b.upsert(corpus_chunks("default"))
    b.upsert([chunk("secret", "Paris Eiffel Tower classified memo about France", container="private")])
    for fn in (b.search, b.text_search, b.dense_search):
        hits = fn("Paris Eiffel Tower France", S, 10)
        assert hits and all(h.chunk.container == "default" for h in hits)
        assert "secret" not in ids(hits)
        priv = fn("Paris Eiffel Tower France", Scope(("private",)), 10)
        assert ids(priv) == ["secret"]
    assert b.read("secret", S) is None
    assert b.read("secret", Scope(("private",))) is not None
    both = b.search("Paris Eiffel Tower France", Scope(("default", "private")), 10)
    assert {"secret", "paris"} <= set(ids(both))


def test_tag_filter_requires_every_tag(harness: Harness) -> None:
    b = harness.backend
    b.upsert([
        chunk("a", "quarterly revenue report for the sales team", tags=("finance", "2024")),
        chunk("b", "quarterly revenue report for the sales team, draft", tags=("finance",)),
        chunk("c", "quarterly revenue report for the sales team, copy", tags=("2024",)),
    ])
    for fn in (b.search, b.text_search, b.dense_search):
        assert ids(fn("quarterly revenue", Scope(("default",), ("finance", "2024")), 10)) == ["a"]
        assert set(ids(fn("quarterly revenue", Scope(("default",), ("finance",)), 10))) == {"a", "b"}
        assert fn("quarterly revenue", Scope(("default",), ("nope",)), 10) == []
    assert b.read("b", Scope(("default",), ("2024",))) is None


def test_a_query_without_scope_cannot_be_built() -> None:
    with pytest.raises(ScopeError):
        Scope(())
    with pytest.raises(ScopeError):
        Scope("default")  # type: ignore[arg-type]




def test_exact_phrase_and_excluded_terms(harness: Harness) -> None:
    b = harness.backend
    b.upsert([
        chunk("d1", "the red car drove past the blue house"),
        chunk("d2", "the blue car drove past the red house"),
        chunk("d3", "a red car and a green truck"),
        chunk("d4", "red car", title="Red car: the title only mention of a fast vehicle"),
    ])
    assert set(ids(b.text_search("red car", S, 10))) == {"d1", "d2", "d3", "d4"}
    assert set(ids(b.text_search('"red car"', S, 10))) == {"d1", "d3", "d4"}
    assert set(ids(b.text_search('"red car" -truck', S, 10))) == {"d1", "d4"}
    assert set(ids(b.text_search('"blue house"', S, 10))) == {"d1"}
    assert set(ids(b.text_search("car -red", S, 10))) == set()
    assert set(ids(b.text_search("house -blue", S, 10))) == set()
    assert set(ids(b.text_search("truck -green -blue", S, 10))) == set()
    assert set(ids(b.text_search('"fast vehicle"', S, 10))) == {"d4"}  # phrase in the title


def test_score_band_trims_the_tail(loaded: Harness) -> None:
    b = loaded.backend
    full = b.dense_search("Eiffel Tower in Paris", S, 6)
    assert len(full) == 6
    b = loaded.reopen(score_band=0.3)
    assert b.score_band == 0.3  # type: ignore[attr-defined]
    banded = b.dense_search("Eiffel Tower in Paris", S, 6)
    assert banded[0].doc_id == "paris"
    assert 1 <= len(banded) < 6
    assert [h.chunk for h in banded] == [h.chunk for h in full[: len(banded)]]
    # The server's local mode scores its first query in another float order than later ones.
    assert [h.score for h in banded] == pytest.approx([h.score for h in full[: len(banded)]], rel=1e-6)
    assert all(h.score >= banded[0].score * 0.7 for h in banded)
    hybrid = b.search("Eiffel Tower in Paris", S, 6)
    assert hybrid[0].doc_id == "paris" and len(hybrid) < 6


@pytest.mark.parametrize("fusion", ["dbsf", "rrf"])
def test_hybrid_fuses_the_dense_and_bm25_lists(loaded: Harness, fusion: str) -> None:
    b = loaded.reopen(fusion=fusion)
    for query in ("Eiffel Tower capital France", "a game with a king on a board", "volcano"):
        dense = [(h.chunk.chunk_id, h.score) for h in b.dense_search(query, S, DBSF_WINDOW)]
        bm25 = [(h.chunk.chunk_id, h.score) for h in b.text_search(query, S, DBSF_WINDOW)]
        expected = fuse_ids(fusion, [dense, bm25], 5, floors=HYBRID_FLOORS)
        got = b.search(query, S, 5)
        assert [h.chunk.chunk_id for h in got] == [key for key, _ in expected], query
        assert [h.score for h in got] == pytest.approx([score for _, score in expected], rel=1e-6), query


def test_an_unknown_fusion_is_refused_when_the_backend_opens(harness: Harness) -> None:
    with pytest.raises(ValueError, match="unknown fusion 'borda'"):
        harness.open(fusion="borda")


def test_hopgraph_fusion_sets_the_default_and_an_argument_wins(
    loaded: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOPGRAPH_FUSION", "RRF ")
    assert loaded.reopen().fusion == "rrf"  # type: ignore[attr-defined]
    assert loaded.reopen(fusion="dbsf").fusion == "dbsf"  # type: ignore[attr-defined]
    monkeypatch.setenv("HOPGRAPH_FUSION", "borda")
    with pytest.raises(BackendError, match="HOPGRAPH_FUSION must be dbsf or rrf, got 'borda'"):
        loaded.open()
    monkeypatch.delenv("HOPGRAPH_FUSION")
    assert loaded.reopen().fusion == "dbsf"  # type: ignore[attr-defined]


def test_ties_break_by_chunk_id(harness: Harness) -> None:
    b = harness.backend
    same = "identical twin documents about lighthouse keepers"
    b.upsert([chunk(d, same, title="twin") for d in ("t3", "t1", "t2")])
    for fn in (b.search, b.text_search, b.dense_search):
        assert ids(fn("lighthouse keepers", S, 3)) == ["t1", "t2", "t3"], fn.__name__


def test_a_tie_across_the_limit_keeps_the_first_chunk_ids(harness: Harness) -> None:
    b = harness.backend
    same = "identical twin documents about lighthouse keepers"
    b.upsert([chunk(d, same, title="twin") for d in ("t6", "t3", "t5", "t1", "t4", "t2")]
             + [chunk("best", "lighthouse keepers: the lighthouse keepers of the northern coast", title="keepers")])
    for fn in (b.search, b.text_search, b.dense_search):
        found = ids(fn("lighthouse keepers of the northern coast", S, 4))
        assert found == ["best", "t1", "t2", "t3"], fn.__name__


@pytest.mark.parametrize("limit", [2, 4])
def test_a_tie_across_a_hybrid_list_cut_gives_the_same_hits_whatever_the_write_order(
        harness: Harness, limit: int) -> None:
    # Candidate lists of three (four for limit 4): past the best chunk, six equal twins straddle the list's cut,
    # which the engine makes in its storage order; the limit needs twins, so the whole tie is read.
    same = "identical twin documents about lighthouse keepers"
    best = chunk("best", "lighthouse keepers: the lighthouse keepers of the northern coast", title="keepers")
    twins = ["t6", "t3", "t5", "t1", "t4", "t2"]
    found = []
    for order in (twins, twins[::-1]):
        b = harness.reopen(prefetch=3)
        for doc in twins + ["best"]:
            b.delete_document(doc)
        b.upsert([chunk(d, same, title="twin") for d in order] + [best])
        found.append(ids(b.search("lighthouse keepers of the northern coast", S, limit)))
    assert found[0] == found[1]
    assert found[0] == ["best", "t1", "t2", "t3"][:limit]
