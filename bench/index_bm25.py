"""BM25 cost against size when queries hold words most chunks contain, with and without the postings budget.

    PYTHONPATH=. python bench/index_bm25.py --sizes 10000,100000,1000000

The synthetic words of bench/index_search.py: 40 Zipf-distributed words per chunk (exponent 1.2 over 20,000
words), so the first few words are in nearly every chunk, like stopwords a tokenizer does not know; queries
are three words of a stored chunk, so most hold one or more of them. Points carry a BM25 vector and the
payload only (no dense vector: this is the BM25 list alone), written in batches as they are generated.

Every size is built, then ``sparse_vector_search`` runs three ways, taking turns query by query and size by
size: every term (``bm25_postings_budget=None``), the backend's default budget (a query keeps its rarest terms
whose estimated postings fit 100,000) and a tighter budget of 50,000. A three-word query can exceed a budget
only from a third of it in points, so the smallest size searches every term whatever the budget. Top-10
overlap is against every term; terms left out are counted from the query vector each way searches.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import SCOPE, RssWatch, load_avg, machine, pct, status_mb

from hopgraph.index.backend import Chunk, make_chunk_id, point_id
from hopgraph.index.common import SPARSE, bm25_document, bm25_query, chunk_payload
from hopgraph.index.common_terms import DEFAULT_BUDGET
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder

VOCAB = [f"term{i}" for i in range(20000)]
BATCH = 5000
TIGHT = 50_000
# (label, bm25_postings_budget)
WAYS: list[tuple[str, int | None]] = [
    ("every term", None),
    (f"default budget {DEFAULT_BUDGET:,}", DEFAULT_BUDGET),
    (f"budget {TIGHT:,}", TIGHT),
]


def texts(start: int, stop: int, seed: int) -> list[str]:
    rng = np.random.default_rng([seed, start])
    ranks = rng.zipf(1.2, size=(stop - start, 40)) % len(VOCAB)
    return [" ".join(VOCAB[r] for r in row) for row in ranks]


def build(n: int, workdir: Path, seed: int, picks: set[int], limit_mb: float) -> tuple[EdgeBackend, dict[str, Any]]:
    import qdrant_edge as qe

    path = workdir / f"bm25-{n}"
    shutil.rmtree(path, ignore_errors=True)
    backend = EdgeBackend(path, embedder=get_embedder("minilm"))
    picked: dict[int, str] = {}
    with RssWatch(limit_mb) as watch:
        t = time.perf_counter()
        for start in range(0, n, BATCH):
            points = []
            for k, text in enumerate(texts(start, min(n, start + BATCH), seed), start):
                if k in picks:
                    picked[k] = text
                chunk = Chunk(chunk_id=make_chunk_id("default", f"z{k}", 0), doc_id=f"z{k}", index=0,
                              title=f"synthetic {k}", text=text, container="default", content_hash="h")
                points.append(qe.Point(point_id(chunk.chunk_id), {SPARSE: bm25_document(text)},
                                       chunk_payload(chunk, complete=True)))
            backend._write(qe.UpdateOperation.upsert_points(points))
        backend._refresh_count()
        load_s = time.perf_counter() - t
        t = time.perf_counter()
        backend.optimize()
        optimize_s = time.perf_counter() - t
    print(f"(built {n}: load {load_s:.0f} s, optimize {optimize_s:.0f} s, peak anonymous RSS "
          f"{watch.peak['RssAnon']:.0f} MB; load avg {load_avg()})", file=sys.stderr, flush=True)
    return backend, {"n": n, "load_s": load_s, "optimize_s": optimize_s, "picked": picked}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--anon-limit-mb", type=float, default=8000, help="stop if anonymous RSS passes this")
    ap.add_argument("--workdir", type=Path)
    args = ap.parse_args()
    sizes = sorted(int(x) for x in args.sizes.split(",") if x)
    print(f"# BM25 cost against size, postings budget\n\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"{machine()}\n", flush=True)
    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.TemporaryDirectory(prefix="hopgraph-bm25-", dir=args.workdir)
    rng = np.random.default_rng(args.seed)
    backends: dict[int, EdgeBackend] = {}
    qsparse: dict[int, list[Any]] = {}
    builds: dict[int, dict[str, Any]] = {}
    for n in sizes:
        picks = [int(x) for x in rng.integers(0, n, args.queries)]
        backends[n], builds[n] = build(n, Path(tmp.name), args.seed, set(picks), args.anon_limit_mb)
        words = np.random.default_rng([args.seed, n])
        qsparse[n] = [bm25_query(" ".join(words.choice(builds[n]["picked"][k].split(), 3, replace=False)))
                      for k in picks]

    def run(n: int, way: tuple[str, int | None], j: int) -> tuple[float, list[str]]:
        b = backends[n]
        b.bm25_postings_budget = way[1]  # the share estimate does not depend on it, so it is kept
        t0 = time.perf_counter()
        hits = b.sparse_vector_search(qsparse[n][j], SCOPE, 10)
        return (time.perf_counter() - t0) * 1000, [h.chunk.chunk_id for h in hits]

    for n in sizes:  # warm up, and the term-share estimates
        for way in WAYS:
            for j in range(args.queries):
                run(n, way, j)
    lat: dict[tuple[int, str], list[float]] = {(n, w[0]): [] for n in sizes for w in WAYS}
    top: dict[tuple[int, str], list[list[str]]] = {(n, w[0]): [] for n in sizes for w in WAYS}
    for j in range(args.queries):
        for n in sizes[j % len(sizes):] + sizes[: j % len(sizes)]:
            for way in WAYS[j % len(WAYS):] + WAYS[: j % len(WAYS)]:
                ms, ids = run(n, way, j)
                lat[n, way[0]].append(ms)
                top[n, way[0]].append(ids)
    # Per size and budget: terms left out per query on average, and the share of queries losing any.
    left_out: dict[tuple[int, str], tuple[float, float]] = {}
    for n in sizes:
        b = backends[n]
        for way in WAYS[1:]:
            b.bm25_postings_budget = way[1]
            lost = [len(q.indices) - len(b._bm25_query(q).indices) for q in qsparse[n]]
            left_out[n, way[0]] = statistics.mean(lost), sum(x > 0 for x in lost) / len(lost)
    end_load, rss = load_avg(), status_mb("VmRSS", "RssAnon")
    for b in backends.values():
        b.close()
    tmp.cleanup()

    print(f"{args.queries} queries of three words of a stored chunk, limit 10; load avg at the end {end_load}; "
          f"RSS with all sizes open {rss['VmRSS']:.0f} MB (anonymous {rss['RssAnon']:.0f} MB)\n")
    print("Wall ms p50 / p95; terms left out: mean per query / share of queries losing any; top-10 overlap with "
          "every term; time: median of per-query ratios to every term.\n")
    budgets = [w[0].removeprefix("default ") for w in WAYS[1:]]
    print("| points | " + " | ".join(f"{b}: terms left out" for b in budgets) + " | " +
          " | ".join(w[0] for w in WAYS) + " | " + " | ".join(f"{b}: overlap / time" for b in budgets) +
          " | load + optimize s |")
    print("|---:|" + "---:|" * (2 * len(budgets) + len(WAYS) + 1))
    for n in sizes:
        cells = [f"{left_out[n, w[0]][0]:.2f} / {left_out[n, w[0]][1]:.0%}" for w in WAYS[1:]]
        cells += [f"{pct(lat[n, w[0]], 50):.2f} / {pct(lat[n, w[0]], 95):.2f}" for w in WAYS]
        base = WAYS[0][0]
        for w in WAYS[1:]:
            overlap = statistics.mean(len(set(a) & set(b)) / max(len(b), 1)
                                      for a, b in zip(top[n, w[0]], top[n, base], strict=True))
            ratio = statistics.median(a / b for a, b in zip(lat[n, w[0]], lat[n, base], strict=True))
            cells.append(f"{overlap:.3f} / {ratio:.2f}")
        print(f"| {n} | " + " | ".join(cells) +
              f" | {builds[n]['load_s'] + builds[n]['optimize_s']:.0f} |")
    print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
