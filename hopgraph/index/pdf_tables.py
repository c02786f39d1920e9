"""Tables on a PDF page, read back as rows.

A sheet exported to PDF (a budget, a list of orders) comes out of plain text extraction as lines of words and
figures with nothing to tell one column from the next: "Firmware team 620,000 461,000 615,000 Jonas Berg". Laid
out by position instead (pypdf's layout mode), its columns are runs of text two or more spaces apart that line up
under a header line. Such a table is written out the way a spreadsheet's rows are (one "Column: value" line per
cell, a blank line between rows), so a row says what each of its figures is; the rest of the page stays text.

A table is a header line of three or more short cells with no figure in them but a year, followed by two or more
lines of two or more cells that each fall under a header cell. Anything else on the page (prose, a title, a
footer) is left as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A cell: a run of text whose words are one space apart; two spaces or more end it.
_CELL = re.compile(r"\S+(?: \S+)*")
_FIGURE = re.compile(r"\d")
_YEAR = re.compile(r"^(?:1[5-9]|20)\d\d$")
MIN_COLUMNS = 3
MIN_ROWS = 2
# Header cells are labels, not sentences: short, and not ending a sentence.
MAX_HEADER_CHARS = 40
MAX_CELL_CHARS = 80


@dataclass(frozen=True)
class _Cell:
    start: int
    end: int
    text: str


def _cells(line: str) -> list[_Cell]:
    return [_Cell(m.start(), m.end(), m.group()) for m in _CELL.finditer(line)]


def _is_header(cells: list[_Cell]) -> bool:
    if len(cells) < MIN_COLUMNS:
        return False
    for cell in cells:
        if len(cell.text) > MAX_HEADER_CHARS or cell.text.endswith((".", ";", ",")):
            return False
        if any(_FIGURE.search(word) and not _YEAR.match(word) for word in cell.text.split()):
            return False
    return True


def _column_of(cell: _Cell, header: list[_Cell]) -> int:
    """The header cell this cell sits under: the one its extent overlaps most, else the last one starting at or
    before it (a figure right-aligned at its column's edge, past the end of a left-aligned label)."""

    def overlap(h: _Cell) -> int:
        return min(cell.end, h.end) - max(cell.start, h.start)

    best = max(range(len(header)), key=lambda i: overlap(header[i]))
    if overlap(header[best]) > 0:
        return best
    return max((i for i, h in enumerate(header) if h.start <= cell.start), default=0)


def _row(cells: list[_Cell], header: list[_Cell]) -> dict[int, str] | None:
    """A line's cells by column, or None when the line is not a row of this table (one cell, a long one, or cells
    beyond the table's left and right edges)."""
    if len(cells) < 2 or any(len(c.text) > MAX_CELL_CHARS for c in cells):
        return None
    left, right = header[0].start, header[-1].end
    slack = max(h.end - h.start for h in header)
    if cells[0].start < left - slack or cells[-1].end > right + 2 * slack:
        return None
    row: dict[int, str] = {}
    for cell in cells:
        column = _column_of(cell, header)
        row[column] = f"{row[column]} {cell.text}" if column in row else cell.text
    return row if len(row) >= 2 else None


def _rendered(header: list[_Cell], rows: list[dict[int, str]]) -> str:
    blocks = ["\n".join(f"{header[i].text}: {value}" for i, value in sorted(row.items())) for row in rows]
    return "\n\n".join(blocks)


def page_with_tables(layout_text: str) -> str | None:
    """The page laid out by position, with each table on it written as rows of "Column: value" lines; None when
    the page holds no table (its plain text is then the better reading)."""
    lines = layout_text.splitlines()
    out: list[str] = []
    found = False
    i = 0
    while i < len(lines):
        header = _cells(lines[i])
        if _is_header(header):
            rows: list[dict[int, str]] = []
            j = i + 1
            while j < len(lines):
                # Blank lines may part rows (and the header from the first row); the table goes on if a row follows.
                k = j
                while k < len(lines) and not lines[k].strip():
                    k += 1
                row = _row(_cells(lines[k]), header) if k < len(lines) else None
                if row is None:
                    break
                rows.append(row)
                j = k + 1
            if len(rows) >= MIN_ROWS:
                out += ["", _rendered(header, rows), ""]
                found = True
                i = j
                continue
        out.append(" ".join(lines[i].split()))
        i += 1
    if not found:
        return None
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
