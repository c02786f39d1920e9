"""Reading one file into text: a loader per file type, and the text encoding of plain-text files.

Text files (.txt, .md, .csv) may be UTF-8 (with or without a byte-order mark), UTF-16 or UTF-32
with a byte-order mark, or a legacy 8-bit encoding such as Latin-1 or cp1252. The encoding is
told by the byte-order mark, else by strict UTF-8, else by charset-normalizer, with cp1252
preferred where it decodes the bytes as cleanly as charset-normalizer's own pick. An HTML page
that is not UTF-8 is read in the charset it declares (``<meta charset>``) before any guess.

HTML is read as a reader sees it: trafilatura finds the main text (menus, headers, footers,
scripts and styles left out), inline elements stay inside their sentence and blocks end a line.
"""

from __future__ import annotations

import codecs
import io
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hopgraph.index.pdf_tables import page_with_tables

TEXT_KINDS = {".txt": "txt", ".text": "txt", ".md": "md", ".markdown": "md", ".html": "html", ".htm": "html",
              ".pdf": "pdf", ".docx": "docx", ".csv": "table", ".xlsx": "table"}

# Byte-order marks, longest first: the UTF-32 LE mark begins with the UTF-16 LE one.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


# Labels a browser reads as cp1252, by the Python codec they name.
_WEB_ALIASES = {"iso8859-1": "cp1252", "ascii": "cp1252"}
_HTML_CONFIG: Any = None


class TextEncodingError(ValueError):
    """The bytes of a text file decode in no known text encoding."""


@dataclass
class Section:
    """A piece of a loaded file: text plus the page it came from (PDF) or None."""

    text: str
    page: int | None = None


@dataclass
class Loaded:
    title: str
    kind: str
    sections: list[Section]


# --- encodings -------------------------------------------------------------------------------


def detect_encoding(data: bytes) -> str:
    """The Python codec that decodes ``data``."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        raise TextEncodingError("cannot tell the text encoding (binary data?)")
    # A short text gives charset-normalizer little evidence: many code pages decode it without
    # mess and it picks one of them, often a Central European or even a CJK one. Where cp1252
    # decodes the bytes as cleanly as its pick, cp1252 it is: legacy Western files mostly are,
    # and its printable characters include all of Latin-1's.
    western = from_bytes(data, cp_isolation=["cp1252"]).best()
    if western is not None and western.chaos <= best.chaos:
        return "cp1252"
    return best.encoding


def decode_text(data: bytes) -> str:
    """``data`` as text, in its detected encoding, without a byte-order mark and with ``\\n`` line ends."""
    return io.TextIOWrapper(io.BytesIO(data), encoding=detect_encoding(data)).read()


# --- loaders ------------------------------------------------------------------------------


def _loaders() -> Any:
    """langchain-community's document loaders, without its import-time deprecation notice."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from langchain_community import document_loaders
    return document_loaders


def _stem_title(path: Path) -> str:
    return path.stem.replace("_", " ").replace("-", " ").strip() or path.name


def _load_text(path: Path) -> Loaded:
    text = decode_text(path.read_bytes())
    kind = TEXT_KINDS.get(path.suffix.lower(), "txt")
    title = _stem_title(path)
    if kind == "md":
        m = re.search(r"^\s{0,3}#\s+(.+?)\s*#*\s*$", text, re.MULTILINE)
        if m:
            title = m.group(1).strip()
    return Loaded(title=title, kind=kind, sections=[Section(text)])


def _load_csv(path: Path) -> Loaded:
    encoding = detect_encoding(path.read_bytes())
    rows = _loaders().CSVLoader(str(path), encoding=encoding).load()
    text = "\n\n".join(r.page_content for r in rows)
    return Loaded(title=_stem_title(path), kind="table", sections=[Section(text)])


def decode_html(data: bytes) -> str:
    """An HTML page's bytes as text: by its byte-order mark, else as UTF-8 if they are, else in the charset the page
    declares, else as a text file's (a wrong declaration never garbles a UTF-8 page)."""
    from bs4.dammit import EncodingDetector

    if any(data.startswith(bom) for bom, _ in _BOMS):
        return decode_text(data)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    declared = EncodingDetector.find_declared_encoding(data, is_html=True)
    if declared:
        try:
            codec = codecs.lookup(declared).name
        except LookupError:
            codec = ""
        # As browsers do (the WHATWG encoding standard): a page that says Latin-1 or ASCII is read as cp1252.
        codec = _WEB_ALIASES.get(codec, codec)
        if codec:
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                pass  # the declaration is wrong: tell the encoding from the bytes
    return decode_text(data)


def _html_config() -> Any:
    global _HTML_CONFIG
    if _HTML_CONFIG is None:
        from trafilatura.settings import use_config

        config = use_config()
        # trafilatura takes a main text under 250 characters for a failed extraction and rebuilds it from loose
        # elements, splitting sentences at their inline markup; a short page is a page here, not a failure.
        config.set("DEFAULT", "MIN_EXTRACTED_SIZE", "0")
        _HTML_CONFIG = config
    return _HTML_CONFIG


def _load_html(path: Path) -> Loaded:
    import trafilatura

    html = decode_html(path.read_bytes())
    tree = trafilatura.load_html(html) if html.strip() else None
    if tree is None:
        return Loaded(title=_stem_title(path), kind="html", sections=[])
    title = " ".join((tree.findtext(".//title") or "").split())
    text = trafilatura.extract(tree, config=_html_config(), include_tables=True, include_comments=True,
                               include_links=False, include_images=False, include_formatting=False,
                               output_format="txt")
    if not text:
        # No main text told apart from the rest (a page of links, say): all of its text.
        text = trafilatura.html2txt(html)
    return Loaded(title=title or _stem_title(path), kind="html", sections=[Section(text or "")])


def reading_version(path: Path) -> str:
    """What changes a file's content hash when the way its type is read changes ('' for types read as they
    always were), so re-ingesting reads such files again."""
    return _READING_VERSIONS.get(path.suffix.lower(), "")


# PDF pages with tables in columns are read as rows since version 2.
_READING_VERSIONS = {".pdf": ":pdf-2"}


def _load_pdf(path: Path) -> Loaded:
    # pypdf logs warnings about damaged files; the failure itself is reported in the summary.
    pdf_log = logging.getLogger("pypdf")
    level = pdf_log.level
    pdf_log.setLevel(logging.ERROR)
    try:
        pages = _loaders().PyPDFLoader(str(path)).load()
        # The same pages laid out by position: where one holds a table, its rows are read with their columns.
        laid_out = _loaders().PyPDFLoader(str(path), extraction_mode="layout").load() if pages else []
    finally:
        pdf_log.setLevel(level)
    title = ""
    if pages:
        title = str(pages[0].metadata.get("title") or "").strip()
    sections = []
    for i, page in enumerate(pages):
        text = page.page_content
        if len(laid_out) == len(pages):
            text = page_with_tables(laid_out[i].page_content) or text
        sections.append(Section(text, int(page.metadata.get("page", i)) + 1))
    return Loaded(title=title or _stem_title(path), kind="pdf", sections=sections)


def _load_docx(path: Path) -> Loaded:
    docs = _loaders().Docx2txtLoader(str(path)).load()
    text = re.sub(r"\n\s*\n+", "\n\n", "\n".join(d.page_content for d in docs))
    return Loaded(title=_stem_title(path), kind="docx", sections=[Section(text)])


def _load_xlsx(path: Path) -> Loaded:
    import openpyxl

    wb = openpyxl.load_workbook(str(path), read_only=True, data_only=True)
    parts: list[str] = []
    try:
        for ws in wb.worksheets:
            rows = ws.iter_rows(values_only=True)
            header = next(rows, None)
            if header is None:
                continue
            names = [str(h) if h is not None else f"column {i + 1}" for i, h in enumerate(header)]
            parts.append(f"Sheet: {ws.title}")
            for row in rows:
                cells = [f"{n}: {v}" for n, v in zip(names, row, strict=False) if v is not None and str(v).strip()]
                if cells:
                    parts.append("\n".join(cells))
    finally:
        wb.close()
    return Loaded(title=_stem_title(path), kind="table", sections=[Section("\n\n".join(parts))])


LOADERS: dict[str, Callable[[Path], Loaded]] = {
    ".txt": _load_text, ".text": _load_text, ".md": _load_text, ".markdown": _load_text,
    ".html": _load_html, ".htm": _load_html, ".pdf": _load_pdf, ".docx": _load_docx,
    ".csv": _load_csv, ".xlsx": _load_xlsx,
}
