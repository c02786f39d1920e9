"""How the text of a passage is read as paragraphs of sentences.

Running text: wrapped lines are joined and split into sentences (a stop after an abbreviation such as "St." or
"Mt." ends none); headings, clause titles and page footers are left out; a list item is a paragraph of its own.
A Markdown table row is one sentence spelled "Column: value; ..." under its header row. A heading over labelled
list items ("## Kestrel Road Surgery", "- **Phone:** 01632 960 318") is one record spelled the same way
("Name: Kestrel Road Surgery; Phone: ..."), so its fields are read as a table row's cells.
"""

from __future__ import annotations

import re

from hopgraph.policies.text import sentences

MIN_SENTENCE_CHARS = 25

_MARKER = re.compile(r"^(?:#+|[-*\u2022]|\d+[.)])\s+")


def _is_heading(line: str) -> bool:
    return len(line) < 60 and not line.rstrip().endswith((".", "!", "?", ":", ";", ","))


_RULE = re.compile(r":?-{3,}:?")


def _table_cells(line: str) -> list[str] | None:
    """The cells of a Markdown table row ("| a | b |"), or None for any other line."""
    if not (line.startswith("|") and line.endswith("|") and line.count("|") >= 3):
        return None
    return [c.strip() for c in line[1:-1].split("|")]


# "- **Phone:** 01632 960 318", "* Clinical lead: Rowena Castell": a labelled item of a list.
_FIELD = re.compile(r"^(?:[-*\u2022]\s+)?\*{0,2}([A-Z][\w '’/&()-]{0,40}?)\*{0,2}:\*{0,2}\s+(\S.*)$")
_HEADING_MARK = re.compile(r"^#+\s+")
_BULLETS = ("- ", "* ", "\u2022 ")


def _field_section(lines: list[str], at: int) -> tuple[str, int] | None:
    """A heading at ``at`` followed (blank lines aside) by at least two labelled list items: the record it
    makes ("Name: <heading>; <label>: <value>; ..."), and the index of the first line after it; else None."""
    heading = _HEADING_MARK.sub("", lines[at]).strip("*# ")
    if not heading or not _is_heading(heading) or _FIELD.match(lines[at]):
        return None
    fields: list[str] = []
    j = at + 1
    while j < len(lines):
        line = lines[j]
        if not line:
            if fields and j + 1 < len(lines) and not lines[j + 1].startswith(_BULLETS):
                break
            j += 1
            continue
        m = _FIELD.match(line) if line.startswith(_BULLETS) else None
        if m is None:
            if fields and not line.startswith(("#", "|")) and not _FIELD.match(line):
                fields[-1] = f"{fields[-1]} {line}".rstrip(";.")  # a wrapped item goes on
                j += 1
                continue
            break
        value = m.group(2).strip().replace("; ", ", ").rstrip(";.")
        fields.append(f"{m.group(1).strip()}: {value}")
        j += 1
    if len(fields) < 2:
        return None
    return "; ".join([f"Name: {heading}", *fields]), j


def prose_sentences(text: str) -> list[str]:
    """Sentences of running text: wrapped lines are joined, headings and footers left out."""
    return [s for paragraph in prose_paragraphs(text) for s in paragraph]


def prose_paragraphs(text: str) -> list[list[str]]:
    """The sentences of running text, paragraph by paragraph."""
    return [paragraph for _, paragraph in prose_sections(text)]


def sentence_headings(text: str) -> list[str]:
    """For each of :func:`prose_sentences`, the heading it stands under ('' above the first heading): what a
    sentence is about when neither it nor its paragraph says ("## 4. Cray Bridge Pool Manager" over "Moira confirmed
    that she will retire on 31 December")."""
    return [heading for heading, paragraph in prose_sections(text) for _ in paragraph]


def leading_heading(text: str) -> str:
    """The heading the text opens with, before any paragraph ('' when it opens with one)."""
    sections = prose_sections(text)
    return sections[0][0] if sections and _opens_with_heading(text, sections[0][0]) else ""


def _opens_with_heading(text: str, heading: str) -> bool:
    for raw in text.splitlines():
        line = _MARKER.sub("", raw.strip(), count=1).strip()
        if line:
            return bool(heading) and line == heading
    return False


def prose_sections(text: str) -> list[tuple[str, list[str]]]:
    """The sentences of running text, paragraph by paragraph, each paragraph with the heading it stands under."""
    paragraphs: list[str] = []
    headings: list[str] = []  # the heading over each paragraph
    heading = ""
    rows: set[int] = set()  # paragraphs that are table rows: one sentence each, never split
    current: list[str] = []

    def flush() -> None:
        if current:
            paragraphs.append(" ".join(current))
            headings.append(heading)
            current.clear()

    lines = [raw.strip() for raw in text.splitlines()]
    header: list[str] = []
    skip_to = 0
    for i, line in enumerate(lines):
        if i < skip_to:
            continue
        if not line:
            flush()
            continue
        section = _field_section(lines, i)
        if section is not None:
            # A heading over labelled items ("## Kestrel Road Surgery", "- **Phone:** 01632 960 318"): one
            # record, spelled as a table row is, so its fields are read as a row's cells.
            flush()
            rows.add(len(paragraphs))
            paragraphs.append(section[0])
            headings.append(heading)
            skip_to = section[1]
            continue
        cells = _table_cells(line)
        if cells is not None:
            # A row of a Markdown table is a sentence of its own, spelled out as "Column: value; ..." under a
            # header row, so its cells are read as a table's (a short row would otherwise pass for a heading).
            flush()
            following = _table_cells(lines[i + 1]) if i + 1 < len(lines) else None
            if all(_RULE.fullmatch(c) for c in cells if c):
                continue  # the rule under the header
            if following is not None and following and all(_RULE.fullmatch(c) for c in following if c):
                header = cells
                continue
            rows.add(len(paragraphs))
            if len(header) == len(cells):
                paragraphs.append("; ".join(f"{h}: {v}" for h, v in zip(header, cells, strict=True) if v))
            else:
                paragraphs.append(" | ".join(c for c in cells if c))
            headings.append(heading)
            continue
        header = []
        marker = _MARKER.match(line)
        if marker:
            flush()
            line = line[marker.end():]
        # A list item with a figure ("- Kingsmere Tiling Ltd: £46,500") is a fact, however short, not a heading.
        listed_figure = (marker is not None and not _HEADING_MARK.match(marker.group())
                         and any(c.isdigit() for c in line))
        headed = marker is not None and _HEADING_MARK.match(marker.group()) is not None
        if _is_heading(line) and not headed and _LABELLED_CODE.match(line):
            # "Procedure followed: HB-P02 (Spill of cleaning chemicals)" on a line of its own: a reference to another
            # document by its code, not a heading (other short labelled lines, "Odometer: 47532", stay left out).
            flush()
            paragraphs.append(line)
            headings.append(heading)
            continue
        if (_is_heading(line) and not listed_figure
                and (not current or current[-1].endswith((".", "!", "?", ":")))):
            flush()
            heading = line
            continue  # a title, a clause heading or a page footer
        current.append(line)
    flush()
    out = []
    for i, paragraph in enumerate(paragraphs):
        split = [paragraph] if i in rows else _rejoined(sentences(paragraph))
        # A short labelled figure ("Date: 18 July 2026.", "Van hire: £40") is a fact, not a fragment.
        kept = [s.strip() for s in split if len(s.strip()) >= MIN_SENTENCE_CHARS or _LABELLED_FIGURE.match(s.strip())]
        if kept:
            out.append((headings[i], kept))
    return out


# "a suburb of St. Paul", "Mt. Hood", "Sammy Davis Jr. and": a stop that ends an abbreviation, not a sentence.
_ABBREVIATION = re.compile(r"(?:\b(?:St|Mt|Ft|Dr|Mr|Mrs|Ms|Jr|Sr|Gen|Col|Lt|Sgt|Rev|Prof|Hon|Inc|Co|Ltd|No|vs|Jan|Feb|"
                           r"Aug|Sept|Oct|Nov|Dec)|(?<![\w.])[A-Z])\.$")


# A document's code as records cite it: "HB-P02", "FVG-CP03", "INC-2026-019".
DOCUMENT_CODE = r"\b[A-Z]{2,}(?:-[A-Z0-9]+)+\b"
# "Procedure followed: HB-P02 (...)": a label of a few words, a colon and a value that gives a code.
_LABELLED_CODE = re.compile(rf"^\*{{0,2}}[A-Z][\w '’/&()-]{{0,30}}?\*{{0,2}}:\*{{0,2}}\s+.*{DOCUMENT_CODE}")
_LABELLED_FIGURE = re.compile(r"^[A-Z][\w ]{1,30}:\s*[^\s:]*\d")


def _rejoined(parts: list[str]) -> list[str]:
    """Sentences with the pieces a split after an abbreviation cut off put back together."""
    out: list[str] = []
    for part in parts:
        if out and _ABBREVIATION.search(out[-1].rstrip()) and part.strip()[:1].isupper():
            out[-1] = f"{out[-1].rstrip()} {part.strip()}"
        else:
            out.append(part)
    return out
