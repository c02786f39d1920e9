"""Every path under an ingested folder is accounted for: ingested, or listed with the reason it is not (and the run
exits 3); names starting with a dot are left out and listed apart."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from hopgraph.commands.ingest import EXIT_SKIPPED
from hopgraph.index import factory
from hopgraph.index.walk import walk


def cli(*argv: str) -> int:
    from hopgraph.cli import main

    return main(list(argv))


@pytest.fixture
def unix_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "docs" / "control.sock"
    path.parent.mkdir(exist_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.bind(str(path))
        yield path


def odd_folder(docs: Path, outside: Path) -> dict[str, str]:
    """A folder with one of each kind of path that is not a readable file, and the reason each must get."""
    docs.mkdir(exist_ok=True)
    outside.mkdir()
    (docs / "manual.md").write_text("# Pump manual\n\nPump P-7 needs new seals every six months.")
    (outside / "shared.txt").write_text("The shared drive is backed up nightly.")
    (outside / "team").mkdir()
    (outside / "team" / "roster.txt").write_text("Ana works the night shift on Fridays.")
    (docs / "shared.txt").symlink_to(outside / "shared.txt")  # a link to a file: read under its own name
    (docs / "team").symlink_to(outside / "team")  # a link to a folder: walked
    (docs / "gone.txt").symlink_to(docs / "deleted.txt")
    os.mkfifo(docs / "pipe.txt")
    (docs / "again").symlink_to(docs)  # leads back to the folder it is in
    (docs / "self.txt").symlink_to(docs / "self.txt")
    (docs / "logo.png").write_bytes(b"\x89PNG\r\n")
    (docs / "empty.txt").write_text("")
    (docs / ".env").write_text("SECRET=1")
    (docs / ".git").mkdir()
    (docs / ".git" / "config").write_text("[core]")
    return {
        str(docs / "gone.txt"): f"symlink target missing ({docs / 'deleted.txt'})",
        str(docs / "pipe.txt"): "not a regular file (a named pipe)",
        str(docs / "control.sock"): "not a regular file (a socket)",
        str(docs / "again"): f"symlink loop: leads back to a folder above it ({docs.resolve()})",
        str(docs / "self.txt"): "symlink loop",
        str(docs / "logo.png"): "unsupported file type .png",
        str(docs / "empty.txt"): "no text found",
    }


def test_walk_names_every_path(tmp_path: Path, unix_socket: Path) -> None:
    docs = unix_socket.parent
    expected = odd_folder(docs, tmp_path / "outside")
    walked = walk([docs])
    assert [str(f) for f, _ in walked.files] == [str(docs / n) for n in ("empty.txt", "logo.png", "manual.md",
                                                                          "shared.txt", "team/roster.txt")]
    assert {root for _, root in walked.files} == {tmp_path}
    unreadable = {p: r for p, r in expected.items() if not p.endswith(("logo.png", "empty.txt"))}
    assert dict(walked.skipped) == unreadable
    assert walked.hidden == [str(docs / ".env"), str(docs / ".git")]


def test_cli_lists_every_path_not_ingested_and_exits_3(
    tmp_path: Path, unix_socket: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = unix_socket.parent
    expected = odd_folder(docs, tmp_path / "outside")
    index = str(tmp_path / "idx")
    try:
        assert cli("ingest", str(docs), "--index", index, "--json") == EXIT_SKIPPED
        report = json.loads(capsys.readouterr().out)
        assert {s["path"]: s["reason"] for s in report["skipped"]} == expected
        assert report["docs"] == 3 and report["hidden"] == [str(docs / ".env"), str(docs / ".git")]

        assert cli("ingest", str(docs), "--index", index) == EXIT_SKIPPED
        out = capsys.readouterr().out
        assert f"{len(expected)} skipped" in out and "3 unchanged" in out
        for path, reason in expected.items():
            assert f"  skipped {path}: {reason}" in out
        assert f"  left out 2 hidden paths (names starting with '.'): {docs / '.env'}, {docs / '.git'}" in out

        # Linked files and folders are read under the names they have here.
        assert cli("list", "--index", index, "--json") == 0
        capsys.readouterr()
        assert cli("list", "--index", index, "--container", "default", "--json") == 0
        ids = {d["doc_id"] for d in json.loads(capsys.readouterr().out)["documents"]}
        assert ids == {"docs/manual.md", "docs/shared.txt", "docs/team/roster.txt"}

        # A named pipe given by itself is not read (which would wait for a writer for ever): it is listed.
        assert cli("ingest", str(docs / "pipe.txt"), "--index", index) == EXIT_SKIPPED
        assert f"  skipped {docs / 'pipe.txt'}: not a regular file (a named pipe)" in capsys.readouterr().out
    finally:
        factory.close_all()


def test_a_clean_folder_exits_0_with_hidden_files_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("Forklift inspections happen every Monday.")
    (docs / ".DS_Store").write_bytes(b"\x00\x01")
    try:
        assert cli("ingest", str(docs), "--index", str(tmp_path / "idx")) == 0
        out = capsys.readouterr().out
        assert "0 skipped" in out and "left out 1 hidden paths" in out
    finally:
        factory.close_all()
