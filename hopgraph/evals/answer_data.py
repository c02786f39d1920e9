"""Questions with known answers for the answer evaluation.

Two layouts:

- BEIR (``corpus.jsonl``, ``queries.jsonl``, ``qrels.tsv``) whose query lines carry ``answer`` (and optional
  ``answer_aliases``), or ``facts`` (every one must appear), or ``answerable: false`` (the right answer is
  "not found"). The qrels name the documents a citation should point at.
- The demo layout (``hopgraph/demo/questions.json``): a JSON list of questions with ``facts``,
  ``containers``, ``expected_files`` (and ``also_relevant``), and optionally ``calculation`` (its result, the
  part after ``=``, is one more fact) or ``answerable: false``.
- The folder layout: a folder holding ``questions.json`` (demo layout, ``expected_files`` relative to ``docs/``)
  and ``docs/<container>/...``, a user's own files, one container per top-level folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopgraph.evals.data import EvalError, given_qrels, jsonl_records, qrels_path, read_qrels


@dataclass
class AnswerItem:
    qid: str
    question: str
    answers: list[str] = field(default_factory=list)
    """The gold answer and its aliases: one of them inside the answer counts."""
    facts: list[str] = field(default_factory=list)
    """Each of them must be inside the answer."""
    answerable: bool = True
    relevant: set[str] = field(default_factory=set)
    """Document ids a citation should point at."""
    containers: list[str] | None = None
    follow_up: str = ""
    """Asked on the same thread right after ``question``; then the gold is for the follow-up."""


def _strings(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise EvalError(f"{where}: expected a string or a list of strings")


def _calculated(calculation: str) -> list[str]:
    """'48200 * 0.015 * 3 = 2169.0 EUR' -> ['2169']: the result, without a zero fraction."""
    if "=" not in calculation:
        return []
    result = calculation.rsplit("=", 1)[1].split()
    if not result:
        return []
    number = result[0].removesuffix(".0").removesuffix(".00")
    return [number]


def item_from(obj: Any, where: str, relevant: set[str] | None = None) -> AnswerItem | None:
    """One question, or None when it carries nothing to check an answer against."""
    if not isinstance(obj, dict):
        raise EvalError(f"{where}: not a JSON object")
    qid = obj.get("_id", obj.get("id"))
    text = obj.get("text", obj.get("question"))
    if qid is None or not isinstance(text, str) or not text.strip():
        raise EvalError(f"{where}: needs an id (_id or id) and a question (text or question)")
    answers = _strings(obj.get("answer"), where) + _strings(obj.get("answer_aliases"), where)
    facts = _strings(obj.get("facts"), where) + _calculated(str(obj.get("calculation") or ""))
    answerable = obj.get("answerable", True) is not False
    if answerable and not answers and not facts:
        return None
    containers = obj.get("containers")
    if containers is not None and not (isinstance(containers, list) and all(isinstance(c, str) for c in containers)):
        raise EvalError(f"{where}: containers must be a list of strings")
    return AnswerItem(qid=str(qid), question=text.strip(), answers=[a for a in answers if a.strip()],
                      facts=[f for f in facts if f.strip()], answerable=answerable, relevant=set(relevant or ()),
                      containers=containers, follow_up=str(obj.get("follow_up") or "").strip())


def load_beir_answers(folder: Path, queries_file: Path | None = None,
                      qrels_file: Path | None = None) -> tuple[list[AnswerItem], int]:
    """(questions with gold answers, how many query lines had none)."""
    qpath = queries_file or folder / "queries.jsonl"
    if not qpath.is_file():
        raise EvalError(f"queries file {qpath} does not exist")
    qrels = read_qrels(given_qrels(qrels_file) or qrels_path(folder))
    items: list[AnswerItem] = []
    skipped = 0
    for n, obj in jsonl_records(qpath):
        qid = str(obj.get("_id", "")) if isinstance(obj, dict) else ""
        relevant = {d for d, s in qrels.get(qid, {}).items() if s > 0}
        item = item_from(obj, f"{qpath}:{n}", relevant)
        if item is None:
            skipped += 1
        else:
            items.append(item)
    return items, skipped


def load_demo_answers(path: Path, to_id: Callable[[str], str] | None = None) -> tuple[list[AnswerItem], int]:
    """Questions in the demo layout. ``relevant`` holds document ids: by default file names, as ``ingest_demo``
    gives them; ``to_id`` maps an ``expected_files`` path otherwise."""
    from hopgraph.demo import doc_id

    to_id = to_id or doc_id
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EvalError(f"{path}: not a readable JSON file ({exc})") from exc
    if not isinstance(data, list):
        raise EvalError(f"{path}: expected a JSON list of questions")
    items: list[AnswerItem] = []
    skipped = 0
    for i, obj in enumerate(data):
        files = _strings(obj.get("expected_files"), f"{path}[{i}]") if isinstance(obj, dict) else []
        also = _strings(obj.get("also_relevant"), f"{path}[{i}]") if isinstance(obj, dict) else []
        item = item_from(obj, f"{path}[{i}]", {to_id(rel) for rel in files + also})
        if item is None:
            skipped += 1
        else:
            items.append(item)
    return items, skipped
