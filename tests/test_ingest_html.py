"""HTML as a reader sees it: inline markup stays inside its sentence, blocks end a line, and scripts, styles,
navigation, headers and footers are left out; a page's declared charset is honoured."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hopgraph.index import factory
from hopgraph.index.loaders import _load_html, decode_html

POLICY = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Travel and Expense Policy</title>
<style>body { font-family: sans-serif; } nav a { color: navy; }</style>
<script>window.analytics = {track: function () {}}; var token = "scriptword";</script>
</head>
<body>
<header><div class="logo">Tidewater Intranet</div>
<nav><ul><li><a href="/">Home</a></li><li><a href="/policies">Policies</a></li><li><a href="/contact">Contact</a></li>
</ul></nav></header>
<main><article>
<h1>Travel and Expense Policy</h1>
<p>This policy applies to every employee who travels for work. The board approved it in <em>March 2026</em>.</p>
<h2>Hotels</h2>
<p>Hotel costs are reimbursed up to <b>120 EUR per night</b> in most cities, and up to 180 EUR per night in
London, Paris and Zurich.</p>
<h2>Meals</h2>
<p>An employee can claim up to <b>45 EUR per day</b> for meals. Alcohol is <a href="/alcohol">never reimbursed</a>.</p>
<h2>Mileage</h2>
<table>
<tr><th>Vehicle</th><th>Rate per km</th></tr>
<tr><td>Car</td><td>0.30 EUR</td></tr>
<tr><td>Motorbike</td><td>0.20 EUR</td></tr>
</table>
<p>Claims are filed within 30 days<br>through the expense portal.</p>
</article></main>
<aside><h3>Related</h3><ul><li><a href="/holidays">Holiday policy</a></li><li><a href="/remote">Remote work</a></li>
</ul></aside>
<footer><p>Home | Policies | Contact</p><p>&copy; 2026 Tidewater Logistics. All rights reserved.</p></footer>
</body></html>
"""

# A short page in a legacy code page, as many intranet pages still are: the declaration says which.
CAFE = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'
        '<title>Café hours</title></head><body><div id="menu"><a href="/">Start</a> | <a href="/m">Menü</a></div>'
        "<p>The café opens at 7 o’clock and serves crème brûlée on <i>Fridays</i> only – while stocks last.</p>"
        '<div id="footer">Impressum</div></body></html>')


def lines_of(path: Path) -> list[str]:
    loaded = _load_html(path)
    assert len(loaded.sections) == 1
    return loaded.sections[0].text.splitlines()


def test_a_policy_page_reads_as_its_reader_sees_it(tmp_path: Path) -> None:
    page = tmp_path / "travel.html"
    page.write_text(POLICY)
    loaded = _load_html(page)
    assert loaded.title == "Travel and Expense Policy" and loaded.kind == "html"
    lines = lines_of(page)
    # Inline markup stays inside its sentence ...
    assert "An employee can claim up to 45 EUR per day for meals. Alcohol is never reimbursed." in lines
    assert "This policy applies to every employee who travels for work. The board approved it in March 2026." in lines
    # ... and blocks end a line: headings, paragraphs, table rows, line breaks.
    assert {"Hotels", "Meals", "Mileage"} <= set(lines)
    assert any("Car" in line and "0.30 EUR" in line and "Motorbike" not in line for line in lines)
    assert "Claims are filed within 30 days" in lines and "through the expense portal." in lines
    text = "\n".join(lines)
    for boilerplate in ("Home | Policies | Contact", "All rights reserved", "Tidewater Intranet", "scriptword",
                        "font-family", "Holiday policy"):
        assert boilerplate not in text, boilerplate


def test_a_declared_legacy_charset_is_honoured(tmp_path: Path) -> None:
    page = tmp_path / "cafe.html"
    page.write_bytes(CAFE.encode("cp1252"))
    loaded = _load_html(page)
    assert loaded.title == "Café hours"
    sentence = "The café opens at 7 o’clock and serves crème brûlée on Fridays only – while stocks last."
    assert lines_of(page) == [sentence]
    # A page that says Latin-1 is read as browsers read it, as cp1252 (0x92 is a right quote there).
    latin = CAFE.replace("windows-1252", "ISO-8859-1").encode("cp1252")
    assert "7 o’clock" in decode_html(latin)
    japanese = ('<html><head><meta charset="shift_jis"><title>営業時間</title></head>'
                "<body><p>東京の事務所は九時に開きます。</p></body></html>")
    assert decode_html(japanese.encode("shift_jis")) == japanese
    # A wrong declaration does not garble a UTF-8 page; no declaration falls back to the text-file rules.
    mislabelled = POLICY.replace('charset="utf-8"', 'charset="ascii"').replace("EUR", "€")
    assert decode_html(mislabelled.encode()) == mislabelled
    assert decode_html(b"<p>caf\xe9</p>") == "<p>café</p>"


def test_the_meals_question_gets_the_meals_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hopgraph.cli import main

    folder = tmp_path / "policies"
    folder.mkdir()
    (folder / "travel.html").write_text(POLICY)
    index = str(tmp_path / "idx")
    try:
        assert main(["ingest", str(folder), "--index", index, "--container", "hr"]) == 0
        capsys.readouterr()
        assert main(["ask", "How much can an employee claim for meals per day?", "--mode", "answer", "--index", index,
                     "--container", "hr", "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
    finally:
        factory.close_all()
    assert "45 EUR per day for meals" in result["answer"], result["answer"]
    assert "120 EUR" not in result["answer"], result["answer"]
    # Sources are shown relative to the folder that was ingested, never as this machine's paths.
    assert [c["source"] for c in result["citations"]] == ["policies/travel.html"]
    assert str(tmp_path) not in json.dumps(result)
