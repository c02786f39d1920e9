"""A PDF page that holds a table laid out in columns is read as rows of "Column: value" cells; prose pages read as
before; re-ingesting an index written before PDF tables were read this way reads its PDFs again."""

from __future__ import annotations

from pathlib import Path

import pytest

from hopgraph.index import loaders
from hopgraph.index.loaders import LOADERS
from hopgraph.index.pdf_tables import page_with_tables
from tests.support.folders import write_sheet_pdf


def _table_pdf(path: Path, rows: list[tuple[str, str, str, str]], prose_after: str = "") -> None:
    write_sheet_pdf(path, "Purchase orders 2026", ("PO", "Supplier", "Quantity", "Value EUR"), rows, (30, 70, 40, 30),
                    prose_after)


ROWS = [("PO-4452", "Carrow Plastics Ltd", "5,000", "6,250"), ("PO-4471", "Nordlicht Components GmbH", "1,200",
                                                                   "48,200"),
        ("PO-4483", "Carrow Plastics Ltd", "8,000", "2,400")]


def _blocks(text: str) -> list[str]:
    return [b.strip() for b in text.split("\n\n") if b.strip()]


def test_a_table_in_a_pdf_is_read_as_rows_of_named_cells(tmp_path: Path) -> None:
    path = tmp_path / "orders.pdf"
    _table_pdf(path, ROWS, prose_after="Orders above 40,000 EUR need the finance director's approval.")
    loaded = LOADERS[".pdf"](path)
    text = loaded.sections[0].text
    blocks = _blocks(text)
    assert "PO: PO-4471\nSupplier: Nordlicht Components GmbH\nQuantity: 1,200\nValue EUR: 48,200" in blocks
    assert "PO: PO-4483\nSupplier: Carrow Plastics Ltd\nQuantity: 8,000\nValue EUR: 2,400" in blocks
    # The header is no row of its own, and the text around the table stays text.
    assert not any(b.startswith("PO Supplier") for b in blocks)
    assert "Purchase orders 2026" in text
    assert "Orders above 40,000 EUR need the finance director's approval." in text
    assert loaded.sections[0].page == 1


def test_a_pdf_of_prose_reads_as_its_plain_text(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 7, "Delivery is due six weeks from the date of each purchase order. The Supplier confirms "
                         "or rejects each order within three working days.")
    path = tmp_path / "terms.pdf"
    pdf.output(str(path))
    plain = loaders._loaders().PyPDFLoader(str(path)).load()[0].page_content
    assert LOADERS[".pdf"](path).sections[0].text == plain


def test_rows_parted_by_blank_lines_and_figures_wider_than_their_label() -> None:
    page = "\n".join([
        "Cost centre        Budget    Owner",
        "",
        "Materials       1,450,000    Helen Marsh",
        "",
        "Freight           180,000    Daniel Osei",
        "",
        "Both figures are in euro and exclude VAT.",
    ])
    text = page_with_tables(page)
    assert text is not None
    assert _blocks(text) == ["Cost centre: Materials\nBudget: 1,450,000\nOwner: Helen Marsh",
                             "Cost centre: Freight\nBudget: 180,000\nOwner: Daniel Osei",
                             "Both figures are in euro and exclude VAT."]


@pytest.mark.parametrize("page", [
    # A header with figures in it is a row of data, not labels.
    "Materials   1,450,000   Helen Marsh\nFreight   180,000   Daniel Osei\nFirmware   620,000   Jonas Berg",
    # Two columns of prose set side by side are no table.
    "The initial term ends on 1 March.      The Supplier owes a penalty of 2 percent.\n"
    "It then continues until notice.       The penalty is capped at 10 percent.",
    # A header with one row under it.
    "Cost centre   Budget   Owner\nMaterials   1,450,000   Helen Marsh",
])
def test_what_is_no_table_is_left_alone(page: str) -> None:
    assert page_with_tables(page) is None


def test_reingesting_reads_pdfs_again_after_the_way_they_are_read_changed(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from hopgraph.index.backend import Scope
    from hopgraph.index.edge import EdgeBackend
    from hopgraph.index.embed import get_embedder
    from hopgraph.index.ingest import ingest_paths

    docs = tmp_path / "docs"
    docs.mkdir()
    _table_pdf(docs / "orders.pdf", ROWS)
    (docs / "notes.txt").write_text("The depot opens at seven.")
    backend = EdgeBackend(tmp_path / "index", embedder=get_embedder("minilm"))
    try:
        # An index written when a PDF's text was read without its table's columns.
        monkeypatch.setattr(loaders, "_READING_VERSIONS", {})
        monkeypatch.setattr(loaders, "page_with_tables", lambda text: None)
        ingest_paths(backend, [docs], progress=False)
        monkeypatch.undo()
        stored = backend.read("docs/orders.pdf", Scope(("default",)))
        assert stored is not None and "Supplier: Nordlicht" not in " ".join(c.text for c in stored.chunks)
        report = ingest_paths(backend, [docs], progress=False)
        assert (report.docs, report.unchanged) == (1, 1)
        stored = backend.read("docs/orders.pdf", Scope(("default",)))
        assert stored is not None and "Supplier: Nordlicht Components GmbH" in " ".join(c.text for c in stored.chunks)
        again = ingest_paths(backend, [docs], progress=False)
        assert (again.docs, again.unchanged) == (0, 2)
    finally:
        backend.close()
