"""Splitting a document's text into chunks, and the one-line summary a document is listed with.

Chunks are sized in cl100k tokens (counted offline with tiktoken) by LangChain's recursive splitter, with an
overlap; :data:`CHUNKER_VERSION` is part of every content hash, so changing how text is split makes the next
ingest write documents again. A chunk that starts inside a Markdown table begins with the table's header row, so
each of its rows still says which column a cell is in.
"""

from __future__ import annotations

import re

CHUNK_TOKENS = 200
CHUNK_OVERLAP = 30
# Bumped whenever chunking changes, so re-ingesting rewrites documents chunked the old way.
CHUNKER_VERSION = "hopgraph-chunks-3"


class Chunker:
    """Token-sized chunks (cl100k tokens, counted offline) with overlap."""

    def __init__(self, chunk_tokens: int = CHUNK_TOKENS, overlap: int = CHUNK_OVERLAP) -> None:
        from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

        from hopgraph.tokens import get_encoding

        enc = get_encoding()
        self.chunk_tokens = chunk_tokens
        self.overlap = overlap

        def length(text: str) -> int:
            return len(enc.encode(text, disallowed_special=()))

        # Markdown's separators first (headings, rules, then paragraphs): a chunk ends before a heading rather
        # than with it, so a section's heading stays with its text. Plain text has none of them and splits as
        # before, at blank lines, then lines, then words.
        self._splitter = RecursiveCharacterTextSplitter(
            separators=RecursiveCharacterTextSplitter.get_separators_for_language(Language.MARKDOWN),
            is_separator_regex=True, chunk_size=chunk_tokens, chunk_overlap=overlap, length_function=length,
        )

    def split(self, text: str) -> list[str]:
        return with_table_headers([t.strip() for t in self._splitter.split_text(text) if t.strip()])

    @property
    def signature(self) -> str:
        return f"{CHUNKER_VERSION}:{self.chunk_tokens}:{self.overlap}"


_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$")


def with_table_headers(chunks: list[str]) -> list[str]:
    """The chunks, each that starts inside a Markdown table continued from the chunk before given that table's
    header row and rule first."""
    out: list[str] = []
    header: list[str] = []  # the header row and rule of the table the previous chunk ended in
    for chunk in chunks:
        lines = chunk.splitlines()
        starts_in_table = bool(lines) and _TABLE_ROW.match(lines[0]) is not None
        has_own_header = len(lines) > 1 and _TABLE_RULE.match(lines[1]) is not None
        out.append("\n".join([*header, chunk]) if header and starts_in_table and not has_own_header else chunk)
        # The table this chunk ends in, and its header (from this chunk, or carried on).
        ending: list[str] = header if starts_in_table and not has_own_header else []
        for i, line in enumerate(lines):
            if i + 1 < len(lines) and _TABLE_ROW.match(line) and _TABLE_RULE.match(lines[i + 1]):
                ending = [line, lines[i + 1]]
            elif not _TABLE_ROW.match(line):
                ending = []
        header = ending if lines and _TABLE_ROW.match(lines[-1]) else []
    return out


def summary_line(title: str, text: str, limit: int = 200) -> str:
    """One line describing the document: its title and first sentence, trimmed."""
    flat = " ".join(text.split())
    m = re.match(r"(.+?[.!?。！？])(\s|$)", flat)
    first = m.group(1) if m else flat
    line = f"{title}: {first}" if title and not first.startswith(title) else (first or title)
    if len(line) > limit:
        line = line[: limit - 1].rstrip() + "…"
    return line
