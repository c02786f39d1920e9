"""Citation post-processing: [Sn] markers become numbered labels and a deduplicated source list."""

from __future__ import annotations

from typing import Any

from hopgraph.citations import display_title, is_tabular, link_for, resolve_citations


def _ref(doc: str, page: int | None = None, kind: str = "pdf", title: str | None = None,
         container: str = "legal") -> dict[str, Any]:
    return {"doc_id": doc, "chunk_id": f"{container}/{doc}#{page or 0}", "title": title or doc, "page": page,
            "container": container, "kind": kind, "source": f"{container}/{doc}"}


REFS = {
    "S1": _ref("contract.pdf", 2),
    "S2": _ref("contract.pdf", 2),  # another chunk of the same page
    "S3": _ref("contract.pdf", 3),
    "S4": _ref("orders.xlsx.pdf", 1, container="finance"),
    "S5": _ref("notes.md", None, kind="md", container="default"),
    "S6": _ref("scores.csv", None, kind="csv", container="default"),
    "S7": _ref("sheet.pdf", 4, kind="table", container="finance"),
}


def test_markers_become_numbers_in_order_of_first_use() -> None:
    cited = resolve_citations("Late fees apply [S3]. The cap is 10 percent [S1]. Again [S3].", REFS)
    assert cited.text == "Late fees apply [1]. The cap is 10 percent [2]. Again [1]."
    assert [(c.number, c.page) for c in cited.citations] == [(1, 3), (2, 2)]
    assert cited.citations[0].refs == ["S3"]
    assert cited.unknown_markers == 0


def test_citations_deduplicate_by_document_and_page() -> None:
    cited = resolve_citations("A [S1]. B [S2]. C [S3].", REFS)
    assert cited.text == "A [1]. B [1]. C [2]."
    assert len(cited.citations) == 2
    assert cited.citations[0].refs == ["S1", "S2"]
    assert cited.citations[0].link == "legal/contract.pdf#page=2"
    assert cited.citations[1].link == "legal/contract.pdf#page=3"


def test_spreadsheet_exported_to_pdf_shows_its_sheet_name_and_no_page() -> None:
    cited = resolve_citations("PO-4471 was worth EUR 48,200 [S4].", REFS)
    c = cited.citations[0]
    assert c.title == "orders.xlsx"
    assert c.page is None
    assert c.link == "finance/orders.xlsx.pdf"
    assert c.source == "finance/orders.xlsx.pdf"
    assert c.container == "finance" and c.kind == "pdf"


def test_tabular_kinds_have_no_page() -> None:
    cited = resolve_citations("One [S6]. Two [S7].", REFS)
    assert [c.page for c in cited.citations] == [None, None]
    assert cited.citations[1].link == "finance/sheet.pdf"


def test_sources_without_pages() -> None:
    cited = resolve_citations("Noted [S5].", REFS)
    assert cited.citations[0].page is None
    assert cited.citations[0].link == "default/notes.md"


def test_unknown_markers_are_removed_and_counted() -> None:
    cited = resolve_citations("Made up [S9]. Real [S1][S12]. Also [S40], and more.", REFS)
    assert cited.text == "Made up. Real [1]. Also, and more."
    assert cited.unknown_markers == 3
    assert cited.unknown_refs == ["S9", "S12", "S40"]
    assert len(cited.citations) == 1


def test_grouped_and_adjacent_markers() -> None:
    cited = resolve_citations("Both [S1, S3]. Adjacent [S3][S4]. Spaced [S4] [S5]. Same page [S1][S2].", REFS)
    assert cited.text == "Both [1][2]. Adjacent [2][3]. Spaced [3][4]. Same page [1]."
    assert [m["label"] for m in cited.markers] == ["[1]", "[2]", "[2]", "[3]", "[3]", "[4]", "[1]"]


def test_semicolons_and_lowercase_markers() -> None:
    cited = resolve_citations("x [s1; S3]", REFS)
    assert cited.text == "x [1][2]"


def test_marker_positions_point_at_their_labels() -> None:
    cited = resolve_citations("First [S3]. Second [S1, S4]. Third [S99] end [S3].", REFS)
    for marker in cited.markers:
        assert cited.text[marker["start"]:marker["end"]] == marker["label"]
        assert marker["label"] == f"[{cited.citations[marker['citation']].number}]"
    assert cited.marker_map == {m["start"]: m["citation"] for m in cited.markers}
    assert [m["ref"] for m in cited.markers] == ["S3", "S1", "S4", "S3"]


def test_no_markers_and_empty_inputs() -> None:
    assert resolve_citations("", REFS).text == ""
    cited = resolve_citations("Nothing cited.", {})
    assert cited.text == "Nothing cited." and cited.citations == [] and cited.markers == []
    assert resolve_citations("Unknown [S1].", {}).text == "Unknown."


def test_text_that_only_looks_like_a_marker_is_left_alone() -> None:
    text = "See [Section 2] and [S] and S1 and [1]."
    assert resolve_citations(text, REFS).text == text


def test_as_state_is_plain_data() -> None:
    state = resolve_citations("A [S4].", REFS).as_state()
    assert state["answer"] == "A [1]."
    assert state["citations"][0]["title"] == "orders.xlsx"
    assert state["citations"][0]["number"] == 1
    assert state["markers"] == [{"start": 2, "end": 5, "citation": 0, "label": "[1]", "ref": "S4"}]


def test_helpers() -> None:
    assert display_title("orders.xlsx.pdf") == "orders.xlsx"
    assert display_title("Budget.XLSX.PDF") == "Budget.XLSX"
    assert display_title("report.pdf") == "report.pdf"
    assert display_title("", "finance/orders.csv.pdf") == "orders.csv"
    assert is_tabular("table") and is_tabular("pdf", "x/orders.xlsx.pdf") and is_tabular("csv")
    assert not is_tabular("pdf", "x/contract.pdf", "Contract")
    assert link_for("a.pdf", 3) == "a.pdf#page=3" and link_for("a.pdf", None) == "a.pdf" and link_for("", 2) == ""
