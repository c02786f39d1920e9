"""BEIR layout: corpus.jsonl, queries.jsonl and qrels.tsv (or qrels/test.tsv) in one folder."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopgraph.errors import HopgraphError


class EvalError(HopgraphError):
    """The evaluation data or options are unusable."""


@dataclass
class BeirData:
    name: str
    corpus_path: Path
    queries: list[tuple[str, str]]
    """(query id, text) for queries that have qrels, in file order."""
    qrels: dict[str, dict[str, int]]
    skipped: list[str] = field(default_factory=list)
    """Query ids without qrels."""


def qrels_path(folder: Path) -> Path:
    for candidate in (folder / "qrels.tsv", folder / "qrels" / "test.tsv", folder / "qrels" / "train.tsv"):
        if candidate.is_file():
            return candidate
    raise EvalError(f"no qrels.tsv (or qrels/test.tsv) in {folder}")


def given_qrels(qrels_file: str | Path | None) -> Path | None:
    """A qrels file named with ``--qrels`` (questions kept apart from the corpus they are asked over)."""
    if qrels_file is None:
        return None
    path = Path(qrels_file).expanduser()
    if not path.is_file():
        raise EvalError(f"qrels file {path} does not exist")
    return path


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with path.open(newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.reader(f, delimiter="\t")):
            if not row or (i == 0 and row[0] in ("query-id", "query_id", "qid")):
                continue
            if len(row) < 2:
                raise EvalError(f"{path}:{i + 1}: expected 'query-id<TAB>corpus-id<TAB>score'")
            try:
                score = int(float(row[2])) if len(row) > 2 and row[2].strip() else 1
            except ValueError as exc:
                raise EvalError(f"{path}:{i + 1}: score {row[2]!r} is not a number") from exc
            qrels.setdefault(row[0].strip(), {})[row[1].strip()] = score
    return qrels


def jsonl_records(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, parsed JSON) for each non-blank line; a line that is not JSON is an EvalError naming it."""
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                yield n, json.loads(line)
            except ValueError as exc:
                raise EvalError(f"{path}:{n}: not a JSON line") from exc


def read_queries(path: Path) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for n, obj in jsonl_records(path):
        try:
            # Only the id and the text: extra fields (answers, decompositions) are gold, never used.
            out.append((str(obj["_id"]), str(obj["text"])))
        except (KeyError, TypeError) as exc:
            raise EvalError(f"{path}:{n}: not a query line with _id and text") from exc
    return out


def load_beir(folder: str | Path, queries_file: str | Path | None = None,
              qrels_file: str | Path | None = None) -> BeirData:
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise EvalError(f"data folder {root} does not exist")
    corpus = root / "corpus.jsonl"
    if not corpus.is_file():
        raise EvalError(f"no corpus.jsonl in {root}")
    qpath = Path(queries_file).expanduser() if queries_file else root / "queries.jsonl"
    if not qpath.is_file():
        raise EvalError(f"queries file {qpath} does not exist")
    qrels = read_qrels(given_qrels(qrels_file) or qrels_path(root))
    queries, skipped = [], []
    for qid, text in read_queries(qpath):
        if any(s > 0 for s in qrels.get(qid, {}).values()):
            queries.append((qid, text))
        else:
            skipped.append(qid)
    return BeirData(name=root.resolve().name, corpus_path=corpus, queries=queries, qrels=qrels, skipped=skipped)
