"""Hybrid fusion against quality: the same dense and BM25 lists fused several ways, scored on the shared sets.

    PYTHONPATH=. python bench/fusion_quality.py                       # scifact, hotpotqa_train100, musique_train100
    PYTHONPATH=. python bench/fusion_quality.py --sets scifact

Each question's BM25 list (``text_search``) and dense list (``dense_search``) are read once, 100 deep, from
``hopgraph eval``'s cached index of the set (built on first use), as document rankings (a document where its
best chunk is). Every fusion then works on the same lists: ``rrf_ids`` and ``dbsf_ids`` as the backends call
them (20 candidates a list is the backends' default; a BM25 list's floor is 0), and two score normalizations
from the literature for comparison (min-max and z-score, equal weights, over 100). Prints nDCG@10 / R@5 / R@10
per set and fusion (single-shot: no loop, no policy).
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hopgraph.evals.data import load_beir
from hopgraph.evals.index import EVAL_CONTAINER, open_eval_index
from hopgraph.evals.metrics import aggregate, per_query_metrics
from hopgraph.index.backend import Scope
from hopgraph.index.fusion import DBSF_WINDOW, HYBRID_FLOORS, dbsf_ids, rrf_ids

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import SETS, default_data  # noqa: E402

DEPTH = 100
Ranked = list[tuple[str, float]]
Fusion = Callable[[Ranked, Ranked], list[str]]


def best_per_doc(hits: Sequence[Any]) -> Ranked:
    seen: dict[str, float] = {}
    for h in hits:
        seen.setdefault(h.chunk.doc_id, h.score)
    return list(seen.items())


def normalized_sum(dense: Ranked, bm25: Ranked, norm: Callable[[list[float]], Callable[[float], float]]) -> list[str]:
    """Equal-weight sum of per-list normalized scores; a document missing from a list gets that list's floor."""
    parts = []
    for ranked in (dense, bm25):
        if not ranked:
            continue
        f = norm([s for _, s in ranked])
        parts.append(({doc: f(s) for doc, s in ranked}, f(ranked[-1][1])))
    scores: dict[str, float] = {}
    for doc in {d for part, _ in parts for d in part}:
        scores[doc] = sum(part.get(doc, floor) for part, floor in parts)
    return sorted(scores, key=lambda d: (-scores[d], d))


def min_max(values: list[float]) -> Callable[[float], float]:
    low, high = min(values), max(values)
    return lambda s: (s - low) / (high - low) if high > low else 0.5


def z_score(values: list[float]) -> Callable[[float], float]:
    mean = math.fsum(values) / len(values)
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))
    return lambda s: (s - mean) / spread if spread > 0 else 0.0


def rrf(dense: Ranked, bm25: Ranked, depth: int) -> list[str]:
    return [k for k, _ in rrf_ids([dense[:depth], bm25[:depth]], 2 * depth)]


def dbsf(dense: Ranked, bm25: Ranked, depth: int, window: int = DBSF_WINDOW) -> list[str]:
    lists = [dense[:depth], bm25[:depth]]
    return [k for k, _ in dbsf_ids(lists, 2 * depth, window=window, floors=HYBRID_FLOORS)]


def fusions() -> dict[str, Fusion]:
    out: dict[str, Fusion] = {}
    for depth in (20, 40, 100):
        out[f"rrf, {depth} a list"] = functools.partial(rrf, depth=depth)
    for depth in (20, 30, 50, 100):
        out[f"dbsf, {depth} a list, window {DBSF_WINDOW}"] = functools.partial(dbsf, depth=depth)
    for window in (40, 100):
        out[f"dbsf, {window} a list, window {window}"] = functools.partial(dbsf, depth=window, window=window)
    out["min-max sum, 100 a list"] = functools.partial(normalized_sum, norm=min_max)
    out["z-score sum, 100 a list"] = functools.partial(normalized_sum, norm=z_score)
    return out


def lists_for(folder: Path) -> tuple[Any, dict[str, tuple[Ranked, Ranked]]]:
    data = load_beir(folder)
    backend, _ = open_eval_index(data.corpus_path, data.name, progress=False)
    scope = Scope((EVAL_CONTAINER,))
    try:
        lists = {qid: (best_per_doc(backend.dense_search(text, scope, DEPTH)),
                       best_per_doc(backend.text_search(text, scope, DEPTH))) for qid, text in data.queries}
    finally:
        backend.close()
    return data, lists


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sets", default=SETS)
    args = ap.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    table: dict[str, dict[str, tuple[float, float, float]]] = {}
    singles: dict[str, Fusion] = {"BM25 alone": lambda d, b: [k for k, _ in b],
                                  "dense alone": lambda d, b: [k for k, _ in d]}
    for name in sets:
        data, lists = lists_for(args.data / name)
        for label, fuse in {**singles, **fusions()}.items():
            runs = {qid: fuse(dense, bm25)[:10] for qid, (dense, bm25) in lists.items()}
            agg = aggregate(per_query_metrics(data.qrels, runs))
            table.setdefault(label, {})[name] = (agg["ndcg@10"], agg["recall@5"], agg["recall@10"])
        print(f"({name}: {len(lists)} questions)", file=sys.stderr, flush=True)
    print("| fusion | " + " | ".join(f"{s} nDCG@10 / R@5 / R@10" for s in sets) + " |")
    print("|---|" + "---:|" * len(sets))
    for label, row in table.items():
        cells = " | ".join("{:.3f} / {:.3f} / {:.3f}".format(*row[s]) for s in sets)
        print(f"| {label} | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
