"""What one ingest run did: documents written, kept, retagged; paths skipped, refused, left out; documents removed.

The CLI prints ``summary()`` (or ``to_dict()`` as JSON) and exits 3 when ``incomplete``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hopgraph.index.sources import Conflict

# Hidden paths named one by one in the summary; the JSON report lists them all.
HIDDEN_SHOWN = 5


@dataclass
class IngestReport:
    files: int = 0
    docs: int = 0
    """Documents written (new or changed)."""
    unchanged: int = 0
    retagged: int = 0
    """Unchanged documents whose tags were changed in place (not embedded again)."""
    chunks: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(path, reason) for every path not ingested (unreadable, unsupported, not a regular file, ...)."""
    refused: list[Conflict] = field(default_factory=list)
    """Files not ingested because their id belongs to a document of another file."""
    replaced: list[Conflict] = field(default_factory=list)
    """Documents of other files replaced, as asked (``replace``)."""
    hidden: list[str] = field(default_factory=list)
    """Paths left out because their name starts with a dot."""
    removed: list[str] = field(default_factory=list)
    """Documents pruned because their files are gone."""
    seconds: float = 0.0

    @property
    def incomplete(self) -> bool:
        """Some file was not ingested: skipped or refused."""
        return bool(self.skipped or self.refused)

    def add(self, other: IngestReport) -> None:
        """Counts a sub-run (a BEIR corpus met in a folder) into this one."""
        self.docs += other.docs
        self.unchanged += other.unchanged
        self.retagged += other.retagged
        self.chunks += other.chunks
        self.skipped += other.skipped
        self.refused += other.refused
        self.replaced += other.replaced

    def summary(self) -> str:
        rate = self.chunks / self.seconds if self.seconds > 0 else 0.0
        counts = [f"{self.unchanged} unchanged"]
        if self.retagged:
            counts.append(f"{self.retagged} retagged")
        counts.append(f"{len(self.skipped)} skipped")
        if self.refused:
            counts.append(f"{len(self.refused)} refused")
        lines = [f"ingested {self.docs} documents ({self.chunks} chunks, {rate:.0f} chunks/s), "
                 f"{', '.join(counts)}, in {self.seconds:.1f}s"]
        if self.removed:
            lines[0] += f"; removed {len(self.removed)} documents whose files are gone"
        lines += [f"  skipped {path}: {reason}" for path, reason in self.skipped]
        lines += [f"  refused {c.doc_id} in container {c.container}: a document from {c.stored} has this id; "
                  f"not replaced by {c.incoming}" for c in self.refused]
        lines += [f"  replaced {c.doc_id} in container {c.container}: was from {c.stored}, now from {c.incoming}"
                  for c in self.replaced]
        lines += [f"  removed {doc_id}" for doc_id in self.removed]
        if self.hidden:
            names = ", ".join(self.hidden[:HIDDEN_SHOWN]) + (", ..." if len(self.hidden) > HIDDEN_SHOWN else "")
            lines.append(f"  left out {len(self.hidden)} hidden paths (names starting with '.'): {names}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        def conflicts(items: list[Conflict]) -> list[dict[str, str]]:
            return [{"doc_id": c.doc_id, "container": c.container, "stored": c.stored, "incoming": c.incoming}
                    for c in items]

        return {"files": self.files, "docs": self.docs, "unchanged": self.unchanged, "retagged": self.retagged,
                "chunks": self.chunks, "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
                "refused": conflicts(self.refused), "replaced": conflicts(self.replaced), "hidden": self.hidden,
                "removed": self.removed, "seconds": round(self.seconds, 3)}
