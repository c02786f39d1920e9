"""One behaviour contract, checked on every real backend: the embedded shard and a Qdrant
server (qdrant-client's in-process ``:memory:`` mode stands in for the server)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hopgraph.index.backend import (
    POINT_NAMESPACE,
    Chunk,
    Scope,
    ScopeError,
    SearchBackend,
    make_chunk_id,
    point_id,
)
from hopgraph.index.embed import MiniLMEmbedder, get_embedder
from hopgraph.index.vectors import VectorBackend

CORPUS = {
    "cats": ("Domestic cats", "Cats are small domesticated carnivorous mammals. A cat purrs and hunts mice."),
    "python": ("Python language", "Python is a programming language created by Guido van Rossum in 1991."),
    "paris": ("Paris", "Paris is the capital city of France, famous for the Eiffel Tower and the Louvre museum."),
    "volcano": ("Volcanoes", "A volcano is a rupture in the crust of a planet where lava, ash and gases escape."),
    "insulin": ("Insulin", "Insulin is a peptide hormone made by beta cells of the pancreas; it lowers blood sugar."),
    "chess": ("Chess", "Chess is a board game for two players; checkmate the opposing king to win the game."),
}

S = Scope(("default",))


def chunk(doc_id: str, text: str, *, title: str = "", container: str = "default", index: int = 0,
          count: int = 1, tags: tuple[str, ...] = (), h: str = "h1", page: int | None = None) -> Chunk:
    return Chunk(
        chunk_id=make_chunk_id(container, doc_id, index), doc_id=doc_id, index=index, title=title or doc_id,
        text=text, container=container, page=page, tags=tags, context=f"{title or doc_id}: summary",
        source=f"test://{doc_id}", kind="txt", content_hash=h, chunk_count=count,
    )


def corpus_chunks(container: str = "default", tags: tuple[str, ...] = ()) -> list[Chunk]:
    return [chunk(d, text, title=t, container=container, tags=tags) for d, (t, text) in CORPUS.items()]


class Harness:
    """Opens (and re-opens) one backend of a given kind."""

    def __init__(self, kind: str, tmp: Path) -> None:
        self.kind = kind
        self.tmp = tmp
        self.client: Any = None
        self.backend: SearchBackend = self.open()

    def open(self, **kw: Any) -> SearchBackend:
        emb = get_embedder("minilm")
        if self.kind == "edge":
            from hopgraph.index.edge import EdgeBackend

            return EdgeBackend(self.tmp / "index", embedder=emb, **kw)
        from qdrant_client import QdrantClient

        from hopgraph.index.server import ServerBackend

        if self.client is None:
            self.client = QdrantClient(":memory:")
        return ServerBackend(client=self.client, collection="hopgraph", embedder=emb, **kw)

    def reopen(self, **kw: Any) -> SearchBackend:
        self.backend.close()
        self.backend = self.open(**kw)
        if self.kind == "server":
            self.backend.close = lambda: None  # type: ignore[method-assign]
        return self.backend

    def raw_ids(self) -> set[str]:
        return {str(r.id) for r in self.backend._scroll(None)}  # type: ignore[attr-defined]


@pytest.fixture(params=["edge", "server"])
def harness(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Harness]:
    h = Harness(request.param, tmp_path)
    if request.param == "server":
        # Closing the in-memory client would drop the data we want to see again after reopen.
        h.backend.close = lambda: None  # type: ignore[method-assign]
    yield h
    if request.param == "edge":
        h.backend.close()


@pytest.fixture
def loaded(harness: Harness) -> Harness:
    harness.backend.upsert(corpus_chunks())
    return harness


def ids(hits: list[Any]) -> list[str]:
    return [h.doc_id for h in hits]


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


# --- storage ---------------------------------------------------------------------------------


def test_persistence_across_reopen(loaded: Harness) -> None:
    before = ids(loaded.backend.search("Eiffel Tower", S, 3))
    b = loaded.reopen()
    assert b.count() == len(CORPUS)
    assert ids(b.search("Eiffel Tower", S, 3)) == before
    doc = b.read("insulin", S)
    assert doc is not None and doc.text == CORPUS["insulin"][1]


def test_delete_document(loaded: Harness) -> None:
    b = loaded.backend
    assert b.delete_document("paris") == 1
    assert b.delete_document("paris") == 0
    assert b.count() == len(CORPUS) - 1
    assert "paris" not in ids(b.search("Eiffel Tower France", S, 10))
    assert b.read("paris", S) is None
    assert b.document_hash("paris", "default") is None


def test_delete_is_limited_to_its_container(harness: Harness) -> None:
    b = harness.backend
    b.upsert([chunk("x", "same id here", container="one"), chunk("x", "same id there", container="two")])
    assert b.delete_document("x", container="one") == 1
    assert b.read("x", Scope(("one",))) is None
    doc = b.read("x", Scope(("two",)))
    assert doc is not None and doc.text == "same id there"


def test_point_ids_are_uuid5_of_chunk_ids(loaded: Harness) -> None:
    expected = {str(uuid.uuid5(POINT_NAMESPACE, make_chunk_id("default", d, 0))) for d in CORPUS}
    assert loaded.raw_ids() == expected
    assert point_id("default/paris#0") == str(uuid.uuid5(POINT_NAMESPACE, "default/paris#0"))


def test_idempotent_upsert(loaded: Harness) -> None:
    b = loaded.backend
    first = [(h.doc_id, round(h.score, 6)) for h in b.search("capital of France", S, 5)]
    b.upsert(corpus_chunks())
    b.upsert(corpus_chunks())
    assert b.count() == len(CORPUS)
    assert [(h.doc_id, round(h.score, 6)) for h in b.search("capital of France", S, 5)] == first


def test_document_hash(loaded: Harness) -> None:
    b = loaded.backend
    assert b.document_hash("paris", "default") == "h1"
    assert b.document_hash("paris", "elsewhere") is None
    assert b.document_hash("nope", "default") is None


def test_container_documents_counts_documents_per_container(harness: Harness) -> None:
    b = harness.backend
    assert b.container_documents() == {}
    b.upsert(corpus_chunks())
    b.upsert([chunk("cats", "Private notes about cats.", container="private")])
    b.upsert([chunk("long", f"part {i} " * 10, index=i, count=3) for i in range(3)])  # three chunks, one document
    assert b.container_documents() == {"default": len(CORPUS) + 1, "private": 1}
    b.delete_document("cats", "private")
    assert b.container_documents() == {"default": len(CORPUS) + 1}


def test_empty_index_and_empty_query(harness: Harness) -> None:
    b = harness.backend
    assert b.count() == 0
    for fn in (b.search, b.text_search, b.dense_search):
        assert fn("anything", S, 5) == []
    assert b.read("x", S) is None
    assert b.delete_document("x") == 0
    b.upsert([])
    b.upsert(corpus_chunks())
    for fn in (b.search, b.text_search, b.dense_search):
        assert fn("", S, 5) == []
        assert fn("   ", S, 5) == []
    assert b.text_search("-cats", S, 5) == []
    assert b.text_search("the of", S, 5) == []  # stop words only


def test_unicode_round_trip_and_search(harness: Harness) -> None:
    b = harness.backend
    texts = {
        "ja": ("東京", "東京は日本の首都です。人口が多い都市です。"),
        "zh": ("北京", "北京是中华人民共和国的首都。"),
        "emoji": ("Party 🎉", "Celebrate 🎉🥳 with cake 🍰 and balloons 🎈 tonight."),
        "ar": ("مرحبا", "مرحبا بالعالم، هذه وثيقة باللغة العربية عن القهوة."),
        "he": ("שלום", "שלום עולם, זהו מסמך בעברית על ירושלים."),
    }
    b.upsert([chunk(d, text, title=t) for d, (t, text) in texts.items()])
    for d, (t, text) in texts.items():
        doc = b.read(d, S)
        assert doc is not None and doc.text == text and doc.title == t
    assert ids(b.text_search("首都", S, 5))[:2] in (["ja", "zh"], ["zh", "ja"])
    assert ids(b.text_search("日本", S, 5)) == ["ja"]
    assert ids(b.text_search("القهوة", S, 5)) == ["ar"]
    assert ids(b.text_search("ירושלים", S, 5)) == ["he"]
    assert b.search("balloons and cake 🎉", S, 1)[0].doc_id == "emoji"


def test_long_document_reassembles_in_order(harness: Harness) -> None:
    b = harness.backend
    n = 120
    parts = [f"Paragraph {i}: the story continues with event number {i} of the long chronicle." for i in range(n)]
    chunks = [chunk("saga", p, title="Saga", index=i, count=n, h="saga1") for i, p in enumerate(parts)]
    # Written in several batches, out of order, as ingestion might.
    b.upsert(chunks[60:])
    assert b.read("saga", S) is None  # not complete yet
    b.upsert(chunks[:60])
    doc = b.read("saga", S)
    assert doc is not None
    assert [c.index for c in doc.chunks] == list(range(n))
    assert doc.text == "\n".join(parts)
    assert b.count() == n
    assert b.document_hash("saga", "default") == "saga1"


def test_partial_document_is_invisible(harness: Harness) -> None:
    b = harness.backend
    parts = ["alpha unique zebra", "beta unique zebra", "gamma unique zebra"]
    chunks = [chunk("doc", p, index=i, count=3, h="v2") for i, p in enumerate(parts)]
    b.upsert(chunks[:2])
    for fn in (b.search, b.text_search, b.dense_search):
        assert fn("unique zebra", S, 5) == []
    assert b.read("doc", S) is None
    assert b.document_hash("doc", "default") is None
    b.upsert(chunks[2:])
    assert len(b.text_search("unique zebra", S, 5)) == 3
    assert b.document_hash("doc", "default") == "v2"


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


def test_pages_survive(harness: Harness) -> None:
    b = harness.backend
    b.upsert([chunk("pdf", f"page {i} text about orbital mechanics", index=i, count=3, page=i + 1, h="p")
              for i in range(3)])
    doc = b.read("pdf", S)
    assert doc is not None and [c.page for c in doc.chunks] == [1, 2, 3]



def test_lone_surrogates_do_not_break_anything(harness: Harness) -> None:
    b = harness.backend
    b.upsert([chunk("bad\ud800id", "steel \ud800 bolts from Bergen", title="T\udcff"),
              chunk("good", "copper wire from Globex")])
    hits = b.search("steel \udcff bolts", S, 2)
    assert hits[0].doc_id == "bad\ufffdid" and hits[0].chunk.text == "steel \ufffd bolts from Bergen"
    assert b.text_search("bolts \ud800", S, 1)[0].doc_id == "bad\ufffdid"
    assert b.dense_search("\ud800", S, 1)
    doc = b.read("bad\ud800id", S)
    assert doc is not None and doc.title == "T\ufffd"
    assert b.document_hash("bad\ud800id", "default") == "h1"
    assert b.delete_document("bad\ud800id") == 1
