"""A chunk that starts inside a Markdown table carries the table's header row.

The recursive splitter cuts a long table between rows; without the header, a row in the second chunk ("| Quarry
Depot | Pennock | ... |") no longer says which column a cell is in. The chunker gives such a chunk the header
row and rule of the table the chunk before ended in.
"""

from __future__ import annotations

from hopgraph.index.chunking import Chunker, with_table_headers
from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.paragraphs import passage_sentences

HEADER = "| Site | Town | Manager |"
RULE = "|---|---|---|"


def _table(rows: int) -> str:
    body = "\n".join(f"| Site {i} Depot | Town{i} | Manager Number{i} |" for i in range(rows))
    return f"# Sites\n\nOur depots, one per line.\n\n{HEADER}\n{RULE}\n{body}\n\nAfter the table, a closing line.\n"


def test_a_long_table_split_keeps_its_header_in_every_chunk() -> None:
    chunks = Chunker(chunk_tokens=120, overlap=0).split(_table(30))
    assert len(chunks) > 2
    with_rows = [c for c in chunks if "| Site " in c and "Depot |" in c]
    assert len(with_rows) > 1
    for chunk in with_rows:
        lines = chunk.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("| Site ") and "Depot" in line)
        assert lines[at - 2:at] == [HEADER, RULE], chunk
    # Every row is read with its column names, whichever chunk it is in.
    last = Passage(ref="S1", title="sites", text=with_rows[-1], rank=1, round=1, kind="md", source="sites.md")
    assert any(s.startswith("Site: Site 29 Depot; Town: Town29; Manager: Manager Number29")
               for s in passage_sentences(last))


def test_only_a_chunk_that_continues_a_table_gets_a_header() -> None:
    chunks = ["Intro.\n\n| a | b |\n|---|---|\n| 1 | 2 |", "| 3 | 4 |\n\nProse after.", "| x | y |\n| 5 | 6 |"]
    assert with_table_headers(chunks) == [
        chunks[0], "| a | b |\n|---|---|\n| 3 | 4 |\n\nProse after.", chunks[2]]
    # A chunk with its own header keeps it alone.
    own = ["| a | b |\n|---|---|\n| 1 | 2 |", "| c | d |\n|---|---|\n| 3 | 4 |"]
    assert with_table_headers(own) == own
