"""Tiny data sets in the BEIR layout (corpus.jsonl, queries.jsonl, qrels.tsv) for the evaluation tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# A three-document chain (painting -> painter -> home town) among unrelated documents.
DOCS = [
    ("lantern", "The Copper Lantern", "The Copper Lantern is an oil painting by Ilse Varnhagen, from 1907."),
    ("varnhagen", "Ilse Varnhagen", "Ilse Varnhagen grew up in Korvath and studied under Emil Strand."),
    ("korvath", "Korvath", "Korvath lies on the Seline, a river flowing through the old town."),
    ("bees", "Honey bees", "Honey bees make honey from the nectar of flowers."),
    ("tides", "Tides", "Tides are caused by the gravity of the moon and the sun."),
    ("bread", "Sourdough", "Sourdough bread rises with wild yeast and lactic acid bacteria."),
]


def write_beir_folder(folder: Path, docs: Sequence[tuple[str, str, str]], queries: Sequence[dict[str, Any]],
                      qrels: Sequence[tuple[str, str]]) -> Path:
    """Writes ``docs`` (id, title, text), ``queries`` (one JSON object each) and ``qrels`` (query id, document
    id; score 1) into ``folder``; returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "corpus.jsonl").write_text(
        "".join(json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in docs))
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    (folder / "qrels.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, d in qrels))
    return folder
