"""Runs a BEIR-layout data set through the graph and through single-shot baselines."""

from __future__ import annotations

import platform
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.evals.data import BeirData, EvalError, load_beir
from hopgraph.evals.index import EVAL_CONTAINER, open_eval_index
from hopgraph.evals.metrics import SET_KEYS, aggregate, per_query_metrics, rrf, set_metrics
from hopgraph.index.backend import Scope, SearchBackend

BASELINES = ("hybrid", "bm25", "dense")
DEFAULT_DEPTH = 10
# Chunk candidates per wanted document, so several chunks of one document do not crowd others out.
CANDIDATES_PER_DOC = 3


@dataclass
class QueryRecord:
    qid: str
    ranked: list[str]
    turns: int = 0
    tool_calls: int = 0
    prompt_tokens: int = 0
    ms: float = 0.0
    exit_reason: str = ""
    error: str = ""


@dataclass
class EvalOptions:
    data: str
    queries: str | None = None
    qrels: str | None = None
    model: str = "builtin"
    limit: int | None = None
    out: str | None = None
    runs: int = 1
    index: str | None = None
    embedder: str | None = None
    doc_precision: str | None = None
    """How the index's documents are embedded (``auto``, ``int8``, ``float``; default HOPGRAPH_DOC_PRECISION)."""
    depth: int = DEFAULT_DEPTH
    baselines: Sequence[str] = BASELINES
    progress: bool = True
    max_turns: int | None = None
    container: str = EVAL_CONTAINER
    """Container to search when a backend is handed in (a built index always uses its own)."""
    rerank: str | None = None
    """A reranker spec: adds ``<model>+rerank`` and ``hybrid+rerank`` systems to compare with and without it."""


def doc_ranking(hits: Sequence[Any], depth: int) -> list[str]:
    """Chunk hits to document ids, best chunk first, each document once."""
    return list(dict.fromkeys(h.doc_id for h in hits))[:depth]


def forget_queries(backend: SearchBackend) -> None:
    """Empties the embedder's query cache, so no system is timed on vectors another one computed."""
    cache = getattr(getattr(backend, "embedder", None), "_query_cache", None)
    if cache is not None and hasattr(cache, "clear"):
        cache.clear()


def baseline_run(backend: SearchBackend, kind: str, query: str, scope: Scope, depth: int) -> QueryRecord:
    fn: Callable[[str, Scope, int], Any] = {
        "hybrid": backend.search, "bm25": backend.text_search, "dense": backend.dense_search,
    }[kind]
    started = time.perf_counter()
    ranked = doc_ranking(fn(query, scope, depth * CANDIDATES_PER_DOC), depth)
    ms = (time.perf_counter() - started) * 1000
    return QueryRecord(qid="", ranked=ranked, turns=1, tool_calls=1, ms=ms, exit_reason="single_shot")


def rerank_baseline_run(backend: SearchBackend, reranker: Any, query: str, scope: Scope, depth: int,
                        candidates: int) -> QueryRecord:
    started = time.perf_counter()
    pool = backend.search(query, scope, max(depth * CANDIDATES_PER_DOC, candidates))
    ranked = doc_ranking(reranker.rerank(query, pool), depth)
    ms = (time.perf_counter() - started) * 1000
    return QueryRecord(qid="", ranked=ranked, turns=1, tool_calls=1, ms=ms, exit_reason="single_shot")


def graph_run(question: str, context: Any) -> QueryRecord:
    from hopgraph.api import run

    started = time.perf_counter()
    try:
        result = run(question, context=context)
    except Exception as exc:  # one failing question must not sink the whole evaluation
        return QueryRecord(qid="", ranked=[], ms=(time.perf_counter() - started) * 1000, exit_reason="error",
                           error=f"{type(exc).__name__}: {exc}")
    ms = (time.perf_counter() - started) * 1000
    trace = result.get("trace") or []
    return QueryRecord(
        qid="", ranked=list(result.get("reported_ids") or []), turns=int(result.get("turns") or 0),
        tool_calls=sum(len(t.get("tool_calls") or []) for t in trace),
        prompt_tokens=sum(int(t.get("prompt_tokens") or 0) for t in trace), ms=ms,
        exit_reason=str(result.get("exit_reason") or ""), error=str(result.get("error") or ""),
    )


def summarize(data: BeirData, records: list[QueryRecord], reported_set: bool = False) -> dict[str, Any]:
    """Ranked metrics and costs; with ``reported_set`` (the graph's report) also the set metrics."""
    ranked = {r.qid: r.ranked for r in records}
    per_q = per_query_metrics(data.qrels, ranked)
    summary: dict[str, Any] = aggregate(per_q)
    if reported_set:
        summary.update(aggregate(set_metrics(data.qrels, ranked), SET_KEYS))
    lat = np.array([r.ms for r in records]) if records else np.zeros(1)
    n = max(len(records), 1)
    summary.update({
        "queries": len(records),
        "mean_turns": sum(r.turns for r in records) / n,
        "mean_tool_calls": sum(r.tool_calls for r in records) / n,
        "mean_prompt_tokens": sum(r.prompt_tokens for r in records) / n,
        "latency_ms_p50": float(np.percentile(lat, 50)),
        "latency_ms_p95": float(np.percentile(lat, 95)),
        "exit_reasons": dict(sorted(Counter(r.exit_reason for r in records).items())),
        "errors": sum(1 for r in records if r.exit_reason == "error"),
    })
    return summary


def _fuse(runs: list[QueryRecord]) -> QueryRecord:
    if len(runs) == 1:
        return runs[0]
    first = runs[0]
    n = len(runs)
    reasons = Counter(r.exit_reason for r in runs)
    return QueryRecord(
        qid=first.qid, ranked=rrf([r.ranked for r in runs]),
        turns=round(sum(r.turns for r in runs) / n), tool_calls=round(sum(r.tool_calls for r in runs) / n),
        prompt_tokens=round(sum(r.prompt_tokens for r in runs) / n), ms=sum(r.ms for r in runs) / n,
        exit_reason=sorted(reasons, key=lambda k: (-reasons[k], k))[0],
        error="; ".join(sorted({r.error for r in runs if r.error})),
    )


def machine() -> str:
    import os

    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def evaluate(opts: EvalOptions, backend: SearchBackend | None = None) -> dict[str, Any]:
    """Runs everything; returns the results dict (also written to ``opts.out`` when set)."""
    from tqdm import tqdm

    from hopgraph.config import Context

    if opts.runs < 1:
        raise EvalError("--runs must be at least 1")
    if opts.limit is not None and opts.limit < 1:
        raise EvalError("--limit must be at least 1")
    unknown = [b for b in opts.baselines if b not in BASELINES]
    if unknown:
        raise EvalError(f"unknown baseline {unknown[0]!r}; use {', '.join(BASELINES)}")
    data = load_beir(opts.data, opts.queries, opts.qrels)
    queries = data.queries[: opts.limit] if opts.limit else data.queries
    if not queries:
        raise EvalError(f"no query in {opts.data} has relevance judgments")
    if backend is None:
        backend, index_info = open_eval_index(
            data.corpus_path, data.name, opts.index, opts.embedder, progress=opts.progress,
            doc_precision=opts.doc_precision,
        )
        container = EVAL_CONTAINER
    else:
        index_info = {"path": "(given backend)", "reused": True}
        container = opts.container
    scope = Scope((container,))
    ctx_kwargs: dict[str, Any] = {"model": opts.model, "backend": backend, "containers": [container], "mode": "ids"}
    if opts.max_turns is not None:
        ctx_kwargs["max_turns"] = opts.max_turns
    context = Context(**ctx_kwargs)
    # A deterministic policy gives the same list every run: fusing copies changes nothing.
    runs = 1 if opts.model == "builtin" else opts.runs

    records: dict[str, list[QueryRecord]] = {opts.model: [], **{b: [] for b in opts.baselines}}
    reranker = None
    if opts.rerank:
        from dataclasses import replace

        from hopgraph.tools.search import cached_reranker

        reranker = cached_reranker(opts.rerank)
        if reranker is None:
            raise EvalError(f"--rerank {opts.rerank!r} names no reranker")
        reranked_context = replace(context, reranker=opts.rerank)
        records[f"{opts.model}+rerank"] = []
        records["hybrid+rerank"] = []
    total = len(queries) * (runs + len(opts.baselines) + (2 if reranker else 0))
    with tqdm(total=total, desc=f"eval {data.name}", unit="run", file=sys.stderr, disable=not opts.progress) as bar:
        for qid, text in queries:
            graph_runs = []
            for _ in range(runs):
                forget_queries(backend)
                graph_runs.append(graph_run(text, context))
                bar.update(1)
            fused = _fuse(graph_runs)
            fused.qid = qid
            records[opts.model].append(fused)
            for kind in opts.baselines:
                forget_queries(backend)
                rec = baseline_run(backend, kind, text, scope, opts.depth)
                rec.qid = qid
                records[kind].append(rec)
                bar.update(1)
            if reranker is not None:
                forget_queries(backend)
                rec = graph_run(text, reranked_context)
                rec.qid = qid
                records[f"{opts.model}+rerank"].append(rec)
                forget_queries(backend)
                rec = rerank_baseline_run(backend, reranker, text, scope, opts.depth, context.rerank_candidates)
                rec.qid = qid
                records["hybrid+rerank"].append(rec)
                bar.update(2)

    results: dict[str, Any] = {
        "dataset": data.name,
        "data_dir": str(Path(opts.data).expanduser().resolve()),
        "queries": len(queries),
        "skipped_no_qrels": len(data.skipped),
        "model": opts.model,
        "runs": runs,
        "depth": opts.depth,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "index": index_info,
        "systems": {name: summarize(data, recs, reported_set=name in (opts.model, f"{opts.model}+rerank"))
                    for name, recs in records.items()},
    }
    if opts.out:
        from hopgraph.evals.report import write_outputs

        write_outputs(Path(opts.out), results, records)
    return results
