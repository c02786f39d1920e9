"""Generates the demo corpus under hopgraph/demo/data/ (run: python -m hopgraph.demo.build).

The corpus describes Tidewater Instruments, a fictional maker of environmental
sensors: operations (incidents, releases, runbooks), legal (supplier contracts) and
finance (orders and budgets exported from spreadsheets). The generated files are
shipped with the package; this script only needs fpdf2 and python-docx to rebuild them.
Output is deterministic (fixed document dates).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import shutil
import zipfile
from pathlib import Path

from hopgraph.demo.content import DATASHEET_TS40, DOCX_FILES, INCIDENT_031, TEXT_FILES
from hopgraph.demo.contracts import CONTRACTS, contract_pages
from hopgraph.demo.tables import BUDGET_HEADER, BUDGET_ROWS, INVOICES, ORDERS_HEADER, ORDERS_ROWS, SCORECARD

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
# Kept next to data/, not inside it, so ingesting data/ never picks it up.
TAGS_FILE = HERE / "tags.json"
FIXED_DATE = dt.datetime(2026, 11, 1, 9, 0, 0, tzinfo=dt.UTC)

def _tags_for(rel: str) -> list[str]:
    parts = rel.split("/")
    tags = {
        "incidents": ["incident"], "releases": ["release-notes", "firmware"], "runbooks": ["runbook"],
        "team": ["people"], "suppliers": ["supplier"], "meetings": ["meeting", "supplier"],
        "product": ["product"], "contracts": ["contract", "supplier"], "notices": ["contract", "notice"],
        "policies": ["policy"], "memos": ["memo"],
    }.get(parts[1] if len(parts) > 2 else "", [])
    if rel.endswith(".xlsx.pdf") or rel.endswith(".csv"):
        tags = [*tags, "spreadsheet"]
    return sorted(set(tags))


# ---------------------------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------------------------


def _pdf(path: Path, pages: list[str], title: str) -> None:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title(title)
    pdf.set_author("Tidewater Instruments")
    pdf.set_auto_page_break(auto=False)
    for text in pages:
        pdf.add_page()
        pdf.set_font("Helvetica", size=10)
        pdf.multi_cell(0, 5, text)
        pdf.set_y(-15)
        pdf.set_font("Helvetica", size=8)
        pdf.cell(0, 5, f"{title} - page {pdf.page_no()}", align="C")
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))


def _table_pdf(path: Path, title: str, header: list[str], rows: list[list[str]], widths: list[int]) -> None:
    """A spreadsheet printed to PDF: a sheet name line, then the grid."""
    from fpdf import FPDF

    # No title metadata: like most spreadsheet exports, the file name is all it has.
    pdf = FPDF(orientation="L", format="A4")
    pdf.set_creation_date(FIXED_DATE)
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", style="B", size=9)
    for w, h in zip(widths, header, strict=True):
        pdf.cell(w, 7, h, border=1)
    pdf.ln()
    pdf.set_font("Helvetica", size=9)
    for row in rows:
        for w, v in zip(widths, row, strict=True):
            pdf.cell(w, 6, v, border=1)
        pdf.ln()
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))


def _docx(path: Path, paragraphs: list[str]) -> None:
    import docx

    document = docx.Document()
    document.core_properties.created = FIXED_DATE.replace(tzinfo=None)
    document.core_properties.modified = FIXED_DATE.replace(tzinfo=None)
    document.core_properties.author = "Tidewater Instruments"
    document.core_properties.last_modified_by = "Tidewater Instruments"
    document.core_properties.revision = 1
    document.add_heading(paragraphs[0], level=1)
    for p in paragraphs[1:]:
        document.add_paragraph(p)
    buffer = io.BytesIO()
    document.save(buffer)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_stable_zip(buffer.getvalue()))


def _stable_zip(data: bytes) -> bytes:
    """Rewrites a zip (docx) with fixed member timestamps so rebuilds are byte-identical."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 11, 1, 9, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def _csv(path: Path, rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def build(target: Path = DATA, tags_file: Path = TAGS_FILE) -> list[str]:
    """Writes every demo file under ``target`` (replacing it); returns the relative paths."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for c in CONTRACTS:
        _pdf(target / "legal" / c["file"], contract_pages(c), c["title"])
    _pdf(target / "default/incidents/INC-2026-031-late-housing-delivery.pdf", INCIDENT_031,
         "INC-2026-031 Late delivery of sensor housings")
    _pdf(target / "default/product/ts-40-datasheet.pdf", DATASHEET_TS40, "TS-40 data sheet")
    _table_pdf(target / "finance/orders.xlsx.pdf", "orders.xlsx - Sheet: Purchase orders 2026", ORDERS_HEADER,
               ORDERS_ROWS, [22, 62, 50, 22, 26, 28, 28])
    _table_pdf(target / "finance/budget-2026.xlsx.pdf", "budget-2026.xlsx - Sheet: Cost centres", BUDGET_HEADER,
               BUDGET_ROWS, [50, 40, 40, 36, 40])
    for rel, text in TEXT_FILES.items():
        if text:
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    _csv(target / "default/suppliers/supplier-scorecard.csv", SCORECARD)
    _csv(target / "finance/invoices-q3.csv", INVOICES)
    for rel, paragraphs in DOCX_FILES.items():
        _docx(target / rel, paragraphs)
    files = sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file())
    tags = {rel: _tags_for(rel) for rel in files}
    tags_file.write_text(json.dumps(tags, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return files


if __name__ == "__main__":
    written = build()
    size = sum((DATA / rel).stat().st_size for rel in written)
    print(f"wrote {len(written)} files ({size / 1024:.0f} KiB) to {DATA}")
