"""One storage contract, checked on every real backend: what is written can be read, replaced,
deleted and re-opened, in any script (see test_index_conformance.py for search)."""

from __future__ import annotations

import uuid

from hopgraph.index.backend import POINT_NAMESPACE, Scope, make_chunk_id, point_id
from tests.support.conformance import CORPUS, Harness, S, chunk, corpus_chunks, ids

# The harness and loaded fixtures.
pytest_plugins = ["tests.support.conformance_fixtures"]


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


def test_document_record_and_update_in_place(harness: Harness) -> None:
    b = harness.backend
    b.upsert([chunk("long", f"part {i} about harbour fees " * 5, index=i, count=3, tags=("a",)) for i in range(3)])
    b.upsert([chunk("long", "the other container's copy", container="two")])
    record = b.document_record("long", "default")
    assert record is not None and (record.content_hash, record.tags, record.complete) == ("h1", ("a",), True)
    assert (record.source, record.origin, record.legacy) == ("test://long", "", False)
    assert b.document_record("long", "three") is None
    before = [(h.chunk.chunk_id, round(h.score, 6)) for h in b.dense_search("harbour fees", Scope(("default",)), 3)]

    assert b.update_document("long", "default", {"tags": ["b", "c"], "source": "docs/long.txt",
                                                  "origin": "/srv/docs/long.txt"}) == 3
    assert b.update_document("nope", "default", {"tags": ["b"]}) == 0
    record = b.document_record("long", "default")
    assert record is not None and (record.tags, record.source, record.origin) == (
        ("b", "c"), "docs/long.txt", "/srv/docs/long.txt")
    # The vectors stay: the same chunks score the same, and the new tags filter.
    assert [(h.chunk.chunk_id, round(h.score, 6))
            for h in b.dense_search("harbour fees", Scope(("default",), ("b",)), 3)] == before
    assert b.search("harbour fees", Scope(("default",), ("a",)), 3) == []
    doc = b.read("long", Scope(("default",), ("c",)))
    assert doc is not None and len(doc.chunks) == 3 and {c.source for c in doc.chunks} == {"docs/long.txt"}
    assert b.document_sources("default") == {"long": "/srv/docs/long.txt"}
    two = b.read("long", Scope(("two",)))
    assert two is not None and two.chunks[0].tags == ()  # only the named container's document changes


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
