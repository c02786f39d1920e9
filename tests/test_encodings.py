"""Text files in the encodings people's tools save them in are ingested with exactly their text."""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path

import pytest

from hopgraph.index.backend import Scope
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.ingest import ingest_paths
from hopgraph.index.loaders import decode_text, detect_encoding

S = Scope(("default",))

# What each encoding can hold: Latin-1 has no euro sign and no curly quotes; cp1252 has both.
LATIN1_TEXT = "Le café de la rue Saint-Honoré sert une crème brûlée. Señor Müller paie 5 francs."
CP1252_TEXT = "\u201cSmart quotes\u201d and \u2018single\u2019 ones \u2013 the café charges 3 € for a naïve crème\u2026"
UNICODE_TEXT = CP1252_TEXT + " Привет из Москвы, 東京の天気."


def encode(text: str, encoding: str) -> bytes:
    """``text`` as a file saved in ``encoding``; ``utf-16-be+bom`` is big-endian UTF-16 with its mark."""
    if encoding == "utf-16-be+bom":
        return codecs.BOM_UTF16_BE + codecs.encode(text, "utf-16-be")
    return codecs.encode(text, encoding)


CASES = {
    "utf-8": UNICODE_TEXT,
    "utf-8-sig": UNICODE_TEXT,  # UTF-8 with a byte-order mark, as Notepad saves it
    "utf-16": UNICODE_TEXT,  # little-endian with its byte-order mark, as Windows tools save "Unicode"
    "utf-16-be+bom": UNICODE_TEXT,
    "latin-1": LATIN1_TEXT,
    "cp1252": CP1252_TEXT,
}


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[EdgeBackend]:
    b = EdgeBackend(tmp_path / "index", embedder=get_embedder("minilm"))
    yield b
    b.close()


def text_of(b: EdgeBackend, doc_id: str) -> tuple[str, str]:
    doc = b.read(doc_id, S)
    assert doc is not None, doc_id
    assert len(doc.chunks) == 1, doc_id
    return doc.chunks[0].title, doc.chunks[0].text


@pytest.mark.parametrize("encoding", list(CASES))
def test_txt_md_csv_in_each_encoding(backend: EdgeBackend, tmp_path: Path, encoding: str) -> None:
    text = CASES[encoding]
    root = tmp_path / "docs"
    root.mkdir()
    (root / "note.txt").write_bytes(encode(f"{text}\r\nSecond line.\r\n", encoding))
    (root / "page.md").write_bytes(encode(f"# Résumé du café\n\n{text}\n", encoding))
    (root / "table.csv").write_bytes(encode(f"name,note\r\nJosé,\"{text}\"\r\nZoë,Zürich\r\n", encoding))

    rep = ingest_paths(backend, [root], progress=False)

    assert rep.skipped == [] and rep.docs == 3
    assert text_of(backend, "docs/note.txt") == ("note", f"{text}\nSecond line.")
    assert text_of(backend, "docs/page.md") == ("Résumé du café", f"# Résumé du café\n\n{text}")
    assert text_of(backend, "docs/table.csv") == ("table", f"name: José\nnote: {text}\n\nname: Zoë\nnote: Zürich")
    # The words are searchable as written.
    hits = backend.text_search("crème brûlée" if encoding == "latin-1" else "café naïve", S, 3)
    assert {h.doc_id for h in hits} == {"docs/note.txt", "docs/page.md", "docs/table.csv"}


def test_detection_keeps_other_legacy_code_pages() -> None:
    # cp1252 is preferred only where the bytes give no evidence; Cyrillic bytes keep their code page.
    russian = "Привет, как дела? Это тест на кодировку, и он длиннее одной строки."
    assert detect_encoding(russian.encode("cp1251")) == "cp1251"
    assert decode_text(russian.encode("cp1251")) == russian
    cjk = (("今天天气很好，我们去公园散步吧。", "gbk"), ("東京の天気は晴れです。明日は雨でしょう。", "shift_jis"))
    for text, encoding in cjk:
        assert decode_text(text.encode(encoding)) == text
    assert detect_encoding(b"plain ascii") == "utf-8"
    assert decode_text(b"") == ""


def test_binary_data_in_a_text_file_is_skipped_with_the_reason(backend: EdgeBackend, tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "noise.txt").write_bytes(bytes(range(256)) * 8)
    (root / "fine.txt").write_bytes("Ærøskøbing harbour opens at dawn.".encode("latin-1"))

    rep = ingest_paths(backend, [root], progress=False)

    assert rep.skipped == [(str(root / "noise.txt"), "TextEncodingError: cannot tell the text encoding (binary data?)")]
    assert text_of(backend, "docs/fine.txt") == ("fine", "Ærøskøbing harbour opens at dawn.")
