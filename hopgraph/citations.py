"""Turn the ``[S1]`` markers of an answer into numbered citations.

Search results carry reference ids (S1, S2, ...) that count up over a user turn; the
registry ``refs`` maps each id to its chunk's document fields. The answer the reader
sees gets short labels ``[1]``, ``[2]`` numbered in order of first use, one per
document page, plus the list of those citations and where each label sits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

# Spreadsheet formats: exported to PDF they keep the sheet's name, and their "pages"
# are an artefact of printing, so they are cited without a page.
SPREADSHEET_EXTS = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv")
TABULAR_KINDS = frozenset({"table", "csv", "tsv", "xlsx", "xls", "ods", "spreadsheet"})

# One bracket group of refs: [S1], [S1, S2], [S1; S2], [s3]
_GROUP = r"\[\s*S\d+(?:\s*[,;]\s*S\d+)*\s*\]"
# A run of groups written next to each other: [S1][S2], [S1] [S2], [S1], [S2]
_CLUSTER = re.compile(rf"{_GROUP}(?:[ \t]*,?[ \t]*{_GROUP})*", re.IGNORECASE)
_REF = re.compile(r"S\d+", re.IGNORECASE)


def _exported_spreadsheet(name: str) -> bool:
    lower = name.lower()
    return lower.endswith(".pdf") and lower[:-4].endswith(SPREADSHEET_EXTS)


def display_title(title: str, source: str = "") -> str:
    """``orders.xlsx.pdf`` reads ``orders.xlsx``: the reader knows the spreadsheet, not the export."""
    title = (title or "").strip()
    if _exported_spreadsheet(title):
        return title[:-4]
    if not title and source:
        name = source.rstrip("/").rsplit("/", 1)[-1]
        return name[:-4] if _exported_spreadsheet(name) else name
    return title


def is_tabular(kind: str = "", source: str = "", title: str = "") -> bool:
    if (kind or "").lower() in TABULAR_KINDS:
        return True
    return any(_exported_spreadsheet(n) or (n or "").lower().endswith(SPREADSHEET_EXTS) for n in (source, title) if n)


def citable_page(ref: Mapping[str, Any]) -> int | None:
    """The page to show for a ref, or None (no page known, or a tabular source)."""
    page = ref.get("page")
    if not isinstance(page, int) or isinstance(page, bool) or page < 1:
        return None
    if is_tabular(str(ref.get("kind") or ""), str(ref.get("source") or ""), str(ref.get("title") or "")):
        return None
    return page


def link_for(source: str, page: int | None) -> str:
    if not source:
        return ""
    return f"{source}#page={page}" if page is not None else source


@dataclass
class Citation:
    number: int  # the label shown in the text: [number]
    title: str
    page: int | None
    container: str
    source: str
    kind: str
    link: str
    doc_id: str = ""
    refs: list[str] = field(default_factory=list)  # the S-ids that point here

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class CitedAnswer:
    text: str
    citations: list[Citation]
    # Each label in ``text``: {"start", "end", "citation" (index into citations), "label", "ref"}.
    markers: list[dict[str, Any]]
    unknown_markers: int = 0
    unknown_refs: list[str] = field(default_factory=list)

    @property
    def marker_map(self) -> dict[int, int]:
        """Start offset of each label in ``text`` -> index into ``citations``."""
        return {m["start"]: m["citation"] for m in self.markers}

    def as_state(self) -> dict[str, Any]:
        """The graph's output fields: answer, citations, markers."""
        return {
            "answer": self.text,
            "citations": [c.as_dict() for c in self.citations],
            "markers": [dict(m) for m in self.markers],
        }


def _key(ref: Mapping[str, Any], page: int | None) -> tuple[str, str, int | None]:
    doc = str(ref.get("doc_id") or ref.get("source") or ref.get("title") or "")
    return (str(ref.get("container") or ""), doc, page)


def _tidy_removal(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a removed span so no double space or space-before-punctuation is left behind."""
    while start > 0 and text[start - 1] in " \t" and (end >= len(text) or text[end] in " \t.,;:!?)\n"):
        start -= 1
    return start, end


def resolve_citations(answer: str, refs: Mapping[str, Mapping[str, Any]]) -> CitedAnswer:
    """Replace ``[Sn]`` markers with numbered labels; drop and count markers naming no known ref."""
    registry = {str(k).upper(): v for k, v in (refs or {}).items()}
    citations: list[Citation] = []
    by_key: dict[tuple[str, str, int | None], int] = {}
    out: list[str] = []
    markers: list[dict[str, Any]] = []
    unknown: list[str] = []
    length = 0
    pos = 0
    for match in _CLUSTER.finditer(answer or ""):
        labels: list[tuple[int, str]] = []
        for ref_match in _REF.finditer(match.group()):
            ref_id = ref_match.group().upper()
            ref = registry.get(ref_id)
            if ref is None:
                unknown.append(ref_id)
                continue
            page = citable_page(ref)
            key = _key(ref, page)
            index = by_key.get(key)
            if index is None:
                index = len(citations)
                by_key[key] = index
                source = str(ref.get("source") or "")
                citations.append(Citation(
                    number=index + 1,
                    title=display_title(str(ref.get("title") or ""), source),
                    page=page,
                    container=str(ref.get("container") or ""),
                    source=source,
                    kind=str(ref.get("kind") or ""),
                    link=link_for(source, page),
                    doc_id=str(ref.get("doc_id") or ""),
                ))
            if ref_id not in citations[index].refs:
                citations[index].refs.append(ref_id)
            if all(i != index for i, _ in labels):
                labels.append((index, ref_id))
        start, end = match.start(), match.end()
        if not labels:
            start, end = _tidy_removal(answer, start, end)
            if start < pos:
                start = pos
        piece = answer[pos:start]
        out.append(piece)
        length += len(piece)
        for index, ref_id in labels:
            label = f"[{index + 1}]"
            markers.append({"start": length, "end": length + len(label), "citation": index, "label": label,
                            "ref": ref_id})
            out.append(label)
            length += len(label)
        pos = end
    out.append((answer or "")[pos:])
    return CitedAnswer(text="".join(out), citations=citations, markers=markers,
                       unknown_markers=len(unknown), unknown_refs=unknown)
