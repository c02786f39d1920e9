"""``hopgraph eval --mode answer``: questions with known answers through the graph in answer mode.

Per question: the cited answer, its scores (see :mod:`hopgraph.evals.answer_metrics`), turns, tool calls,
prompt tokens and wall time. Output like the retrieval evaluation: results.json, results.md (also printed),
results.png and per_query.jsonl.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.evals.answer_data import AnswerItem, load_beir_answers, load_demo_answers
from hopgraph.evals.answer_metrics import aggregate_answers, evidence_recall, score_answer
from hopgraph.evals.data import EvalError
from hopgraph.evals.index import EVAL_CONTAINER, open_eval_index
from hopgraph.evals.report import grouped_bars
from hopgraph.evals.split import PARTS, in_part
from hopgraph.index.backend import SearchBackend

DEMO = "demo"
"""``--data demo``: the bundled demo questions over the bundled demo corpus."""

SHOWN = (("containment", "contained"), ("fact_recall", "fact recall"), ("citation_precision", "cite P"),
         ("citation_recall", "cite R"), ("evidence_recall", "read R"), ("not_found_correct", "not-found ok"),
         ("false_not_found", "false not-found"))


@dataclass
class AnswerEvalOptions:
    data: str
    queries: str | None = None
    qrels: str | None = None
    model: str = "builtin"
    limit: int | None = None
    out: str | None = None
    index: str | None = None
    embedder: str | None = None
    progress: bool = True
    max_turns: int | None = None
    container: str = EVAL_CONTAINER
    """Container to search when a backend is handed in and a question names none."""
    part: str | None = None
    """Only the questions of this part of the fixed split (``look`` or ``score``, see :mod:`hopgraph.evals.split`)."""


def load_items(opts: AnswerEvalOptions) -> tuple[str, list[AnswerItem], int, Path | None]:
    """(data set name, questions, questions without gold, where the documents are: a BEIR ``corpus.jsonl``, a
    folder layout's ``docs/`` folder, or None for the demo).

    In the folder layout ``relevant`` holds paths relative to ``docs/`` until the folder is ingested
    (``folder_ids``)."""
    queries = Path(opts.queries).expanduser() if opts.queries else None
    if opts.data == DEMO:
        import hopgraph.demo

        bundled = Path(hopgraph.demo.__file__).resolve().parent / "questions.json"
        items, skipped = load_demo_answers(queries or bundled)
        return DEMO, items, skipped, None
    root = Path(opts.data).expanduser()
    if root.is_file() and root.suffix == ".json":
        raise EvalError(f"{root}: a demo-layout questions file runs with --data demo --queries {root}")
    if not root.is_dir():
        raise EvalError(f"data folder {root} does not exist")
    if (root / "docs").is_dir() and (queries or root / "questions.json").is_file():
        items, skipped = load_demo_answers(queries or root / "questions.json", to_id=lambda rel: rel)
        return root.resolve().name, items, skipped, root / "docs"
    corpus = root / "corpus.jsonl"
    if not corpus.is_file():
        raise EvalError(f"no corpus.jsonl (nor docs/ and questions.json) in {root}")
    items, skipped = load_beir_answers(root, queries, Path(opts.qrels).expanduser() if opts.qrels else None)
    return root.resolve().name, items, skipped, corpus


@contextmanager
def _demo_index(progress: bool) -> Iterator[tuple[SearchBackend, dict[str, Any]]]:
    from hopgraph.demo import ingest_demo
    from hopgraph.index.factory import close_backend, open_backend

    with tempfile.TemporaryDirectory(prefix="hopgraph-eval-demo-") as index_dir:
        backend = open_backend(index_dir=index_dir)
        try:
            report = ingest_demo(backend, progress=progress)
            yield backend, {"path": "(temporary demo index)", "documents": report["documents"],
                            "chunks": report["chunks"], "containers": report["containers"]}
        finally:
            close_backend(index_dir=index_dir)


@contextmanager
def _folder_index(docs: Path, progress: bool) -> Iterator[tuple[SearchBackend, dict[str, Any]]]:
    """A temporary index of a folder layout's ``docs/``: each top-level folder is one container."""
    from hopgraph.index.factory import close_backend, open_backend
    from hopgraph.index.ingest import ingest_paths

    names = sorted(p.name for p in docs.iterdir() if p.is_dir())
    if not names:
        raise EvalError(f"{docs} holds no container folder (docs/<container>/...)")
    with tempfile.TemporaryDirectory(prefix="hopgraph-eval-folder-") as index_dir:
        backend = open_backend(index_dir=index_dir)
        try:
            documents = chunks = 0
            for name in names:
                report = ingest_paths(backend, [docs / name], container=name, progress=progress)
                documents += report.docs
                chunks += report.chunks
            yield backend, {"path": "(temporary index of the folder)", "documents": documents, "chunks": chunks,
                            "containers": names}
        finally:
            close_backend(index_dir=index_dir)


def folder_ids(items: list[AnswerItem], backend: SearchBackend, docs: Path, containers: list[str]) -> None:
    """Turns the folder layout's ``expected_files`` (paths relative to ``docs/``) into the ids ingest gave them."""
    by_path: dict[str, str] = {}
    for container in containers:
        for doc, source in backend.document_sources(container).items():
            by_path[Path(source).resolve().relative_to(docs.resolve()).as_posix()] = doc
    for item in items:
        unknown = sorted(item.relevant - by_path.keys())
        if unknown:
            raise EvalError(f"question {item.qid}: expected file(s) not ingested from {docs}: {', '.join(unknown)}")
        item.relevant = {by_path[rel] for rel in item.relevant}


def answer_run(item: AnswerItem, context: Any) -> dict[str, Any]:
    """One question (and its follow-up on the same thread) through the graph; never raises."""
    from langgraph.checkpoint.memory import InMemorySaver

    from hopgraph.api import run

    started = time.perf_counter()
    try:
        if item.follow_up:
            saver = InMemorySaver()
            run(item.question, context=context, thread_id=item.qid, checkpointer=saver)
            started = time.perf_counter()  # the follow-up is what is timed and scored
            result = run(item.follow_up, context=context, thread_id=item.qid, checkpointer=saver)
        else:
            result = run(item.question, context=context)
    except Exception as exc:  # one failing question must not sink the whole evaluation
        return {"answer": "", "citations": [], "turns": 0, "tool_calls": 0, "prompt_tokens": 0,
                "ms": (time.perf_counter() - started) * 1000, "exit_reason": "error",
                "error": f"{type(exc).__name__}: {exc}", "read": []}
    ms = (time.perf_counter() - started) * 1000
    trace = result.get("trace") or []
    return {
        "answer": str(result.get("answer") or ""), "citations": list(result.get("citations") or []),
        "turns": int(result.get("turns") or 0), "tool_calls": sum(len(t.get("tool_calls") or []) for t in trace),
        "prompt_tokens": sum(int(t.get("prompt_tokens") or 0) for t in trace), "ms": ms,
        "exit_reason": str(result.get("exit_reason") or ""), "error": str(result.get("error") or ""),
        # Every document the run's searches brought: with the expected files, it tells a search that never reached
        # the evidence from an answer that missed it in what was read.
        "read": sorted({doc for t in trace for doc in t.get("new_docs") or []}),
    }


def summarize_answers(records: list[dict[str, Any]]) -> dict[str, Any]:
    summary = aggregate_answers(records)
    n = max(len(records), 1)
    lat = np.array([r["ms"] for r in records]) if records else np.zeros(1)
    summary.update({
        "queries": len(records),
        "mean_turns": sum(r["turns"] for r in records) / n,
        "mean_tool_calls": sum(r["tool_calls"] for r in records) / n,
        "mean_prompt_tokens": sum(r["prompt_tokens"] for r in records) / n,
        "latency_ms_p50": float(np.percentile(lat, 50)),
        "latency_ms_p95": float(np.percentile(lat, 95)),
        "exit_reasons": dict(sorted(Counter(r["exit_reason"] for r in records).items())),
        "errors": sum(1 for r in records if r["exit_reason"] == "error"),
    })
    return summary


def evaluate_answers(opts: AnswerEvalOptions, backend: SearchBackend | None = None) -> dict[str, Any]:
    """Runs every question with a gold answer; returns the results (also written to ``opts.out`` when set)."""
    from tqdm import tqdm

    from hopgraph.config import Context

    if opts.limit is not None and opts.limit < 1:
        raise EvalError("--limit must be at least 1")
    if opts.part is not None and opts.part not in PARTS:
        raise EvalError(f"--part must be one of {', '.join(PARTS)}")
    name, items, skipped, corpus = load_items(opts)
    items = [item for item in items if in_part(item.qid, opts.part)]
    items = items[: opts.limit] if opts.limit else items
    if not items:
        raise EvalError(f"no question in {opts.data} carries an answer, facts or answerable: false")

    @contextmanager
    def index() -> Iterator[tuple[SearchBackend, dict[str, Any], str]]:
        if backend is not None:
            yield backend, {"path": "(given backend)", "reused": True}, opts.container
        elif corpus is None:
            with _demo_index(opts.progress) as (demo_backend, info):
                yield demo_backend, info, ""
        elif corpus.is_dir():
            with _folder_index(corpus, opts.progress) as (folder_backend, info):
                folder_ids(items, folder_backend, corpus, info["containers"])
                yield folder_backend, info, ""
        else:
            built, info = open_eval_index(corpus, name, opts.index, opts.embedder, progress=opts.progress)
            yield built, info, EVAL_CONTAINER

    records: list[dict[str, Any]] = []
    with index() as (searched, index_info, default_container):
        all_containers = list(index_info.get("containers") or [default_container])
        for item in tqdm(items, desc=f"answers {name}", unit="q", file=sys.stderr, disable=not opts.progress):
            kwargs: dict[str, Any] = {"model": opts.model, "backend": searched, "mode": "answer",
                                      "containers": item.containers or all_containers}
            if opts.max_turns is not None:
                kwargs["max_turns"] = opts.max_turns
            run = answer_run(item, Context(**kwargs))
            scores = score_answer(run["answer"], run["citations"], answers=item.answers, facts=item.facts,
                                  answerable=item.answerable, relevant=item.relevant,
                                  question=item.follow_up or item.question)
            scores["evidence_recall"] = evidence_recall(run["read"], item.relevant, item.answerable)
            records.append({"qid": item.qid, "question": item.question, "follow_up": item.follow_up,
                            "gold": item.answers or item.facts, "answerable": item.answerable, **run, **scores,
                            "cited": [c.get("doc_id") for c in run["citations"]]})
    from hopgraph.evals.runner import machine

    results: dict[str, Any] = {
        "dataset": name, "mode": "answer", "data_dir": opts.data, "queries": len(items),
        "skipped_no_answer": skipped, "model": opts.model, "part": opts.part,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(), "index": index_info,
        "systems": {opts.model: summarize_answers(records)},
    }
    if opts.out:
        write_answer_outputs(Path(opts.out), results, records)
    return results


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def answer_markdown(results: dict[str, Any]) -> str:
    head = ["system", *[label for _, label in SHOWN], "turns", "tool calls", "prompt tok", "p50 ms", "p95 ms",
            "exits"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for system, m in results["systems"].items():
        exits = ", ".join(f"{k} {v}" for k, v in m.get("exit_reasons", {}).items())
        lines.append("| " + " | ".join([
            f"`{system}`", *[_fmt(m[k]) for k, _ in SHOWN], f"{m['mean_turns']:.2f}", f"{m['mean_tool_calls']:.1f}",
            f"{m['mean_prompt_tokens']:.0f}", f"{m['latency_ms_p50']:.0f}", f"{m['latency_ms_p95']:.0f}", exits,
        ]) + " |")
    m = next(iter(results["systems"].values()))
    title = (f"## {results['dataset']}: {results['queries']} questions, answer mode "
             f"({m['answerable']} answerable, {m['unanswerable']} unanswerable)")
    if results.get("skipped_no_answer"):
        title += f"; {results['skipped_no_answer']} without a gold answer skipped"
    if results.get("part"):
        title += f"; the {results['part']} part of the split"
    meta = f"{results['date']}, {results['machine']}; model `{results['model']}`"
    return f"{title}\n\n{meta}\n\n" + "\n".join(lines) + "\n"


def answer_chart(results: dict[str, Any], path: Path) -> None:
    title = f"{results['dataset']} answers ({results['queries']} questions)"
    grouped_bars(results, SHOWN, title, "upper right", path)


def write_answer_outputs(out: Path, results: dict[str, Any], records: list[dict[str, Any]]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (out / "results.md").write_text(answer_markdown(results))
    with (out / "per_query.jsonl").open("w") as f:
        for system, r in ((results["model"], r) for r in records):
            f.write(json.dumps({"system": system, **r}, ensure_ascii=False) + "\n")
    answer_chart(results, out / "results.png")
