"""A folder of documents written by a test, ingested with the real loaders into the default embedded index.

``write_files`` writes ``{"container/name.md": text}`` under a folder (``csv_text`` spells a table as CSV,
``write_sheet_pdf`` prints one to PDF in columns, as a spreadsheet exports it);
``ingested`` opens an index next to it, ingests each top-level folder as the container of that name, yields the
backend and the container names, and closes the index; ``ask`` runs a question through the graph with the
built-in answer policy.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from hopgraph.api import run
from hopgraph.config import Context
from hopgraph.index.factory import close_backend, open_backend
from hopgraph.index.ingest import ingest_paths

Folder = tuple[Any, list[str]]  # the backend and the containers to search


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def write_files(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, newline="")
    return root


def write_sheet_pdf(path: Path, title: str, header: Sequence[str], rows: Sequence[Sequence[str]],
                    widths: Sequence[int], prose_after: str = "") -> Path:
    """A table printed to a PDF page under a title line: labels left-aligned, figures right-aligned under them."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    for i, row in enumerate([header, *rows]):
        for width, cell in zip(widths, row, strict=True):
            pdf.cell(width, 7, cell, align="R" if i and cell[:1].isdigit() else "L")
        pdf.ln(7)
    if prose_after:
        pdf.ln(7)
        pdf.multi_cell(0, 7, prose_after)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


@contextmanager
def ingested(tmp_path_factory: pytest.TempPathFactory, root: Path) -> Iterator[Folder]:
    containers = sorted(p.name for p in root.iterdir() if p.is_dir())
    index_dir = str(tmp_path_factory.mktemp(f"{root.name}-index"))
    backend = open_backend(index_dir=index_dir)
    try:
        for name in containers:
            ingest_paths(backend, [root / name], container=name, progress=False)
        yield backend, containers
    finally:
        close_backend(index_dir=index_dir)


def ask(folder: Folder, question: str, thread_id: str | None = None, checkpointer: Any = None) -> dict[str, Any]:
    backend, containers = folder
    context = Context(mode="answer", model="builtin", backend=backend, containers=containers)
    return run(question, context=context, thread_id=thread_id, checkpointer=checkpointer)
