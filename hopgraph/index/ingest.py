"""Turning files (and BEIR corpora) into chunks in a backend.

Each file becomes one document: its id, source and origin are hopgraph.index.sources' part,
which files a folder holds hopgraph.index.walk's, and reading a file into text
hopgraph.index.loaders'. ``content_hash`` covers a document's bytes and the chunking settings.
An unchanged file is skipped, and its stored tags are changed in place when the run names
other ones (a run that names none keeps them); a changed one is deleted and written again.
Chunks of a document are stored as ``partial`` until the last one lands (see the backends), so
an interrupted ingest never leaves a document looking complete, and running it again finishes
the job.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from hopgraph.index.backend import BackendError, Chunk, SearchBackend, make_chunk_id
from hopgraph.index.chunking import CHUNK_OVERLAP, CHUNK_TOKENS, CHUNKER_VERSION, Chunker, summary_line
from hopgraph.index.common import clean_text
from hopgraph.index.ingest_report import IngestReport
from hopgraph.index.loaders import LOADERS, Loaded, Section, reading_version
from hopgraph.index.sources import Conflict, Target, Targets, check_root, default_root, origin_file
from hopgraph.index.walk import walk

log = logging.getLogger(__name__)

BATCH = 64


def _hash(data: bytes, tags: Sequence[str], signature: str) -> str:
    """The content hash: of the bytes and the chunking. Tags are no longer part of it (documents written
    before hashed them too; ``_keep_stored`` still recognizes those)."""
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


def _make_chunks(target: Target, loaded: Loaded, container: str, tags: Sequence[str], content_hash: str,
                 chunker: Chunker | None) -> list[Chunk]:
    # Lone surrogates (JSON escapes, odd decodings) would break the tokenizers and the engine.
    loaded = Loaded(title=clean_text(loaded.title), kind=loaded.kind,
                    sections=[Section(clean_text(sec.text), sec.page) for sec in loaded.sections])
    doc_id = clean_text(target.doc_id)
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
              container=container, page=page, tags=tuple(tags), context=context, source=target.source,
              kind=loaded.kind, content_hash=content_hash, chunk_count=len(pieces), origin=target.origin)
        for i, (t, page) in enumerate(pieces)
    ]


def _progress(total: int | None, unit: str, enabled: bool) -> Any:
    from tqdm import tqdm

    # The mean rate since the start (smoothing=0), not a moving one: the rate moves with the length of the texts
    # (long abstracts, then short passages), and the mean predicts the time left of a mixed corpus far better
    # (docs/benchmarks-index.md, "200,000 passages through the CLI").
    return tqdm(total=total, unit=unit, file=sys.stderr, disable=not enabled, dynamic_ncols=True, smoothing=0)


def _finish(backend: SearchBackend, report: IngestReport, bar: Any = None) -> None:
    flush = getattr(backend, "flush", None)
    if callable(flush):
        flush()
    # The embedded shard builds its HNSW graph only when asked; do it once the index is big enough.
    optimize = getattr(backend, "optimize", None)
    threshold = getattr(backend, "exact_threshold", None)
    if callable(optimize) and threshold is not None and report.chunks and backend.count() >= threshold:
        if bar is not None:
            # Minutes at a million chunks, after the bar's count is full: say what the wait is.
            bar.set_postfix_str(f"{report.chunks} chunks written; building the search graph", refresh=True)
        optimize()


def _prune(backend: SearchBackend, paths: Sequence[Path], container: str, report: IngestReport) -> None:
    folders = [p.resolve() for p in paths if p.is_dir()]
    if not folders:
        return
    for doc_id, origin in sorted(backend.document_sources(container).items()):
        path = origin_file(origin, doc_id)
        if path is None:
            continue
        if any(path.is_relative_to(folder) for folder in folders) and not path.exists():
            backend.delete_document(doc_id, container)
            report.removed.append(doc_id)


def _keep_stored(backend: SearchBackend, target: Target, container: str, data: bytes, content_hash: str,
                 tags: Sequence[str] | None, signature: str) -> str | None:
    """"unchanged" or "retagged" when the container holds this content under ``target`` already (its tags, and
    the fields of a document written before origins existed, set in place: nothing is embedded); None when the
    document must be written."""
    stored = target.stored
    if stored is None or not stored.complete or target.replaces:
        return None
    # Documents written before tags left the hash hashed their tags too.
    same = stored.content_hash == content_hash or stored.content_hash == _hash(data, stored.tags, signature)
    if not same:
        return None
    fields: dict[str, Any] = {}
    if tags is not None and set(tags) != set(stored.tags):
        fields["tags"] = list(dict.fromkeys(tags))
    if (stored.legacy or stored.content_hash != content_hash or stored.source != target.source
            or stored.origin != target.origin):
        fields.update(content_hash=content_hash, source=target.source, origin=target.origin)
    if fields:
        backend.update_document(target.doc_id, container, fields)
    return "retagged" if "tags" in fields else "unchanged"


def _tags_for(target: Target, tags: Sequence[str] | None) -> tuple[str, ...]:
    """The run's tags, or (when it names none) the ones the stored document has."""
    if tags is not None:
        return tuple(dict.fromkeys(tags))
    return target.stored.tags if target.stored is not None else ()


def _count(report: IngestReport, kept: str) -> None:
    if kept == "retagged":
        report.retagged += 1
    else:
        report.unchanged += 1


def ingest_paths(
    backend: SearchBackend,
    paths: Sequence[str | Path],
    container: str = "default",
    tags: Sequence[str] | None = None,
    progress: bool = True,
    *,
    chunk_tokens: int = CHUNK_TOKENS,
    overlap: int = CHUNK_OVERLAP,
    batch: int = BATCH,
    prune: bool = False,
    root: str | Path | None = None,
    replace: bool = False,
) -> IngestReport:
    """Ingests files and folders (recursively). A ``corpus.jsonl`` is read as a BEIR corpus.

    ``tags``: every document's tags; None keeps the tags stored documents have (new ones get none).
    ``root``: ids are paths relative to it (every path must lie under it); None: relative to the folder holding
    each given path (see hopgraph.index.sources). A file whose id belongs to a document of another file is
    refused (``report.refused``) unless ``replace``. With ``prune``, documents of the container whose file lay
    under one of the given folders and no longer exists are deleted; a file that exists but cannot be read is kept.
    """
    t0 = time.monotonic()
    backend.check_document_precision()  # before anything is written or deleted
    report = IngestReport()
    given = [Path(p).expanduser() for p in paths]
    base = check_root(root, given) if root is not None else None
    walked = walk(given, base)
    report.skipped += walked.skipped
    report.hidden += walked.hidden
    chunker = Chunker(chunk_tokens, overlap)
    targets = Targets(backend, container, replace)
    backend.expect_documents(len(walked.files))
    bar = _progress(len(walked.files), "file", progress)

    def wrote(n: int) -> None:
        report.chunks += n
        bar.set_postfix(chunks=report.chunks, refresh=False)

    writer = _Writer(backend, batch, wrote)
    try:
        for f, froot in walked.files:
            report.files += 1
            bar.update(1)
            if f.name == "corpus.jsonl":
                writer.flush()
                # A corpus may hold a million passages: its own bar counts them.
                report.add(ingest_beir(backend, f, container, tags, progress=progress, batch=batch, finish=False,
                                       root=froot, targets=targets))
                continue
            loader = LOADERS.get(f.suffix.lower())
            if loader is None:
                report.skipped.append((str(f), f"unsupported file type {f.suffix or '(none)'}"))
                continue
            target = targets.for_file(f, froot)
            if isinstance(target, str):
                report.skipped.append((str(f), target))
                continue
            if isinstance(target, Conflict):
                report.refused.append(target)
                continue
            try:
                data = f.read_bytes()
                signature = chunker.signature + reading_version(f)
                content_hash = _hash(data, (), signature)
                kept = _keep_stored(backend, target, container, data, content_hash, tags, signature)
                if kept is not None:
                    targets.claim(target)
                    _count(report, kept)
                    continue
                chunks = _make_chunks(target, loader(f), container, _tags_for(target, tags), content_hash, chunker)
            except Exception as exc:  # a broken file must not stop the rest
                if isinstance(exc, BackendError):
                    raise
                report.skipped.append((str(f), f"{type(exc).__name__}: {_one_line(exc)}"))
                continue
            if not chunks:
                report.skipped.append((str(f), "no text found"))
                continue
            targets.claim(target)
            _write_document(backend, writer, target, container, chunks, report)
        writer.flush()
        if prune:
            _prune(backend, given, container, report)
        _finish(backend, report, bar)
    finally:
        bar.close()
        report.seconds = time.monotonic() - t0
    return report


def _write_document(backend: SearchBackend, writer: _Writer, target: Target, container: str, chunks: list[Chunk],
                    report: IngestReport) -> None:
    if target.replaces:
        report.replaced.append(Conflict(target.doc_id, container, target.replaces, target.origin))
    # Old version out first (the buffer never holds this document's chunks yet); the
    # new one stays invisible until its last chunk is stored.
    backend.delete_document(target.doc_id, container)
    writer.add(chunks)
    report.docs += 1


def ingest_beir(
    backend: SearchBackend,
    corpus_path: str | Path,
    container: str = "default",
    tags: Sequence[str] | None = None,
    progress: bool = True,
    *,
    chunk_tokens: int | None = None,
    overlap: int = CHUNK_OVERLAP,
    batch: int = BATCH,
    limit: int | None = None,
    finish: bool = True,
    root: Path | None = None,
    replace: bool = False,
    targets: Targets | None = None,
) -> IngestReport:
    """Ingests a BEIR ``corpus.jsonl`` (``_id``, ``title``, ``text``); ``_id`` becomes the doc_id.

    BEIR documents are passages, so by default each is one chunk (``chunk_tokens=None``);
    pass a size to split long ones. ``tags`` as for ``ingest_paths``. ``root`` shapes the records' source
    (``<corpus path relative to root>#<_id>``; default: relative to the corpus's folder). A record whose ``_id``
    belongs to a document of another corpus (or file) is refused unless ``replace``.
    """
    t0 = time.monotonic()
    backend.check_document_precision()  # before anything is written or deleted
    path = Path(corpus_path).expanduser()
    report = IngestReport()
    chunker = Chunker(chunk_tokens, overlap) if chunk_tokens else None
    signature = chunker.signature if chunker else f"{CHUNKER_VERSION}:beir-whole"
    base = root if root is not None else default_root(path)
    targets = targets if targets is not None else Targets(backend, container, replace)
    try:
        fh = path.open("rb")
    except OSError as exc:
        report.skipped.append((str(path), f"cannot read: {exc.strerror or exc}"))
        return report
    try:
        # Read line by line, never whole: a corpus of a million passages is a gigabyte. Counting the lines
        # first (in blocks, a fraction of a second per 100 MB) sizes the progress bar and tells the embedder
        # how large the ingest is.
        total = _count_lines(fh)
        fh.seek(0)
    except OSError as exc:
        fh.close()
        report.skipped.append((str(path), f"cannot read: {exc.strerror or exc}"))
        return report
    if limit is not None:
        total = min(total, limit)
    backend.expect_documents(total)
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
            if doc_id in seen:
                report.skipped.append((f"{path}:{lineno}", f"duplicate _id {doc_id!r}"))
                continue
            seen.add(doc_id)
            target = targets.for_record(path, base, doc_id)
            if isinstance(target, Conflict):
                report.refused.append(target)
                continue
            content_hash = _hash(raw.strip(), (), signature)
            kept = _keep_stored(backend, target, container, raw.strip(), content_hash, tags, signature)
            if kept is not None:
                _count(report, kept)
                continue
            loaded = Loaded(title=title, kind="beir", sections=[Section(text or title)])
            chunks = _make_chunks(target, loaded, container, _tags_for(target, tags), content_hash, chunker)
            _write_document(backend, writer, target, container, chunks, report)
        writer.flush()
        if finish:
            _finish(backend, report, bar)
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
