"""Re-syncs keep what the user set: a run without --tags keeps the tags documents have; changed tags are set in
place, without embedding unchanged text again; the README's ingest, re-sync and tagged search run as written."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hopgraph.index.backend import Scope
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.ingest import ingest_beir, ingest_paths
from tests.support.embedding import CountingEmbeds

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = "hopgraph/demo/data/legal/contracts"


def readme_contract_commands() -> list[list[str]]:
    """The README's commands on the contracts folder and container, in the README's order."""
    readme = (ROOT / "README.md").read_text()
    use = readme.split("\n## Use\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", use, re.S)
    assert block is not None
    commands = [shlex.split(line, comments=True) for line in block.group(1).splitlines() if line.strip()]
    return [c for c in commands if "contracts" in c]


def test_the_readme_sequence_keeps_the_tags_its_search_needs(tmp_path: Path) -> None:
    commands = readme_contract_commands()
    # ingest with tags, re-sync without them, then search by tag
    assert [c[:2] for c in commands] == [["hopgraph", "ingest"], ["hopgraph", "ingest"], ["hopgraph", "search"]]
    assert "--tags" in commands[0] and "--prune" in commands[1] and "--tags" not in commands[1]
    assert "--tag" in commands[2]
    env = {k: v for k, v in os.environ.items() if k not in ("HOPGRAPH_INDEX", "QDRANT_URL", "HOPGRAPH_MODEL")}
    env["HOPGRAPH_INDEX"] = str(tmp_path / "index")
    outputs = []
    for command in commands:
        proc = subprocess.run([sys.executable, "-m", "hopgraph.cli", *command[1:]], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, (command, proc.stdout, proc.stderr)
        outputs.append(proc.stdout)
    files = len(list((ROOT / CONTRACTS).iterdir()))
    assert f"ingested {files} documents" in outputs[0]
    # The re-sync skips every unchanged file, as the README says, and keeps their tags.
    assert outputs[1].startswith(f"ingested 0 documents (0 chunks, 0 chunks/s), {files} unchanged, 0 skipped")
    assert "(no results)" not in outputs[2] and "contracts/" in outputs[2] and "agreement" in outputs[2]


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[EdgeBackend]:
    with EdgeBackend(tmp_path / "index", embedder=get_embedder("minilm")) as b:
        yield b


def tagged(backend: EdgeBackend, query: str, *tags: str) -> list[str]:
    return list(dict.fromkeys(h.doc_id for h in backend.text_search(query, Scope(("default",), tags), 5)))


def test_tags_change_in_place_and_a_run_without_tags_keeps_them(backend: EdgeBackend, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    long = " ".join(f"Clause {i} sets the harbour fees for vessel class {i}." for i in range(120))
    (docs / "fees.txt").write_text(long)
    (docs / "tides.md").write_text("# Tides\n\nHigh water at the pier comes twice a day.")
    counting = CountingEmbeds(backend)
    first = ingest_paths(backend, [docs], tags=["2026", "port"], progress=False)
    chunks = backend.count()
    assert first.docs == 2 and chunks > 3 and counting.texts == chunks

    # New tags: set on every chunk, nothing embedded.
    retag = ingest_paths(backend, [docs], tags=["2027"], progress=False)
    assert (retag.docs, retag.retagged, retag.unchanged, retag.chunks) == (0, 2, 0, 0)
    assert "0 unchanged, 2 retagged" in retag.summary() and retag.to_dict()["retagged"] == 2
    assert counting.texts == chunks and backend.count() == chunks
    assert tagged(backend, "harbour fees", "2027") == ["docs/fees.txt"]
    assert tagged(backend, "harbour fees", "port") == []
    assert all(c.tags == ("2027",) for c in backend.read("docs/fees.txt", Scope(("default",))).chunks)  # type: ignore[union-attr]

    # A re-sync that names no tags keeps them, even for a file whose text changed.
    (docs / "tides.md").write_text("# Tides\n\nHigh water at the pier comes twice a day, low water at noon.")
    resync = ingest_paths(backend, [docs], progress=False)
    assert (resync.docs, resync.unchanged, resync.retagged) == (1, 1, 0)
    assert tagged(backend, "high water pier", "2027") == ["docs/tides.md"]
    assert tagged(backend, "harbour fees", "2027") == ["docs/fees.txt"]

    # An empty tag list takes them off.
    cleared = ingest_paths(backend, [docs], tags=[], progress=False)
    assert cleared.retagged == 2 and tagged(backend, "harbour fees", "2027") == []
    assert tagged(backend, "harbour fees") == ["docs/fees.txt"]


def test_cli_tags_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hopgraph.cli import main
    from hopgraph.index import factory

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("Forklift inspections happen every Monday.")
    index = str(tmp_path / "idx")
    try:
        assert main(["ingest", str(docs), "--index", index, "--tags", "safety"]) == 0
        assert main(["ingest", str(docs), "--index", index, "--json"]) == 0
        capsys.readouterr()
        assert main(["search", "forklift", "--index", index, "--tag", "safety", "--json"]) == 0
        assert [h["doc_id"] for h in json.loads(capsys.readouterr().out)] == ["docs/a.txt"]
        assert main(["ingest", str(docs), "--index", index, "--tags", "", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["retagged"] == 1
        assert main(["search", "forklift", "--index", index, "--tag", "safety"]) == 0
        assert "(no results)" in capsys.readouterr().out
    finally:
        factory.close_all()


def test_beir_records_are_retagged_in_place(backend: EdgeBackend, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"_id": f"d{i}", "title": f"T{i}", "text": f"Passage {i} on glaciers."}) + "\n"
                              for i in range(4)))
    counting = CountingEmbeds(backend)
    assert ingest_beir(backend, corpus, tags=["sci"], progress=False).docs == 4
    again = ingest_beir(backend, corpus, tags=["sci", "v2"], progress=False)
    assert (again.docs, again.retagged, counting.texts) == (0, 4, 4)
    assert len(tagged(backend, "glaciers", "v2")) == 4
    kept = ingest_beir(backend, corpus, progress=False)
    assert (kept.unchanged, len(tagged(backend, "glaciers", "v2"))) == (4, 4)
    # BEIR ids are the corpus's own; the source a reader sees names the corpus file, not where it lay.
    hit = backend.text_search("glaciers", Scope(("default",)), 1)[0]
    assert hit.doc_id.startswith("d") and hit.chunk.source == f"corpus.jsonl#{hit.doc_id}"
    assert hit.chunk.origin == f"{corpus.resolve()}#{hit.doc_id}"
