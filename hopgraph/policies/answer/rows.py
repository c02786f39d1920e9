"""Rows of a table as sentences the answer policy can quote: CSV rows and "Column: value" records spelled out as
"Column: value; Column: value", and the lines of a sheet printed as text, each with its column header line."""

from __future__ import annotations

import csv
import io
import re

MIN_ROW_CHARS = 25

_FIELD = re.compile(r"^[^:]{1,40}:\s")


def table_rows(text: str) -> list[str]:
    """Rows of a table as single lines: CSV rows and "Column: value" records spelled out."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 2 and all("," in line for line in lines[:2]) and lines[0].count(",") >= 2:
        rows = list(csv.reader(io.StringIO("\n".join(lines))))
        header = rows[0]
        return ["; ".join(f"{h}: {v}" for h, v in zip(header, row, strict=False)) for row in rows[1:]]
    out = []
    for block in re.split(r"\n\s*\n", text):
        block_lines = [line.strip() for line in block.splitlines() if line.strip()]
        if len(block_lines) >= 2 and sum(1 for line in block_lines if _FIELD.match(line)) >= 2:
            out.append("; ".join(block_lines))  # one record of "Column: value" lines
        else:
            out += _printed_rows(block_lines)
    return out


_FIGURE_TOKEN = re.compile(r"(?<![\w-])\d[\d,.]*%?(?![\w-])")


def _printed_rows(lines: list[str]) -> list[str]:
    """Rows of a sheet printed as text lines ("Firmware team 620,000 461,000 615,000 Jonas Berg"), each with the
    column header line above it ("Cost centre Budget 2026 EUR ... Owner | Firmware team 620,000 ..."), so a row
    says what its numbers are; the header alone is no row. A header is a line of three or more words with no
    figure but a year, right above a line with two figures or more."""
    out: list[str] = []
    header = ""
    for i, line in enumerate(lines):
        figures = [f for f in _FIGURE_TOKEN.findall(line) if not re.fullmatch(r"(?:1[5-9]|20)\d\d", f)]
        following = _FIGURE_TOKEN.findall(lines[i + 1]) if i + 1 < len(lines) else []
        if not figures and len(line.split()) >= 3 and len(following) >= 2:
            header = line
            continue
        if len(line) >= MIN_ROW_CHARS and any(c.isdigit() for c in line):
            out.append(f"{header} | {line}" if header and len(figures) >= 2 else line)
    return out
