"""Splitting a document's text into chunks, and the one-line summary a document is listed with.

Chunks are sized in cl100k tokens (counted offline with tiktoken) by LangChain's recursive splitter, with an
overlap; :data:`CHUNKER_VERSION` is part of every content hash, so changing how text is split makes the next
ingest write documents again.
"""

from __future__ import annotations

import re

CHUNK_TOKENS = 200
CHUNK_OVERLAP = 30
# Bumped whenever chunking changes, so re-ingesting rewrites documents chunked the old way.
CHUNKER_VERSION = "hopgraph-chunks-1"


class Chunker:
    """Token-sized chunks (cl100k tokens, counted offline) with overlap."""

    def __init__(self, chunk_tokens: int = CHUNK_TOKENS, overlap: int = CHUNK_OVERLAP) -> None:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        from hopgraph.tokens import get_encoding

        enc = get_encoding()
        self.chunk_tokens = chunk_tokens
        self.overlap = overlap

        def length(text: str) -> int:
            return len(enc.encode(text, disallowed_special=()))

        self._splitter = RecursiveCharacterTextSplitter(
            chunk_size=chunk_tokens, chunk_overlap=overlap, length_function=length
        )

    def split(self, text: str) -> list[str]:
        return [t.strip() for t in self._splitter.split_text(text) if t.strip()]

    @property
    def signature(self) -> str:
        return f"{CHUNKER_VERSION}:{self.chunk_tokens}:{self.overlap}"


def summary_line(title: str, text: str, limit: int = 200) -> str:
    """One line describing the document: its title and first sentence, trimmed."""
    flat = " ".join(text.split())
    m = re.match(r"(.+?[.!?。！？])(\s|$)", flat)
    first = m.group(1) if m else flat
    line = f"{title}: {first}" if title and not first.startswith(title) else (first or title)
    if len(line) > limit:
        line = line[: limit - 1].rstrip() + "…"
    return line
