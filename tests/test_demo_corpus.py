"""The shipped demo corpus: layout, tags, questions, and that it matches its generator."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from hopgraph.demo import containers, corpus_dir, doc_id, files, ingest_demo, questions, tags
from hopgraph.demo.build import build
from hopgraph.index.backend import Scope
from hopgraph.index.memory import MemoryBackend


def test_layout_containers_and_size() -> None:
    root = corpus_dir()
    assert root.is_dir()
    assert containers() == ["default", "finance", "legal"]
    demo = files()
    assert len(demo) >= 25
    assert sum(f.path.stat().st_size for f in demo) < 1_000_000
    kinds = Counter(f.path.suffix for f in demo)
    assert {".pdf", ".md", ".txt", ".docx", ".csv"} <= set(kinds)
    assert any(f.rel.endswith(".xlsx.pdf") for f in demo)
    assert all(f.container == f.rel.split("/")[0] for f in demo)


def test_file_names_are_unique_so_doc_ids_are() -> None:
    names = [doc_id(f.rel) for f in files()]
    assert len(names) == len(set(names))


def test_every_file_has_tags_and_every_tag_entry_has_a_file() -> None:
    tag_map = tags()
    rels = {f.rel for f in files()}
    assert set(tag_map) == rels
    assert all(tag_map[rel] for rel in rels)
    assert "spreadsheet" in tag_map["finance/orders.xlsx.pdf"]
    assert "contract" in tag_map["legal/contracts/nordlicht-supply-agreement.pdf"]


def test_contracts_are_multi_page_with_the_clause_on_its_page() -> None:
    reader = PdfReader(str(corpus_dir() / "legal/contracts/nordlicht-supply-agreement.pdf"))
    assert len(reader.pages) == 3
    pages = [p.extract_text() for p in reader.pages]
    assert "1.5 percent" in pages[1] and "1.5 percent" not in pages[0] + pages[2]
    assert "renews" in pages[2]


def test_questions_point_at_existing_files_and_pages() -> None:
    qs = questions()
    assert len(qs) >= 6
    assert len({q["id"] for q in qs}) == len(qs)
    rels = {f.rel for f in files()}
    assert any(q["hops"] >= 2 for q in qs)
    for q in qs:
        assert q["question"].strip() and q["facts"]
        assert set(q["containers"]) <= set(containers())
        for rel in q["expected_files"]:
            assert rel in rels, rel
            assert rel.split("/")[0] in q["containers"]
        for rel, page in q.get("expected_pages", {}).items():
            assert rel in q["expected_files"]
            assert 1 <= page <= len(PdfReader(str(corpus_dir() / rel)).pages)


def test_facts_occur_in_the_expected_files() -> None:
    ingested = MemoryBackend()
    ingest_demo(ingested)
    by_name = {}
    for f in files():
        doc = ingested.read(doc_id(f.rel), _scope(f.container))
        assert doc is not None, f.rel
        by_name[f.rel] = doc.text
    for q in questions():
        text = " ".join(" ".join(by_name[rel].split()) for rel in q["expected_files"] + q.get("also_relevant", []))
        for fact in q["facts"]:
            assert fact in text, (q["id"], fact)


def _scope(container: str) -> Scope:
    return Scope((container,))


def test_ingestion_keeps_pages_tags_and_containers() -> None:
    backend = MemoryBackend()
    report = ingest_demo(backend)
    assert report["skipped"] == []
    assert report["documents"] == len(files())
    assert report["containers"] == ["default", "finance", "legal"]
    contract = backend.read("nordlicht-supply-agreement.pdf", _scope("legal"))
    assert contract is not None
    assert {c.page for c in contract.chunks} == {1, 2, 3}
    assert all(c.container == "legal" and "contract" in c.tags for c in contract.chunks)
    penalty = [c for c in contract.chunks if "1.5 percent" in c.text]
    assert penalty and all(c.page == 2 for c in penalty)
    assert backend.read("nordlicht-supply-agreement.pdf", _scope("default")) is None
    orders = backend.read("orders.xlsx.pdf", _scope("finance"))
    assert orders is not None and orders.title == "orders.xlsx"
    # A second run finds everything unchanged.
    again = ingest_demo(backend)
    assert again["documents"] == 0 and again["unchanged"] == len(files())


@pytest.mark.slow
def test_shipped_files_match_the_generator(tmp_path: Path) -> None:
    written = build(tmp_path / "data", tmp_path / "tags.json")
    shipped = sorted(f.rel for f in files())
    assert sorted(written) == shipped
    for rel in shipped:
        assert (tmp_path / "data" / rel).read_bytes() == (corpus_dir() / rel).read_bytes(), rel
    assert (tmp_path / "tags.json").read_text() == (corpus_dir().parent / "tags.json").read_text()
