"""Turning files (and BEIR corpora) into chunks in a backend.

Each file becomes one document: ``doc_id`` is its path relative to the ingest root,
``content_hash`` covers its bytes, tags and the chunking settings. An unchanged file is
skipped; a changed one is deleted and written again. Chunks of a document are stored as
``partial`` until the last one lands (see the backends), so an interrupted ingest never
leaves a document looking complete, and running it again finishes the job. Reading a file
into text is hopgraph.index.loaders' part.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopgraph.index.backend import Chunk, SearchBackend, make_chunk_id
from hopgraph.index.common import clean_text
from hopgraph.index.loaders import LOADERS, Loaded, Section

log = logging.getLogger(__name__)

CHUNK_TOKENS = 200
CHUNK_OVERLAP = 30
BATCH = 64
# Bumped whenever chunking changes, so re-ingesting rewrites documents chunked the old way.
CHUNKER_VERSION = "hopgraph-chunks-1"


@dataclass
class IngestReport:
    files: int = 0
    docs: int = 0
    """Documents written (new or changed)."""
    unchanged: int = 0
    chunks: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(path, reason) for every file not ingested."""
    removed: list[str] = field(default_factory=list)
    """Documents pruned because their files are gone."""
    seconds: float = 0.0

    def summary(self) -> str:
        rate = self.chunks / self.seconds if self.seconds > 0 else 0.0
        lines = [
            f"ingested {self.docs} documents ({self.chunks} chunks, {rate:.0f} chunks/s), "
            f"{self.unchanged} unchanged, {len(self.skipped)} skipped, in {self.seconds:.1f}s"
        ]
        if self.removed:
            lines[0] += f"; removed {len(self.removed)} documents whose files are gone"
        lines += [f"  skipped {path}: {reason}" for path, reason in self.skipped]
        lines += [f"  removed {doc_id}" for doc_id in self.removed]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"files": self.files, "docs": self.docs, "unchanged": self.unchanged, "chunks": self.chunks,
                "skipped": [{"path": p, "reason": r} for p, r in self.skipped], "removed": self.removed,
                "seconds": round(self.seconds, 3)}


# --- chunking ---------------------------------------------------------------------------


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


def _hash(data: bytes, tags: Sequence[str], signature: str) -> str:
    h = hashlib.sha256()
    h.update(signature.encode())
    h.update(b"\0" + ",".join(sorted(tags)).encode() + b"\0")
    h.update(data)
    return h.hexdigest()


# --- writing ---------------------------------------------------------------------------------


class _Writer:
    """Buffers chunks of several documents and writes them in batches."""

    def __init__(self, backend: SearchBackend, batch: int, on_write: Callable[[int], None]) -> None:
        self.backend = backend
        self.batch = batch
        self.buf: list[Chunk] = []
        self.on_write = on_write

    def add(self, chunks: Iterable[Chunk]) -> None:
        for c in chunks:
            self.buf.append(c)
            if len(self.buf) >= self.batch:
                self.flush()

    def flush(self) -> None:
        if self.buf:
            self.backend.upsert(self.buf)
            self.on_write(len(self.buf))
            self.buf = []


def _make_chunks(doc_id: str, loaded: Loaded, container: str, tags: Sequence[str], source: str,
                 content_hash: str, chunker: Chunker | None) -> list[Chunk]:
    # Lone surrogates (JSON escapes, odd decodings) would break the tokenizers and the engine.
    loaded = Loaded(title=clean_text(loaded.title), kind=loaded.kind,
                    sections=[Section(clean_text(sec.text), sec.page) for sec in loaded.sections])
    doc_id = clean_text(doc_id)
    pieces: list[tuple[str, int | None]] = []
    for sec in loaded.sections:
        if chunker is None:
            if sec.text.strip():
                pieces.append((sec.text.strip(), sec.page))
        else:
            pieces += [(t, sec.page) for t in chunker.split(sec.text)]
    full = " ".join(s.text for s in loaded.sections)
    context = summary_line(loaded.title, full)
    return [
        Chunk(chunk_id=make_chunk_id(container, doc_id, i), doc_id=doc_id, index=i, title=loaded.title, text=t,
              container=container, page=page, tags=tuple(tags), context=context, source=source, kind=loaded.kind,
              content_hash=content_hash, chunk_count=len(pieces))
        for i, (t, page) in enumerate(pieces)
    ]


def _walk(paths: Sequence[str | Path]) -> Iterator[tuple[Path, Path]]:
    """(file, root) pairs: files given directly have their folder as root."""
    for raw in paths:
        p = Path(raw).expanduser()
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p)
                if any(part.startswith(".") for part in rel.parts):
                    continue
                if f.is_file():
                    yield f, p
        else:
            yield p, p.parent


def _progress(total: int | None, unit: str, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, file=sys.stderr, disable=not enabled, dynamic_ncols=True, smoothing=0.1)


def _finish(backend: SearchBackend, report: IngestReport) -> None:
    flush = getattr(backend, "flush", None)
    if callable(flush):
        flush()
    # The embedded shard builds its HNSW graph only when asked; do it once the index is big enough.
    optimize = getattr(backend, "optimize", None)
    threshold = getattr(backend, "exact_threshold", None)
    if callable(optimize) and threshold is not None and report.chunks and backend.count() >= threshold:
        optimize()


def _prune(backend: SearchBackend, paths: Sequence[str | Path], container: str, report: IngestReport) -> None:
    folders = [Path(p).resolve() for p in paths if Path(p).is_dir()]
    if not folders:
        return
    for doc_id, source in sorted(backend.document_sources(container).items()):
        if not source:
            continue
        path = Path(source)
        if any(path.is_relative_to(folder) for folder in folders) and not path.exists():
            backend.delete_document(doc_id, container)
            report.removed.append(doc_id)


def ingest_paths(
    backend: SearchBackend,
    paths: Sequence[str | Path],
    container: str = "default",
    tags: Sequence[str] = (),
    progress: bool = True,
    *,
    chunk_tokens: int = CHUNK_TOKENS,
    overlap: int = CHUNK_OVERLAP,
    batch: int = BATCH,
    prune: bool = False,
) -> IngestReport:
    """Ingests files and folders (recursively). A ``corpus.jsonl`` is read as a BEIR corpus.

    With ``prune``, documents of the container whose source file lay under one of the given
    folders and no longer exists are deleted; a file that exists but cannot be read is kept.
    """
    t0 = time.monotonic()
    report = IngestReport()
    chunker = Chunker(chunk_tokens, overlap)
    files = list(_walk(paths))
    bar = _progress(len(files), "file", progress)

    def wrote(n: int) -> None:
        report.chunks += n
        bar.set_postfix(chunks=report.chunks, refresh=False)

    writer = _Writer(backend, batch, wrote)
    seen: dict[str, str] = {}
    try:
        for f, root in files:
            report.files += 1
            bar.update(1)
            if not f.exists():
                report.skipped.append((str(f), "no such file"))
                continue
            if f.name == "corpus.jsonl":
                writer.flush()
                sub = ingest_beir(backend, f, container, tags, progress=False, batch=batch, finish=False)
                report.docs += sub.docs
                report.unchanged += sub.unchanged
                report.chunks += sub.chunks
                report.skipped += sub.skipped
                continue
            loader = LOADERS.get(f.suffix.lower())
            if loader is None:
                report.skipped.append((str(f), f"unsupported file type {f.suffix or '(none)'}"))
                continue
            doc_id = f.relative_to(root).as_posix()
            try:
                data = f.read_bytes()
                content_hash = _hash(data, tags, chunker.signature)
                if backend.document_hash(doc_id, container) == content_hash:
                    report.unchanged += 1
                    continue
                loaded = loader(f)
                chunks = _make_chunks(doc_id, loaded, container, tags, str(f.resolve()), content_hash, chunker)
            except Exception as exc:  # a broken file must not stop the rest
                from hopgraph.index.backend import BackendError

                if isinstance(exc, BackendError):
                    raise
                report.skipped.append((str(f), f"{type(exc).__name__}: {_one_line(exc)}"))
                continue
            if not chunks:
                report.skipped.append((str(f), "no text found"))
                continue
            if doc_id in seen:
                report.skipped.append((str(f), f"same document id {doc_id!r} as {seen[doc_id]}"))
                continue
            seen[doc_id] = str(f)
            # Old version out first (the buffer never holds this document's chunks yet); the
            # new one stays invisible until its last chunk is stored.
            backend.delete_document(doc_id, container)
            writer.add(chunks)
            report.docs += 1
        writer.flush()
        if prune:
            _prune(backend, paths, container, report)
        _finish(backend, report)
    finally:
        bar.close()
        report.seconds = time.monotonic() - t0
    return report


def ingest_beir(
    backend: SearchBackend,
    corpus_path: str | Path,
    container: str = "default",
    tags: Sequence[str] = (),
    progress: bool = True,
    *,
    chunk_tokens: int | None = None,
    overlap: int = CHUNK_OVERLAP,
    batch: int = BATCH,
    limit: int | None = None,
    finish: bool = True,
) -> IngestReport:
    """Ingests a BEIR ``corpus.jsonl`` (``_id``, ``title``, ``text``); ``_id`` becomes the doc_id.

    BEIR documents are passages, so by default each is one chunk (``chunk_tokens=None``);
    pass a size to split long ones.
    """
    t0 = time.monotonic()
    path = Path(corpus_path)
    report = IngestReport()
    chunker = Chunker(chunk_tokens, overlap) if chunk_tokens else None
    signature = chunker.signature if chunker else f"{CHUNKER_VERSION}:beir-whole"
    try:
        fh = path.open("rb")
    except OSError as exc:
        report.skipped.append((str(path), f"cannot read: {exc.strerror or exc}"))
        return report
    try:
        # Read line by line, never whole: a corpus of a million passages is a gigabyte. Counting the lines
        # first (in blocks) only sizes the progress bar.
        total = _count_lines(fh) if progress else None
        fh.seek(0)
    except OSError as exc:
        fh.close()
        report.skipped.append((str(path), f"cannot read: {exc.strerror or exc}"))
        return report
    if limit is not None and total is not None:
        total = min(total, limit)
    bar = _progress(total, "doc", progress)

    def wrote(n: int) -> None:
        report.chunks += n
        bar.set_postfix(chunks=report.chunks, refresh=False)

    writer = _Writer(backend, batch, wrote)
    seen: set[str] = set()
    try:
        for lineno, raw in enumerate(fh, start=1):
            if limit is not None and lineno > limit:
                break
            bar.update(1)
            if not raw.strip():
                continue
            report.files += 1
            try:
                rec = json.loads(raw)
                doc_id = str(rec["_id"])
            except (ValueError, KeyError, TypeError) as exc:
                report.skipped.append((f"{path}:{lineno}", f"bad record: {_one_line(exc)}"))
                continue
            title = str(rec.get("title") or "").strip()
            text = str(rec.get("text") or "").strip()
            if not text and not title:
                report.skipped.append((f"{path}:{lineno}", "no text found"))
                continue
            content_hash = _hash(raw.strip(), tags, signature)
            if backend.document_hash(doc_id, container) == content_hash:
                report.unchanged += 1
                continue
            loaded = Loaded(title=title, kind="beir", sections=[Section(text or title)])
            chunks = _make_chunks(doc_id, loaded, container, tags, f"{path}#{doc_id}", content_hash, chunker)
            if doc_id in seen:
                report.skipped.append((f"{path}:{lineno}", f"duplicate _id {doc_id!r}"))
                continue
            seen.add(doc_id)
            backend.delete_document(doc_id, container)
            writer.add(chunks)
            report.docs += 1
        writer.flush()
        if finish:
            _finish(backend, report)
    finally:
        fh.close()
        bar.close()
        report.seconds = time.monotonic() - t0
    return report


def _count_lines(fh: Any) -> int:
    """Lines in a binary file, the last one counted whether or not it ends in a newline."""
    count, last = 0, b"\n"
    for block in iter(lambda: fh.read(1 << 20), b""):
        count += block.count(b"\n")
        last = block[-1:]
    return count + (last != b"\n")


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
