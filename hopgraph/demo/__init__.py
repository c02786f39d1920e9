"""The demo corpus: a small fictional company's documents in three containers.

Layout: ``data/<container>/<path>``; the top-level folder under ``data/`` is the
container (``default`` = operations, ``legal``, ``finance``). Tags per file are in
``tags.json`` (path relative to ``data/`` -> list of tags). ``questions.json`` holds
sample questions with the files and facts that answer them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hopgraph.index.backend import SearchBackend

_HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class DemoFile:
    path: Path  # absolute
    rel: str  # relative to data/, e.g. "legal/contracts/nordlicht-supply-agreement.pdf"
    container: str
    tags: tuple[str, ...]


def corpus_dir() -> Path:
    """The ``data`` directory; each sub-directory is one container."""
    return _HERE / "data"


def containers() -> list[str]:
    return sorted(p.name for p in corpus_dir().iterdir() if p.is_dir())


def tags() -> dict[str, list[str]]:
    with (_HERE / "tags.json").open(encoding="utf-8") as fh:
        data: dict[str, list[str]] = json.load(fh)
    return data


def files() -> list[DemoFile]:
    """Every demo file with its container and tags, sorted by relative path."""
    root = corpus_dir()
    tag_map = tags()
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        out.append(DemoFile(path=path, rel=rel, container=rel.split("/", 1)[0], tags=tuple(tag_map.get(rel, ()))))
    return out


def doc_id(rel: str) -> str:
    """The document id ``ingest_demo`` gives a file: its name (names are unique in the corpus)."""
    return rel.rsplit("/", 1)[-1]


def ingest_demo(
    backend: SearchBackend, progress: bool = False, on_container: Callable[[str, dict[str, Any]], None] | None = None
) -> dict[str, Any]:
    """Ingests every demo file into its container with its tags; unchanged files are skipped.

    Files are ingested one group (container, tags) at a time, by path, so each
    document id is the file name. ``on_container(name, counts)`` is called once a container
    is done, with its "documents" (written), "unchanged", "chunks" and "skipped". Returns
    {"containers", "documents", "chunks", "unchanged", "skipped"} over the whole corpus.
    """
    from hopgraph.index.ingest import ingest_paths

    groups: dict[tuple[str, tuple[str, ...]], list[Path]] = {}
    for f in files():
        groups.setdefault((f.container, f.tags), []).append(f.path)
    names = sorted({c for c, _ in groups})
    totals: dict[str, Any] = {"containers": names, "documents": 0, "chunks": 0, "unchanged": 0, "skipped": []}
    for name in names:
        counts: dict[str, Any] = {"documents": 0, "chunks": 0, "unchanged": 0, "skipped": []}
        for (container, tag_set), paths in sorted(groups.items()):
            if container != name:
                continue
            report = ingest_paths(backend, paths, container=container, tags=tag_set, progress=progress)
            counts["documents"] += report.docs
            counts["chunks"] += report.chunks
            counts["unchanged"] += report.unchanged
            counts["skipped"] += report.skipped
        for key in counts:
            totals[key] += counts[key]
        if on_container is not None:
            on_container(name, counts)
    return totals


def questions() -> list[dict[str, Any]]:
    with (_HERE / "questions.json").open(encoding="utf-8") as fh:
        data: list[dict[str, Any]] = json.load(fh)
    return data


__all__ = ["DemoFile", "containers", "corpus_dir", "doc_id", "files", "ingest_demo", "questions", "tags"]
