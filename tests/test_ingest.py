"""Ingestion: every file type, idempotence, crash safety, BEIR corpora and the CLI commands."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from hopgraph.commands.ingest import EXIT_SKIPPED
from hopgraph.index import factory
from hopgraph.index.backend import Chunk, Scope
from hopgraph.index.chunking import Chunker, summary_line
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.ingest import ingest_beir, ingest_paths

S = Scope(("default",))


def make_files(root: Path) -> Path:
    import docx
    import openpyxl
    from fpdf import FPDF

    root.mkdir(parents=True, exist_ok=True)
    (root / "sub").mkdir()
    (root / "notes.txt").write_text("The lighthouse keeper logged every ship. Storms came in winter.")
    (root / "sub" / "orbits.md").write_text("# Orbital Mechanics\n\nKepler's laws describe planetary orbits.")
    (root / "coffee.html").write_text(
        "<html><head><title>Coffee Guide</title></head><body><h1>Brewing</h1>"
        "<p>Espresso needs finely ground beans.</p><script>var hidden = 'scriptword';</script></body></html>"
    )
    (root / "fruit.csv").write_text("name,color\napple,red\nbanana,yellow\n")
    (root / "broken.pdf").write_text("this is not a pdf")
    (root / ".hidden.txt").write_text("should never be read")
    (root / "image.png").write_bytes(b"\x89PNG\r\n")
    pdf = FPDF()
    for i in range(3):
        pdf.add_page()
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 10, f"Page {i + 1} of the volcano report. Magma chamber number {i + 1} rises.")
    pdf.output(str(root / "report.pdf"))
    d = docx.Document()
    d.add_paragraph("Quarterly budget memo: travel costs went down.")
    d.save(str(root / "memo.docx"))
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Stock"
    ws.append(["item", "qty"])
    ws.append(["bolts", 40])
    ws.append(["nuts", 12])
    wb.save(str(root / "stock.xlsx"))
    return root


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[EdgeBackend]:
    b = EdgeBackend(tmp_path / "index", embedder=get_embedder("minilm"))
    yield b
    b.close()


def chunks_of(b: EdgeBackend, doc_id: str, container: str = "default") -> list[Chunk]:
    doc = b.read(doc_id, Scope((container,)))
    assert doc is not None, doc_id
    return list(doc.chunks)


def test_ingest_folder_of_every_type(backend: EdgeBackend, tmp_path: Path) -> None:
    root = make_files(tmp_path / "files")
    rep = ingest_paths(backend, [root], container="default", tags=["demo", "q3"], progress=False)
    assert rep.docs == 7
    assert rep.unchanged == 0
    skipped = dict(rep.skipped)
    assert set(skipped) == {str(root / "broken.pdf"), str(root / "image.png")}
    assert "unsupported file type .png" in skipped[str(root / "image.png")]
    assert rep.hidden == [str(root / ".hidden.txt")] and "left out 1 hidden paths" in rep.summary()
    assert rep.chunks == backend.count()
    # A folder keeps its name in the ids; a reader sees that relative path as the source.
    expect = {
        "files/notes.txt": ("notes", "txt"), "files/sub/orbits.md": ("Orbital Mechanics", "md"),
        "files/coffee.html": ("Coffee Guide", "html"), "files/fruit.csv": ("fruit", "table"),
        "files/report.pdf": ("report", "pdf"), "files/memo.docx": ("memo", "docx"),
        "files/stock.xlsx": ("stock", "table"),
    }
    for doc_id, (title, kind) in expect.items():
        cs = chunks_of(backend, doc_id)
        assert {(c.title, c.kind) for c in cs} == {(title, kind)}, doc_id
        assert all(c.tags == ("demo", "q3") for c in cs)
        assert all(c.context and c.context == cs[0].context for c in cs)
        assert all(c.source == doc_id for c in cs)
        assert all(c.origin == str((tmp_path / doc_id).resolve()) for c in cs)
        if kind != "pdf":
            assert all(c.page is None for c in cs)
    pdf = chunks_of(backend, "files/report.pdf")
    assert [c.page for c in pdf] == [1, 2, 3]
    assert "Magma chamber number 2" in pdf[1].text
    assert "scriptword" not in chunks_of(backend, "files/coffee.html")[0].text
    assert "Espresso needs finely ground beans." in chunks_of(backend, "files/coffee.html")[0].text
    stock = chunks_of(backend, "files/stock.xlsx")[0].text
    assert "item: bolts" in stock and "qty: 40" in stock
    assert chunks_of(backend, "files/sub/orbits.md")[0].context.startswith("Orbital Mechanics")
    assert backend.search("magma volcano", Scope(("default",), ("demo",)), 1)[0].doc_id == "files/report.pdf"
    assert backend.text_search("bolts", S, 1)[0].doc_id == "files/stock.xlsx"


def test_rerun_skips_unchanged_and_replaces_changed(backend: EdgeBackend, tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    long_text = "\n\n".join(f"Section {i}. " + "The committee reviewed the harbour dredging plan. " * 12
                            for i in range(12))
    (root / "long.txt").write_text(long_text)
    (root / "short.txt").write_text("A short note about pelicans.")
    first = ingest_paths(backend, [root], progress=False)
    n_long = len(chunks_of(backend, "docs/long.txt"))
    assert first.docs == 2 and n_long > 5
    second = ingest_paths(backend, [root], progress=False)
    assert (second.docs, second.unchanged, second.chunks) == (0, 2, 0)
    (root / "long.txt").write_text("Now the long document is short and about herons.")
    third = ingest_paths(backend, [root], progress=False)
    assert (third.docs, third.unchanged) == (1, 1)
    cs = chunks_of(backend, "docs/long.txt")
    assert len(cs) == 1 and "herons" in cs[0].text
    assert backend.count() == 2
    assert backend.text_search("dredging", S, 5) == []
    # New tags are set in place: nothing is written again.
    fourth = ingest_paths(backend, [root], tags=["birds"], progress=False)
    assert (fourth.docs, fourth.retagged, fourth.unchanged, fourth.chunks) == (0, 2, 0, 0)
    assert backend.search("herons", Scope(("default",), ("birds",)), 1)[0].doc_id == "docs/long.txt"


def test_chunks_are_token_sized_with_overlap(backend: EdgeBackend, tmp_path: Path) -> None:
    from hopgraph.tokens import get_encoding

    words = [f"w{i}" for i in range(1500)]
    (tmp_path / "big.txt").write_text(" ".join(words))
    ingest_paths(backend, [tmp_path / "big.txt"], progress=False)
    cs = chunks_of(backend, "big.txt")
    enc = get_encoding()
    sizes = [len(enc.encode(c.text)) for c in cs]
    assert len(cs) > 5 and max(sizes) <= 200
    assert cs[0].text.split()[-1] in cs[1].text.split()[:40]  # overlap
    assert cs[0].text.startswith("w0 w1") and cs[-1].text.endswith("w1499")
    assert all(c.chunk_count == len(cs) for c in cs)


class CrashingBackend(EdgeBackend):
    """Dies after a given number of upsert batches, like a process killed mid-ingest."""

    crash_after = 1

    def upsert(self, chunks: Sequence[Chunk]) -> None:
        if self.crash_after == 0:
            raise KeyboardInterrupt("simulated crash")
        self.crash_after -= 1
        super().upsert(chunks)


def test_interrupted_ingest_is_invisible_then_finished(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "big.txt").write_text(" ".join(f"token{i}" for i in range(1500)))
    b = CrashingBackend(tmp_path / "index", embedder=get_embedder("minilm"))
    try:
        with pytest.raises(KeyboardInterrupt):
            ingest_paths(b, [root], progress=False, batch=8)
        assert 0 < b.count() < 30  # some chunks landed
        assert b.read("docs/big.txt", S) is None
        assert b.document_hash("docs/big.txt", "default") is None
        assert b.text_search("token5", S, 5) == []
        b.crash_after = 10**6
        rep = ingest_paths(b, [root], progress=False, batch=8)
        assert rep.docs == 1
        doc = b.read("docs/big.txt", S)
        assert doc is not None
        assert b.count() == len(doc.chunks) == doc.chunks[0].chunk_count
        assert [c.index for c in doc.chunks] == list(range(len(doc.chunks)))
    finally:
        b.close()


def write_corpus(path: Path, n: int = 30) -> Path:
    with path.open("w") as f:
        for i in range(n):
            f.write(json.dumps({"_id": f"doc-{i}", "title": f"Title {i}",
                                "text": f"Abstract number {i} about {'glaciers' if i == 7 else 'proteins'}."}) + "\n")
        f.write("\n")
        f.write("{not json\n")
    return path


def test_ingest_beir_corpus(backend: EdgeBackend, tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus.jsonl")
    rep = ingest_beir(backend, corpus, container="sci", progress=False)
    assert (rep.docs, rep.chunks) == (30, 30)
    assert len(rep.skipped) == 1 and rep.skipped[0][1].startswith("bad record")
    hit = backend.search("glaciers", Scope(("sci",)), 1)[0]
    assert hit.doc_id == "doc-7" and hit.chunk.title == "Title 7" and hit.chunk.kind == "beir"
    assert hit.chunk.context == "Title 7: Abstract number 7 about glaciers."
    again = ingest_paths(backend, [corpus], container="sci", progress=False)  # via the generic entry point
    assert (again.docs, again.unchanged) == (0, 30)


def test_ingest_beir_limit_and_progress(backend: EdgeBackend, tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus.jsonl")
    # The first five lines only; the progress bar counts the lines it is sized by without holding them.
    rep = ingest_beir(backend, corpus, container="sci", progress=True, limit=5)
    assert (rep.docs, rep.chunks, rep.skipped) == (5, 5, [])
    assert sorted(backend.container_documents()) == ["sci"]
    assert backend.read("doc-4", Scope(("sci",))) is not None and backend.read("doc-5", Scope(("sci",))) is None


def test_a_corpus_among_paths_shows_its_documents_on_a_bar(backend: EdgeBackend, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_corpus(tmp_path / "corpus.jsonl")
    ingest_paths(backend, [corpus], container="sci", progress=True)
    shown = capsys.readouterr().err.replace("\r", "\n")
    # The corpus's own bar counts its lines (30 records, a bad one, an empty one), not just the one file.
    assert "32/32" in shown and "doc/s" in shown and "1/1" in shown


def test_count_lines_counts_a_last_line_without_newline(tmp_path: Path) -> None:
    from hopgraph.index.ingest import _count_lines

    for content, expected in ((b"", 0), (b"a\n", 1), (b"a\nb", 2), (b"a\n\nb\n", 3), (b"x" * (3 << 20), 1)):
        f = tmp_path / "f.jsonl"
        f.write_bytes(content)
        with f.open("rb") as fh:
            assert _count_lines(fh) == expected, content[:10]


def test_summary_line() -> None:
    assert summary_line("Title", "First sentence here. Second one.") == "Title: First sentence here."
    assert summary_line("", "No title at all") == "No title at all"
    assert len(summary_line("T", "x" * 1000)) == 200


def test_chunker_handles_special_tokens() -> None:
    assert Chunker().split("text with <|endoftext|> inside") == ["text with <|endoftext|> inside"]


# --- CLI ------------------------------------------------------------------------------------


def test_prune_removes_documents_whose_files_are_gone(backend: EdgeBackend, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "keep.txt").write_text("The harbour master keeps the tide tables.")
    (docs / "sub" / "gone.md").write_text("# Old policy\n\nTravel must be booked through the portal.")
    (docs / "turns-broken.txt").write_text("The boiler room checklist has nine steps.")
    other = tmp_path / "other"
    other.mkdir()
    (other / "elsewhere.txt").write_text("Greenhouse tomatoes need warm nights.")
    ingest_paths(backend, [docs], progress=False)
    ingest_paths(backend, [other], progress=False)
    ingest_paths(backend, [docs], container="archive", progress=False)
    assert set(backend.document_sources("default")) == {"docs/keep.txt", "docs/sub/gone.md", "docs/turns-broken.txt",
                                                        "other/elsewhere.txt"}

    (docs / "sub" / "gone.md").unlink()
    (other / "elsewhere.txt").unlink()  # gone too, but not under the folder being ingested
    # Renamed, and broken on the way: the old id goes, the new file is reported and skipped.
    (docs / "turns-broken.txt").rename(docs / "renamed.pdf")
    (docs / "renamed.pdf").write_bytes(b"not a pdf")

    plain = ingest_paths(backend, [docs], progress=False)
    assert plain.removed == [] and backend.read("docs/sub/gone.md", S) is not None  # nothing removed without prune

    rep = ingest_paths(backend, [docs], progress=False, prune=True)
    assert rep.removed == ["docs/sub/gone.md", "docs/turns-broken.txt"]
    assert [path for path, _ in rep.skipped] == [str(docs / "renamed.pdf")]
    assert "removed 2 documents whose files are gone" in rep.summary()
    assert rep.to_dict()["removed"] == ["docs/sub/gone.md", "docs/turns-broken.txt"]
    assert backend.read("docs/sub/gone.md", S) is None
    assert backend.read("docs/keep.txt", S) is not None
    assert backend.read("other/elsewhere.txt", S) is not None  # outside the pruned folder: kept
    # The same documents in another container are that container's business.
    assert backend.read("docs/sub/gone.md", Scope(("archive",))) is not None
    assert set(backend.document_sources("default")) == {"docs/keep.txt", "other/elsewhere.txt"}


def test_prune_keeps_documents_whose_files_exist_but_fail(backend: EdgeBackend, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("Forklift inspections happen every Monday.")
    ingest_paths(backend, [docs], progress=False)
    (docs / "a.txt").write_bytes(b"")  # still there, now empty: skipped, and not a reason to delete
    rep = ingest_paths(backend, [docs], progress=False, prune=True)
    assert rep.removed == [] and [path for path, _ in rep.skipped] == [str(docs / "a.txt")]
    assert backend.read("docs/a.txt", S) is not None


def cli(*argv: str) -> int:
    from hopgraph.cli import main

    return main(list(argv))


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[str]:
    path = str(tmp_path / "cli-index")
    yield path
    factory.close_all()


def test_cli_ingest_search_delete(tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_files(tmp_path / "files")
    # broken.pdf and image.png are skipped: the run says so in its exit status.
    assert cli("ingest", str(root), "--index", index_dir, "--container", "team", "--tags", "a,b") == EXIT_SKIPPED
    out = capsys.readouterr().out
    assert "ingested 7 documents" in out and "skipped" in out and "broken.pdf" in out

    (root / "notes.txt").unlink()
    assert cli("ingest", str(root), "--index", index_dir, "--container", "team", "--tags", "a,b", "--prune",
               "--json") == EXIT_SKIPPED
    report = json.loads(capsys.readouterr().out)
    assert report["removed"] == ["files/notes.txt"] and report["docs"] == 0 and report["unchanged"] == 6

    assert cli("search", "magma chamber", "--index", index_dir, "--container", "team", "--json") == 0
    hits: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    assert hits[0]["doc_id"] == "files/report.pdf"
    assert set(hits[0]) == {"doc_id", "title", "score", "page", "container"}
    assert hits[0]["container"] == "team" and hits[0]["page"] in (1, 2, 3)
    assert len({h["doc_id"] for h in hits}) == len(hits)  # one row per document

    assert cli("search", "bolts", "--mode", "text", "--index", index_dir, "--container", "team",
               "--tag", "a", "--tag", "b") == 0
    out = capsys.readouterr().out
    assert "files/stock.xlsx" in out.splitlines()[0]
    # The default container holds nothing here: said so, with the containers that do hold documents.
    assert cli("search", "bolts", "--index", index_dir, "--json") == 2
    err = capsys.readouterr().err
    assert "container 'default' holds no documents" in err and "team" in err and err.count("\n") == 1

    assert cli("delete", "--doc", "files/stock.xlsx", "--index", index_dir, "--container", "team") == 0
    assert "deleted files/stock.xlsx" in capsys.readouterr().out
    assert cli("delete", "--doc", "files/stock.xlsx", "--index", index_dir) == 2
    assert "error: no document 'files/stock.xlsx'" in capsys.readouterr().err


def test_cli_ingest_reports_skipped_files_in_its_exit_status(
    tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pumps.txt").write_bytes("Pump P-7 needs new seals before the café opens.".encode("cp1252"))
    (docs / "valves.md").write_text("# Valves\n\nValve V-2 leaks at high pressure.")
    (docs / "scan.pdf").write_bytes(b"%PDF-1.7 not really a pdf")
    (docs / "noise.txt").write_bytes(bytes(range(256)) * 4)
    broken = {str(docs / "scan.pdf"), str(docs / "noise.txt")}

    assert cli("ingest", str(docs), "--index", index_dir) == EXIT_SKIPPED == 3
    out = capsys.readouterr().out
    assert "ingested 2 documents" in out and "2 skipped" in out
    skipped_lines = [line for line in out.splitlines() if line.startswith("  skipped ")]
    assert {line.split(": ", 1)[0].removeprefix("  skipped ") for line in skipped_lines} == broken
    assert all(line.split(": ", 1)[1].strip() for line in skipped_lines)  # each with its reason
    assert f"  skipped {docs / 'noise.txt'}: TextEncodingError: cannot tell the text encoding" in out

    # The same run as JSON: the same exit status, each skipped file with its reason.
    assert cli("ingest", str(docs), "--index", index_dir, "--json") == 3
    report = json.loads(capsys.readouterr().out)
    assert report["unchanged"] == 2 and {s["path"] for s in report["skipped"]} == broken
    assert all(s["reason"] for s in report["skipped"])

    # What could be read stays ingested and searchable.
    assert cli("search", "pump seals", "--index", index_dir, "--json") == 0
    assert json.loads(capsys.readouterr().out)[0]["doc_id"] == "docs/pumps.txt"
    assert cli("search", "valve leaks", "--index", index_dir, "--json") == 0
    assert json.loads(capsys.readouterr().out)[0]["doc_id"] == "docs/valves.md"

    # Once the broken files are gone, a run exits 0.
    for path in broken:
        Path(path).unlink()
    assert cli("ingest", str(docs), "--index", index_dir) == 0
    assert "0 skipped" in capsys.readouterr().out


def test_ingest_help_documents_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli("ingest", "--help")
    help_text = " ".join(capsys.readouterr().out.split())
    assert "3 when some files were skipped" in help_text


def test_cli_errors_are_one_line(tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("ingest", str(tmp_path / "missing"), "--index", index_dir) == 2
    assert capsys.readouterr().err.startswith("error: no such file or folder")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    # Reading never creates an index: a path that cannot hold one is a missing index, in one line.
    assert cli("search", "x", "--index", str(blocker / "idx")) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no index at") and err.count("\n") == 1
    assert not (blocker / "idx").exists()
