"""Documents embedded in float against documents embedded in int8: retrieval quality on the shared sets.

    PYTHONPATH=. python bench/doc_precision_quality.py                  # scifact, hotpotqa_train100, musique_train100
    PYTHONPATH=. python bench/doc_precision_quality.py --sets musique_train100 --no-policy

For each set, ``hopgraph eval``'s cached index is opened (built on first use) twice: documents embedded in float
and documents embedded in int8 (``--doc-precision``); queries are embedded as by default. Every judged question
runs through the single-shot hybrid search and (unless ``--no-policy``) the built-in policy's graph. Prints
nDCG@10 and R@5 per set and system, float and int8, and the paired difference (int8 - float) with a paired
bootstrap 95% interval over the questions (an interval that holds 0 means the difference is within noise), and
how many questions scored better and worse with int8 documents. Then times embedding the first ``--speed``
SciFact documents in each precision (one thread, the two taking turns).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.config import Context
from hopgraph.evals.data import BeirData, load_beir
from hopgraph.evals.index import EVAL_CONTAINER, open_eval_index
from hopgraph.evals.metrics import per_query_metrics
from hopgraph.evals.runner import QueryRecord, baseline_run, graph_run
from hopgraph.index.backend import Scope, SearchBackend
from hopgraph.index.embed import query_precision, resolve_precision
from hopgraph.index.quantize import cpu_flags

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import SETS, default_data, machine  # noqa: E402

PRECISIONS = ("float", "int8")
METRICS = ("ndcg@10", "recall@5")
DEPTH = 10


def paired_interval(diffs: np.ndarray, samples: int, seed: int) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of the mean of ``diffs`` over questions drawn with replacement."""
    rng = np.random.default_rng(seed)
    means = diffs[rng.integers(0, len(diffs), size=(samples, len(diffs)))].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def ranked_lists(data: BeirData, run: Callable[[str], QueryRecord]) -> dict[str, list[str]]:
    return {qid: run(text).ranked for qid, text in data.queries}


def systems(backend: SearchBackend, policy: bool) -> dict[str, Callable[[str], QueryRecord]]:
    scope = Scope((EVAL_CONTAINER,))
    out: dict[str, Callable[[str], QueryRecord]] = {
        "hybrid": lambda text: baseline_run(backend, "hybrid", text, scope, DEPTH)}
    if policy:
        context = Context(model="builtin", backend=backend, containers=[EVAL_CONTAINER], mode="ids")
        out["builtin policy"] = lambda text: graph_run(text, context)
    return out


def measure_set(data: BeirData, cache: str | None, policy: bool, samples: int, seed: int) -> list[dict[str, Any]]:
    scores: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for precision in PRECISIONS:
        backend, info = open_eval_index(data.corpus_path, data.name, cache, "minilm", progress=sys.stderr.isatty(),
                                        doc_precision=precision)
        actual = backend.embedder.doc_precision  # type: ignore[attr-defined]
        if actual != precision:
            raise SystemExit(f"{data.name}: documents came out in {actual}, not {precision}")
        print(f"{data.name} {precision}: {info.get('documents')} documents, built in {info.get('seconds')} s"
              f"{' (cached)' if info['reused'] else ''}", file=sys.stderr)
        for name, run in systems(backend, policy).items():
            scores.setdefault(name, {})[precision] = per_query_metrics(data.qrels, ranked_lists(data, run))
    rows = []
    for name, by_precision in scores.items():
        qids = sorted(by_precision["float"])
        row: dict[str, Any] = {"set": data.name, "system": name, "questions": len(qids)}
        for metric in METRICS:
            f = np.array([by_precision["float"][q][metric] for q in qids])
            i = np.array([by_precision["int8"][q][metric] for q in qids])
            low, high = paired_interval(i - f, samples, seed)
            row[metric] = {"float": float(f.mean()), "int8": float(i.mean()), "diff": float((i - f).mean()),
                           "ci95": [low, high], "better": int((i > f).sum()), "worse": int((i < f).sum())}
        rows.append(row)
    return rows


def embedding_speed(corpus: Path, n: int, blocks: int = 4) -> dict[str, float]:
    """Documents per second of each precision on the first ``n`` documents of ``corpus``, the two taking turns in
    ``blocks`` blocks so that load from other processes falls on both alike."""
    from hopgraph.index.embed import get_embedder

    with corpus.open() as fh:
        texts = [f"{r['title']}\n{r['text']}" for r in map(json.loads, itertools.islice(fh, n))]
    seconds = dict.fromkeys(PRECISIONS, 0.0)
    step = -(-len(texts) // blocks)
    for start in range(0, len(texts), step):
        for precision in PRECISIONS:
            t = time.perf_counter()
            get_embedder("minilm", precision).embed_documents(texts[start:start + step])
            seconds[precision] += time.perf_counter() - t
    return {p: len(texts) / s for p, s in seconds.items()}


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    lines = ["| set | system | questions | nDCG@10 float | nDCG@10 int8 | diff [95% CI] | better / worse "
             "| R@5 float | R@5 int8 | diff [95% CI] | better / worse |",
             "|---|---|---:|---:|---:|---|---:|---:|---:|---|---:|"]
    for r in rows:
        cells = [r["set"], r["system"], str(r["questions"])]
        for metric in METRICS:
            m = r[metric]
            cells += [f"{m['float']:.4f}", f"{m['int8']:.4f}",
                      f"{m['diff']:+.4f} [{m['ci95'][0]:+.4f}, {m['ci95'][1]:+.4f}]", f"{m['better']} / {m['worse']}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--cache", help="where the evaluation indexes are cached (default hopgraph eval's)")
    ap.add_argument("--no-policy", action="store_true", help="only the single-shot hybrid search")
    ap.add_argument("--samples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", type=Path, help="also write the rows here")
    ap.add_argument("--speed", type=int, default=400, metavar="N",
                    help="also time embedding the first N SciFact documents in each precision (0: not)")
    args = ap.parse_args()
    flags = sorted(f for f in cpu_flags() if "vnni" in f or f.startswith("amx"))
    print(f"machine: {machine()}; int8 flags: {', '.join(flags) or 'none'}; "
          f"queries: {resolve_precision(query_precision())}", file=sys.stderr)
    rows = []
    for name in args.sets.split(","):
        rows += measure_set(load_beir(str(args.data / name)), args.cache, not args.no_policy, args.samples, args.seed)
    print(markdown(rows), flush=True)
    speed = embedding_speed(args.data / "scifact" / "corpus.jsonl", args.speed) if args.speed else {}
    if speed:
        print(f"documents per second, one thread: float {speed['float']:.1f}, int8 {speed['int8']:.1f} "
              f"(int8 takes {speed['float'] / speed['int8']:.2f} of the float time)", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "docs_per_s": speed}, indent=1))


if __name__ == "__main__":
    main()
