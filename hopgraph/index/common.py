"""Pieces both Qdrant backends share: schema names, payload mapping, BM25 vectors, query syntax."""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hopgraph.index.backend import Chunk, Document
from hopgraph.index.sources import legacy_fields

DENSE = "dense"
SPARSE = "bm25"
KEYWORD_FIELDS = ("container", "tags", "doc_id", "status")
# Keyword field: "ready" on every point of a document once all its chunk_count chunks are
# stored, "partial" before. (A keyword, since qdrant-edge reads a Python bool match as 1.)
STATUS = "status"
READY = "ready"
PARTIAL = "partial"
SCHEMA_VERSION = 1

_bm25_lock = threading.Lock()
_bm25: dict[str, Any] = {}
# Han, kana, hangul, Thai and other scripts written without spaces between words.
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def hash_file(path: Path, hasher: Any = None) -> Any:
    """Feeds a file to a hashlib object (sha256 unless given) in 1 MiB blocks and returns it."""
    h = hasher if hasher is not None else hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h


def file_sha256(path: Path) -> str:
    return str(hash_file(path).hexdigest())


def bm25_model(kind: str = "default") -> Any:
    """qdrant-edge's BM25: ``default`` (English word tokenizer) or ``multilingual``."""
    with _bm25_lock:
        if kind not in _bm25:
            import qdrant_edge

            cfg = None
            if kind == "multilingual":
                cfg = qdrant_edge.Bm25Config(tokenizer=qdrant_edge.TokenizerType.Multilingual)
            _bm25[kind] = qdrant_edge.Bm25(cfg)
        return _bm25[kind]


def _bm25_vector(text: str, query: bool) -> Any:
    # The default tokenizer keeps numbers ("p53", "2019") but leaves CJK runs whole; the
    # multilingual one segments CJK but drops numbers. Text with CJK gets both, merged.
    model = bm25_model()
    vec = model.embed_query(text) if query else model.embed_document(text)
    if not _UNSPACED.search(text):
        return vec
    multi = bm25_model("multilingual")
    other = multi.embed_query(text) if query else multi.embed_document(text)
    merged: dict[int, float] = dict(zip(vec.indices, vec.values, strict=True))
    for i, v in zip(other.indices, other.values, strict=True):
        merged[i] = max(v, merged.get(i, 0.0))
    import qdrant_edge

    keys = sorted(merged)
    return qdrant_edge.SparseVector(keys, [float(merged[k]) for k in keys])


def bm25_document(text: str) -> Any:
    """Sparse BM25 vector of a stored chunk (term weights; the engine applies IDF)."""
    return _bm25_vector(text, query=False)


def bm25_query(text: str) -> Any:
    """Sparse BM25 vector of a query (weight 1 per distinct term)."""
    return _bm25_vector(text, query=True)


def clean_text(text: str) -> str:
    """Text every engine accepts: lone surrogates (from JSON "\\ud800" escapes or undecodable
    argv bytes) cannot be encoded as UTF-8, so they become U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def clean_chunk(chunk: Chunk) -> Chunk:
    fields = {name: getattr(chunk, name) for name in ("chunk_id", "doc_id", "title", "text", "container",
                                                       "context", "source", "kind", "content_hash", "origin")}
    cleaned: dict[str, Any] = {k: clean_text(v) for k, v in fields.items()}
    tags = tuple(clean_text(t) for t in chunk.tags)
    if cleaned == fields and tags == chunk.tags:
        return chunk
    import dataclasses

    return dataclasses.replace(chunk, tags=tags, **cleaned)


def embed_text(chunk: Chunk) -> str:
    """What the dense and sparse vectors are computed from: title, then chunk text."""
    title = chunk.title.strip()
    if title and not chunk.text.lstrip().startswith(title):
        return f"{title}\n{chunk.text}"
    return chunk.text


def chunk_payload(chunk: Chunk, complete: bool) -> dict[str, Any]:
    return {
        "doc_id": chunk.doc_id,
        "chunk_id": chunk.chunk_id,
        "index": chunk.index,
        "chunk_count": chunk.chunk_count,
        "title": chunk.title,
        "text": chunk.text,
        "page": chunk.page,
        "container": chunk.container,
        "tags": list(chunk.tags),
        "context": chunk.context,
        "source": chunk.source,
        "origin": chunk.origin,
        "kind": chunk.kind,
        "content_hash": chunk.content_hash,
        STATUS: READY if complete else PARTIAL,
    }


def payload_origin(p: dict[str, Any]) -> tuple[str, str]:
    """(source, origin) of a payload; one written before payloads had an origin is read as
    :func:`hopgraph.index.sources.legacy_fields` says."""
    source = str(p.get("source") or "")
    if "origin" in p:
        return source, str(p.get("origin") or "")
    return legacy_fields(str(p.get("doc_id", "")), str(p.get("kind") or ""), source)


def payload_chunk(p: dict[str, Any]) -> Chunk:
    page = p.get("page")
    source, origin = payload_origin(p)
    return Chunk(
        chunk_id=str(p.get("chunk_id", "")),
        doc_id=str(p.get("doc_id", "")),
        index=int(p.get("index", 0)),
        title=str(p.get("title") or ""),
        text=str(p.get("text") or ""),
        container=str(p.get("container", "")),
        page=int(page) if page is not None else None,
        tags=tuple(p.get("tags") or ()),
        context=str(p.get("context") or ""),
        source=source,
        kind=str(p.get("kind") or "txt"),
        content_hash=str(p.get("content_hash") or ""),
        chunk_count=int(p.get("chunk_count", 1)),
        origin=origin,
    )


def is_whole(chunks: Sequence[Chunk]) -> bool:
    """True if these chunks are the entire document (every index, one content hash)."""
    first = chunks[0]
    return len({c.content_hash for c in chunks}) == 1 and {c.index for c in chunks} == set(range(first.chunk_count))


def assemble_document(doc_id: str, chunks: Iterable[Chunk], containers: Sequence[str]) -> Document | None:
    """Builds a document from its complete chunks; with the same id in several visible
    containers, the first container of the scope wins."""
    by_container: dict[str, dict[int, Chunk]] = {}
    for c in chunks:
        by_container.setdefault(c.container, {})[c.index] = c
    for name in containers:
        got = by_container.get(name)
        if not got:
            continue
        ordered = tuple(got[i] for i in sorted(got))
        return Document(doc_id=doc_id, title=ordered[0].title, container=name, chunks=ordered)
    return None


@dataclass(frozen=True)
class TextQuery:
    """A parsed keyword query: free words, "exact phrases" and -excluded terms."""

    terms: tuple[str, ...]
    phrases: tuple[str, ...]
    excluded: tuple[str, ...]

    @property
    def positive_text(self) -> str:
        """Text for the BM25 query vector: free words and the words of every phrase."""
        return " ".join(self.terms + self.phrases)


_PHRASE = re.compile(r'"([^"]*)"')
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_text_query(query: str) -> TextQuery:
    phrases = tuple(p.strip() for p in _PHRASE.findall(query) if p.strip())
    rest = _PHRASE.sub(" ", query).replace('"', " ")
    terms: list[str] = []
    excluded: list[str] = []
    for tok in rest.split():
        if tok.startswith("-") and len(tok) > 1:
            word = tok[1:].strip()
            if word.strip("-"):
                excluded.append(word)
        elif tok != "-":
            terms.append(tok)
    return TextQuery(terms=tuple(terms), phrases=phrases, excluded=tuple(excluded))
