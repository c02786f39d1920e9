"""Where an ingested document comes from: its id, the source a reader sees and the origin ingest checks.

A file's document id is its path relative to a root, in POSIX form. The root is the one the caller names
(``--root``), else the folder that holds what was given: a folder given keeps its own name in the ids
(``ingest docs/`` gives ``docs/guide.md``), a file given is known by its name (``ingest docs/guide.md`` gives
``guide.md``). The ``source`` a reader sees (citations, ``read``, MCP, the served graph) is that same relative
path; a BEIR record's source is its corpus file's relative path and ``#`` and its ``_id``. The ``origin`` is
where ingest found it on the machine that ingested it (the absolute path, folders' symlinks resolved), kept
for ingest's own checks (is this the same file, is it gone) and for ``hopgraph list``; nothing a reader or a
served caller gets shows it.

Documents written before sources were relative carry no ``origin``: their ``source`` was the absolute path of
the file (BEIR: the corpus path as given, ``#`` and the ``_id``) and their id the path relative to the folder
then given. They keep their ids; :func:`legacy_fields` reads them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from hopgraph.index.backend import SearchBackend, StoredDocument


class IngestError(ValueError):
    """An ingest that cannot go ahead as asked; nothing was written."""


class IngestConflictError(IngestError):
    """Files of this run would take the ids of documents that came from other files."""


@dataclass(frozen=True)
class Conflict:
    """A document id that two different files would share."""

    doc_id: str
    container: str
    stored: str
    """The origin of the document the container holds (or of the first file of this run with that id)."""
    incoming: str
    """The file that would take its id."""

    def line(self) -> str:
        return f"{self.doc_id} (container {self.container}): from {self.stored}, now {self.incoming}"


def absolute(path: str | os.PathLike[str]) -> Path:
    """``path`` made absolute without resolving symlinks (``.`` and ``..`` removed): the name the user gave."""
    return Path(os.path.abspath(os.path.expanduser(os.fspath(path))))


def default_root(given: Path) -> Path:
    """The folder that holds what was given, so a folder keeps its name in the ids and a file is known by its own."""
    return absolute(given).parent


def check_root(root: str | os.PathLike[str], paths: list[Path]) -> Path:
    """``root`` as an absolute folder under which every given path lies; an IngestError otherwise."""
    base = absolute(root)
    if not base.is_dir():
        raise IngestError(f"--root {root} is not a folder")
    outside = [str(p) for p in paths if not absolute(p).is_relative_to(base)]
    if outside:
        raise IngestError(f"not under --root {base}: {', '.join(outside)}")
    return base


def relative_id(path: Path, root: Path) -> str:
    """The document id of a file: its path relative to ``root``, in POSIX form."""
    return absolute(path).relative_to(root).as_posix()


def origin_of(path: Path) -> str:
    """Where a file is on this machine: its folder's real path and its own name (a link to a file stays a name of
    its own, so two links are two documents)."""
    p = absolute(path)
    return str(p.parent.resolve() / p.name)


def beir_source(corpus: Path, root: Path, doc_id: str) -> tuple[str, str]:
    """(source, origin) of a BEIR record."""
    return f"{relative_id(corpus, root)}#{doc_id}", f"{origin_of(corpus)}#{doc_id}"


def _corpus_prefixes(corpus: Path, root: Path) -> tuple[str, str]:
    return beir_source(corpus, root, "")


def origin_file(origin: str, doc_id: str) -> Path | None:
    """The file an origin names (a BEIR record's origin names its corpus), or None when it names none."""
    if not origin or "://" in origin:
        return None
    path = origin[: -len(doc_id) - 1] if origin.endswith(f"#{doc_id}") else origin
    return Path(path) if os.path.isabs(path) else None


def legacy_fields(doc_id: str, kind: str, source: str) -> tuple[str, str]:
    """(source, origin) of a document written before sources were relative to the ingest root.

    Its old source is its origin. What a reader sees instead is its id (the path relative to the folder that was
    ingested), or for a BEIR record the corpus file's name, ``#`` and the ``_id``; a source that was no absolute
    path (a URL, a name) is shown as it was.
    """
    if kind == "beir" and source.endswith(f"#{doc_id}"):
        return f"{os.path.basename(source[: -len(doc_id) - 1])}#{doc_id}", source
    if os.path.isabs(source):
        return doc_id, source
    return source, source


@dataclass(frozen=True)
class Target:
    """The id, source and origin a file (or BEIR record) is written under, and what the container holds there."""

    doc_id: str
    source: str
    origin: str
    stored: StoredDocument | None
    replaces: str = ""
    """The origin of another file's document this one replaces (only when asked to replace)."""


class Targets:
    """Decides the id each file of one ingest run goes under, in one container.

    A file the container already holds (found by its origin, also under an id an earlier root or an earlier
    version gave it) keeps that id. Otherwise its id is its path relative to its root; when the container holds a
    document of another file there, the file is refused (a :class:`Conflict`), unless ``replace`` is set. Two files
    of one run never share an id: the second is refused whatever ``replace`` says.
    """

    def __init__(self, backend: SearchBackend, container: str, replace: bool = False) -> None:
        self.backend = backend
        self.container = container
        self.replace = replace
        self._claimed: dict[str, str] = {}  # doc_id -> origin, for ids written (or kept) by this run
        self._seen: dict[str, str] = {}  # origin -> the path this run reached it by
        self._known: dict[str, str] | None = None  # origin -> doc_id, for the container's documents
        self._corpora: dict[tuple[Path, Path], tuple[str, str]] = {}  # (corpus, root) -> source and origin prefixes

    def for_file(self, path: Path, root: Path) -> Target | Conflict | str:
        """The target of a file, a Conflict, or the reason it is not ingested again (reached twice)."""
        origin = origin_of(path)
        first = self._seen.setdefault(origin, str(path))
        if first != str(path):
            return f"the same file as {first}"
        # A document from before origins existed names its file by its real path (links resolved).
        names = {origin, str(absolute(path).resolve())}
        doc_id = relative_id(path, root)
        stored = self.backend.document_record(doc_id, self.container)
        if stored is None or stored.origin not in names:
            known = self._known_id(names)
            if known is not None and known != doc_id:
                kept = self.backend.document_record(known, self.container)
                if kept is not None:
                    return self._check(Target(known, kept.source, origin, kept), names)
        return self._check(Target(doc_id, doc_id, origin, stored), names)

    def for_record(self, corpus: Path, root: Path, doc_id: str) -> Target | Conflict:
        """The target of a BEIR record: its ``_id``, whatever the root (the root only shapes its source).

        Records are not claimed: a corpus's own duplicates are its reader's to find, and what an earlier corpus
        or file of the run wrote is stored (flushed) before the next corpus starts."""
        key = (corpus, root)
        if key not in self._corpora:
            self._corpora[key] = _corpus_prefixes(corpus, root)
        source_prefix, origin_prefix = self._corpora[key]
        source, origin = source_prefix + doc_id, origin_prefix + doc_id
        stored = self.backend.document_record(doc_id, self.container)
        if stored is not None and stored.legacy and stored.kind == "beir":
            # Its source was the corpus path as given then, which cannot be compared: taken as this corpus.
            return self._check(Target(doc_id, source, origin, stored), {origin, stored.origin})
        return self._check(Target(doc_id, source, origin, stored), {origin})

    def claim(self, target: Target) -> None:
        """Records that this run wrote (or kept) a file's ``target``; another file of the run cannot take its id."""
        self._claimed[target.doc_id] = target.origin

    def _check(self, target: Target, names: set[str]) -> Target | Conflict:
        other = self._claimed.get(target.doc_id)
        if other is not None and other != target.origin:
            return Conflict(target.doc_id, self.container, other, target.origin)
        stored = target.stored
        if stored is None or stored.origin in names:
            return target
        if not self.replace:
            return Conflict(target.doc_id, self.container, stored.origin or stored.source or "(no source)",
                            target.origin)
        return replace(target, replaces=stored.origin or stored.source or "(no source)")

    def _known_id(self, names: set[str]) -> str | None:
        if self._known is None:
            # Once per run, and only when a file is not where its id says: a few short fields of the container.
            self._known = {}
            for doc_id, origin in sorted(self.backend.document_sources(self.container).items()):
                self._known.setdefault(origin, doc_id)
        return next((self._known[n] for n in sorted(names) if n in self._known), None)
