"""Document ids that cannot collide: two files never share an id in a container, whatever folders they come from; a
file that would take another file's id is refused (or replaces it when asked, saying so); re-ingesting stays
idempotent; indexes written before keep their ids and keep working."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from hopgraph.commands.ingest import EXIT_SKIPPED
from hopgraph.index import common, edge, factory
from hopgraph.index.backend import Chunk, Scope, make_chunk_id
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.ingest import Chunker, _hash, ingest_paths, summary_line
from hopgraph.index.loaders import LOADERS
from hopgraph.index.sources import IngestError
from tests.support.embedding import CountingEmbeds


def cli(*argv: str) -> int:
    from hopgraph.cli import main

    return main(list(argv))


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[str]:
    yield str(tmp_path / "idx")
    factory.close_all()


def project(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "README.md").write_text(text)
    return folder


def listed(capsys: pytest.CaptureFixture[str], index: str, container: str) -> dict[str, str]:
    capsys.readouterr()
    assert cli("list", "--index", index, "--container", container, "--json") == 0
    return {d["doc_id"]: d["source"] for d in json.loads(capsys.readouterr().out)["documents"]}


def text_hits(capsys: pytest.CaptureFixture[str], index: str, container: str, query: str) -> list[str]:
    capsys.readouterr()
    assert cli("search", query, "--mode", "text", "--index", index, "--container", container, "--json") == 0
    return [h["doc_id"] for h in json.loads(capsys.readouterr().out)]


def test_two_projects_with_a_readme_each_keep_both(
    tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    a = project(tmp_path / "projA", "Project A uses PostgreSQL 15")
    b = project(tmp_path / "projB", "Project B uses MongoDB 7")
    assert cli("ingest", str(a), "--index", index_dir, "--container", "proj") == 0
    assert cli("ingest", str(b), "--index", index_dir, "--container", "proj") == 0
    # A folder keeps its name in the ids: nothing of project A was replaced.
    assert listed(capsys, index_dir, "proj") == {"projA/README.md": str(a / "README.md"),
                                                  "projB/README.md": str(b / "README.md")}
    assert text_hits(capsys, index_dir, "proj", "PostgreSQL") == ["projA/README.md"]
    assert text_hits(capsys, index_dir, "proj", "MongoDB") == ["projB/README.md"]
    # The same folders again: nothing written, nothing refused.
    assert cli("ingest", str(a), str(b), "--index", index_dir, "--container", "proj", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["docs"], report["unchanged"], report["refused"]) == (0, 2, [])


def test_a_file_that_would_take_another_files_id_is_refused_unless_asked(
    tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = project(tmp_path / "site" / "docs", "The staging server runs PostgreSQL 15.")
    second = project(tmp_path / "tool" / "docs", "The build agent runs MongoDB 7.")
    (second / "setup.md").write_text("Install the agent with the setup script.")
    assert cli("ingest", str(first), "--index", index_dir, "--container", "c") == 0
    capsys.readouterr()

    # Both folders are called docs: the second README would take the first one's id.
    assert cli("ingest", str(second), "--index", index_dir, "--container", "c") == EXIT_SKIPPED
    captured = capsys.readouterr()
    assert (f"  refused docs/README.md in container c: a document from {first / 'README.md'} has this id; "
            f"not replaced by {second / 'README.md'}") in captured.out
    assert "1 refused" in captured.out and "ingested 1 documents" in captured.out  # setup.md went in
    assert captured.err.startswith("error: 1 file refused") and "--root" in captured.err and "--replace" in captured.err
    assert text_hits(capsys, index_dir, "c", "PostgreSQL") == ["docs/README.md"]  # nothing lost
    assert text_hits(capsys, index_dir, "c", "MongoDB") == []

    assert cli("ingest", str(second), "--index", index_dir, "--container", "c", "--json") == EXIT_SKIPPED
    report = json.loads(capsys.readouterr().out)
    assert report["refused"] == [{"doc_id": "docs/README.md", "container": "c", "stored": str(first / "README.md"),
                                  "incoming": str(second / "README.md")}]

    # Asked to replace: replaced, and said so with both paths.
    assert cli("ingest", str(second), "--index", index_dir, "--container", "c", "--replace") == 0
    out = capsys.readouterr().out
    assert (f"  replaced docs/README.md in container c: was from {first / 'README.md'}, "
            f"now from {second / 'README.md'}") in out
    assert text_hits(capsys, index_dir, "c", "MongoDB") == ["docs/README.md"]
    assert text_hits(capsys, index_dir, "c", "PostgreSQL") == []


def test_a_root_tells_same_named_folders_apart(
    tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = project(tmp_path / "site" / "docs", "The staging server runs PostgreSQL 15.")
    second = project(tmp_path / "tool" / "docs", "The build agent runs MongoDB 7.")
    # Two files of one run never share an id, replace or not.
    assert cli("ingest", str(first), str(second), "--index", index_dir, "--container", "c", "--replace",
               "--json") == EXIT_SKIPPED
    report = json.loads(capsys.readouterr().out)
    assert report["docs"] == 1 and [r["incoming"] for r in report["refused"]] == [str(second / "README.md")]

    assert cli("ingest", str(first), str(second), "--index", index_dir, "--container", "other",
               "--root", str(tmp_path)) == 0
    assert set(listed(capsys, index_dir, "other")) == {"site/docs/README.md", "tool/docs/README.md"}
    # A file the container holds keeps its id, whatever root a later run names: no duplicate.
    assert cli("ingest", str(first), "--index", index_dir, "--container", "other", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["docs"], report["unchanged"]) == (0, 1)
    assert set(listed(capsys, index_dir, "other")) == {"site/docs/README.md", "tool/docs/README.md"}

    # A root that does not hold the paths is refused before the index is opened.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert cli("ingest", str(first), "--index", str(tmp_path / "new-idx"), "--root", str(elsewhere)) == 2
    assert "not under --root" in capsys.readouterr().err
    assert not (tmp_path / "new-idx").exists()


def test_a_file_given_by_itself_is_known_by_its_name(tmp_path: Path, index_dir: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    docs = project(tmp_path / "docs", "Pump P-7 needs new seals.")
    assert cli("ingest", str(docs / "README.md"), "--index", index_dir) == 0
    assert listed(capsys, index_dir, "default") == {"README.md": str(docs / "README.md")}
    # The same file through its folder is the same document.
    assert cli("ingest", str(docs), "--index", index_dir, "--json") == 0
    assert json.loads(capsys.readouterr().out)["unchanged"] == 1
    assert set(listed(capsys, index_dir, "default")) == {"README.md"}


# --- indexes written before ------------------------------------------------------------------


def old_payload(chunk: Chunk, complete: bool) -> dict[str, Any]:
    """The payload as ingest wrote it before documents had an origin."""
    payload = common.chunk_payload(chunk, complete)
    del payload["origin"]
    return payload


def write_as_before(backend: EdgeBackend, folder: Path, container: str, tags: Sequence[str],
                    monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What ingest wrote before: ids relative to the folder given, the absolute path of the file as source, the
    tags in the content hash, no origin."""
    chunker = Chunker()
    chunks: list[Chunk] = []
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        doc_id = f.relative_to(folder).as_posix()
        loaded = LOADERS[f.suffix](f)
        pieces = [t for sec in loaded.sections for t in chunker.split(sec.text)]
        h = _hash(f.read_bytes(), tags, chunker.signature)
        context = summary_line(loaded.title, " ".join(s.text for s in loaded.sections))
        chunks += [Chunk(chunk_id=make_chunk_id(container, doc_id, i), doc_id=doc_id, index=i, title=loaded.title,
                         text=t, container=container, tags=tuple(tags), context=context, source=str(f.resolve()),
                         kind=loaded.kind, content_hash=h, chunk_count=len(pieces)) for i, t in enumerate(pieces)]
    with monkeypatch.context() as m:
        m.setattr(edge, "chunk_payload", old_payload)
        backend.upsert(chunks)
    return sorted({c.doc_id for c in chunks})


def test_an_index_written_before_keeps_its_ids_and_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = project(tmp_path / "projA", "Project A uses PostgreSQL 15 for its ledger.")
    (a / "notes.txt").write_text("The ledger is backed up every night at two.")
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        assert write_as_before(backend, a, "proj", ["team"], monkeypatch) == ["README.md", "notes.txt"]
        raw = [r.payload for r in backend._scroll(None)]
        assert raw and all("origin" not in p and p["source"].startswith(str(a.resolve())) for p in raw)

        # Read as it is: a reader sees the path relative to the folder that was ingested, not the machine's.
        hit = backend.text_search("PostgreSQL", Scope(("proj",), ("team",)), 1)[0]
        assert (hit.doc_id, hit.chunk.source, hit.chunk.origin) == ("README.md", "README.md",
                                                                     str((a / "README.md").resolve()))

        # Ingested again by this version: the same ids, nothing embedded, the tags kept.
        counting = CountingEmbeds(backend)
        report = ingest_paths(backend, [a], container="proj", progress=False)
        assert (report.docs, report.unchanged, report.refused, counting.texts) == (0, 2, [], 0)
        assert sorted(backend.document_sources("proj")) == ["README.md", "notes.txt"]
        assert backend.text_search("ledger", Scope(("proj",), ("team",)), 5)
        # ... and its payloads now say where they came from: nothing is re-read on the next run either.
        raw = [r.payload for r in backend._scroll(None)]
        assert {p["source"] for p in raw} == {"README.md", "notes.txt"}
        assert {p["origin"] for p in raw} == {str((a / "README.md").resolve()), str((a / "notes.txt").resolve())}
        again = ingest_paths(backend, [a], container="proj", progress=False)
        assert (again.docs, again.unchanged, counting.texts) == (0, 2, 0)

        # Another project with the same file names goes beside it.
        b = project(tmp_path / "projB", "Project B uses MongoDB 7.")
        other = ingest_paths(backend, [b], container="proj", progress=False)
        assert (other.docs, other.refused) == (1, [])
        assert sorted(backend.document_sources("proj")) == ["README.md", "notes.txt", "projB/README.md"]

        # Pruning finds the old documents' files too.
        (a / "notes.txt").unlink()
        pruned = ingest_paths(backend, [a], container="proj", progress=False, prune=True)
        assert pruned.removed == ["notes.txt"]


def test_a_root_must_be_a_folder_holding_every_path(tmp_path: Path) -> None:
    docs = project(tmp_path / "docs", "text")
    (tmp_path / "other").mkdir()
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        with pytest.raises(IngestError, match="not under --root"):
            ingest_paths(backend, [docs], root=tmp_path / "other", progress=False)
        with pytest.raises(IngestError, match="is not a folder"):
            ingest_paths(backend, [docs], root=docs / "README.md", progress=False)
        assert backend.count() == 0
        assert ingest_paths(backend, [docs], root=tmp_path, progress=False).docs == 1
        assert set(backend.document_sources("default")) == {"docs/README.md"}


def test_two_corpora_sharing_an_id_do_not_replace_each_other(tmp_path: Path) -> None:
    from hopgraph.index.ingest import ingest_beir

    for name, text in (("first", "Glaciers retreat in warm summers."), ("second", "Proteins fold into shapes.")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "title": name, "text": text}) + "\n")
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        # The ids stay the corpus's own _ids (the shared sets' qrels name them).
        assert ingest_paths(backend, [tmp_path / "first"], progress=False).docs == 1
        refused = ingest_beir(backend, tmp_path / "second" / "corpus.jsonl", progress=False)
        assert refused.docs == 0 and [(c.doc_id, c.stored, c.incoming) for c in refused.refused] == [
            ("d1", f"{tmp_path / 'first' / 'corpus.jsonl'}#d1", f"{tmp_path / 'second' / 'corpus.jsonl'}#d1")]
        assert backend.text_search("glaciers", Scope(("default",)), 1)[0].chunk.source == "first/corpus.jsonl#d1"
        replaced = ingest_beir(backend, tmp_path / "second" / "corpus.jsonl", progress=False, replace=True)
        assert replaced.docs == 1 and len(replaced.replaced) == 1
        assert backend.text_search("proteins", Scope(("default",)), 1)[0].doc_id == "d1"


def test_pruning_a_folder_keeps_the_records_of_its_corpus(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "title": "Ice", "text": "Glaciers retreat."}) + "\n")
    (folder / "notes.txt").write_text("Field notes from the glacier camp.")
    with EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")) as backend:
        assert ingest_paths(backend, [folder], progress=False).docs == 2
        (folder / "notes.txt").unlink()
        # A record's origin names its corpus, which is still there: only the deleted file's document goes.
        assert ingest_paths(backend, [folder], progress=False, prune=True).removed == ["data/notes.txt"]
        assert set(backend.document_sources("default")) == {"d1"}
