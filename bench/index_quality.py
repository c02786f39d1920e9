"""Single-shot quality on the evaluation sets (BM25, dense, hybrid; float and int8 queries) and HNSW recall on
their real MiniLM vectors.

    PYTHONPATH=. python bench/index_quality.py --sets scifact,hotpotqa_train100,musique_train100
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from _common import SETS, default_data, load_queries, machine, pct

from hopgraph.index.backend import Scope
from hopgraph.index.common import bm25_query, clean_text, parse_text_query
from hopgraph.index.common_terms import DEFAULT_BUDGET
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.edge_shard import int8_vectors
from hopgraph.index.embed import MiniLMEmbedder, get_embedder
from hopgraph.index.ingest import ingest_beir

# Index sizes at which the postings budget's quality cost is measured. Pruning compares a term's share of
# chunks times the points with the budget, so a budget B at N points prunes as B * n / N does at n points.
BUDGET_AT = (300_000, 1_000_000)


def bench_quality(
    data: Path, workdir: Path, sets: Sequence[str], ready: dict[str, EdgeBackend], container: str = "default"
) -> list[dict[str, Any]]:
    import pytrec_eval

    rows = []
    int8_queries = MiniLMEmbedder(precision="int8")
    float_queries = MiniLMEmbedder(precision="float")
    for name in sets:
        folder = data / name
        backend = ready.get(name) or EdgeBackend(workdir / name, embedder=get_embedder("minilm"))
        ready[name] = backend
        ingest_beir(backend, folder / "corpus.jsonl", container, progress=False)  # unchanged docs are skipped
        queries, qrels = load_queries(folder)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.5", "recall.2"})
        default = backend.embedder
        # (label, search, query model, index size the budget is scaled to or None): the last modes shrink the
        # budget so that these small indexes prune as one of that size would, to show what it costs.
        modes: list[tuple[str, Any, Any, int | None]] = [
            ("BM25", backend.text_search, default, None),
            ("dense, float queries", backend.dense_search, float_queries, None),
            ("hybrid, float queries", backend.search, float_queries, None),
            ("dense, int8 queries", backend.dense_search, int8_queries, None),
            ("hybrid, int8 queries", backend.search, int8_queries, None),
        ]
        for size in BUDGET_AT:
            label = f"budget as at {size / 1e6:g}M points"
            modes += [(f"BM25, {label}", backend.text_search, default, size),
                      (f"hybrid, int8 queries, {label}", backend.search, int8_queries, size)]
        tops: dict[str, dict[str, list[str]]] = {}
        for mode, fn, query_embedder, at in modes:
            # Same index, same document vectors: only the model that embeds the query changes.
            backend.embedder = query_embedder
            saved = backend.bm25_postings_budget
            if at:
                backend.bm25_postings_budget = max(1, round(DEFAULT_BUDGET * backend.count() / at))
            run: dict[str, dict[str, float]] = {}
            top: dict[str, list[str]] = {}
            pruned = 0
            for qid, text in queries.items():
                # Plain query text: quotes or dashes in a claim are not operators here.
                q = text
                if mode.startswith("BM25"):
                    q = " ".join(w for w in text.replace('"', " ").split() if not w.startswith("-"))
                hits = fn(q, Scope((container,)), 100)
                run[qid] = {}
                for rank, h in enumerate(hits):
                    run[qid].setdefault(h.doc_id, float(len(hits) - rank))
                top[qid] = [h.chunk.chunk_id for h in hits[:10]]
                if at:
                    # The BM25 vector this mode's search builds, against the one it searched.
                    sparse = bm25_query(parse_text_query(clean_text(q)).positive_text if mode.startswith("BM25")
                                        else clean_text(q))
                    pruned += len(backend._bm25_query(sparse).indices) < len(sparse.indices)
            backend.embedder = default
            backend.bm25_postings_budget = saved
            tops[mode] = top
            res = evaluator.evaluate(run)
            row = {
                "set": name, "mode": mode, "queries": len(queries),
                "ndcg10": statistics.mean(r["ndcg_cut_10"] for r in res.values()),
                "r2": statistics.mean(r["recall_2"] for r in res.values()),
                "r5": statistics.mean(r["recall_5"] for r in res.values()),
            }
            if at:
                plain = tops["BM25" if mode.startswith("BM25") else "hybrid, int8 queries"]
                row["pruned"] = pruned / len(queries)
                row["changed_top10"] = sum(top[q] != plain[q] for q in top) / len(top)
            rows.append(row)
    return rows


def bench_real_recall(ready: dict[str, EdgeBackend], data: Path, workdir: Path) -> dict[str, Any]:
    """HNSW against brute force on real MiniLM vectors (the evaluation corpora and their queries)."""
    import qdrant_edge as qe

    vectors: list[list[float]] = []
    for b in ready.values():
        offset = None
        while True:
            recs, offset = b._shard.scroll(qe.ScrollRequest(offset=offset, limit=1000, with_payload=False,
                                                            with_vector=["dense"]))
            vectors += [r.vector["dense"] for r in recs]
            if offset is None or not recs:
                break
    texts = []
    for name in ready:
        queries, _ = load_queries(data / name)
        texts += list(queries.values())
    qvecs = get_embedder("minilm").embed_documents(texts)
    import shutil

    def build(name: str, quantization: Any) -> Any:
        cfg = qe.EdgeConfig(
            vectors={"dense": qe.EdgeVectorParams(size=len(vectors[0]), distance=qe.Distance.Cosine)},
            hnsw_config=qe.HnswIndexConfig(m=16, ef_construct=100, full_scan_threshold=1),
            optimizers=qe.EdgeOptimizersConfig(indexing_threshold=1), max_search_threads=1,
            quantization_config=quantization,
        )
        shutil.rmtree(workdir / name, ignore_errors=True)
        shard = qe.EdgeShard.create(str(workdir / name), cfg)
        for i in range(0, len(vectors), 1000):
            shard.update(qe.UpdateOperation.upsert_points(
                [qe.Point(j, {"dense": vectors[j]}, {}) for j in range(i, min(i + 1000, len(vectors)))]))
        shard.optimize()
        return shard

    plain = build("real-hnsw", None)
    # The backend's own setting: int8 copies in RAM, candidates rescored with the originals.
    quantized = build("real-hnsw-int8", int8_vectors(qe))

    def top(shard: Any, q: np.ndarray, params: Any) -> tuple[list[int], float]:
        t = time.thread_time()
        pts = shard.query(qe.QueryRequest(limit=10, query=qe.Query.Nearest(q.tolist(), using="dense"), params=params))
        return [int(p.id) for p in pts], (time.thread_time() - t) * 1000

    exact = [top(plain, q, qe.SearchParams(exact=True)) for q in qvecs]
    out: dict[str, Any] = {"points": len(vectors), "queries": len(texts),
                           "exact_cpu_p50": pct([c for _, c in exact], 50)}
    runs: list[tuple[str, Any, Any]] = [(f"ef{ef}", plain, qe.SearchParams(hnsw_ef=ef)) for ef in (64, 128, 256)]
    runs += [(f"int8_x{over:g}", quantized, qe.SearchParams(
        hnsw_ef=128, quantization=qe.QuantizationSearchParams(rescore=True, oversampling=over))) for over in (1.0, 2.0)]
    for name, shard, params in runs:
        approx = [top(shard, q, params) for q in qvecs]
        out[f"{name}_recall10"] = statistics.mean(
            len(set(a) & set(e)) / 10 for (a, _), (e, _) in zip(approx, exact, strict=True))
        out[f"{name}_cpu_p50"] = pct([c for _, c in approx], 50)
    plain.close()
    quantized.close()
    return out



def print_quality(rows: list[dict[str, Any]]) -> None:
    print("## Single-shot quality (one query, no agent loop; BEIR docs as whole chunks)\n")
    print(f"Rows with a budget \"as at\" a size scale the BM25 postings budget ({DEFAULT_BUDGET:,} by default) by "
          "the set's points over that size, so these small indexes leave out the terms an index of that size would; "
          "the last column gives the share of queries that lost a term and the share whose top 10 changed against "
          "the same mode with every term.\n")
    print("| set | queries | mode | nDCG@10 | R@2 | R@5 | queries pruned / top 10 changed |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for r in rows:
        extra = f"{r['pruned']:.1%} / {r['changed_top10']:.1%}" if "pruned" in r else ""
        print(f"| {r['set']} | {r['queries']} | {r['mode']} | {r['ndcg10']:.3f} | {r['r2']:.3f} | {r['r5']:.3f} | "
              f"{extra} |")
    print(flush=True)


def print_real_recall(real: dict[str, Any]) -> None:
    print(f"## HNSW on real vectors ({real['points']} MiniLM document vectors of the sets above, "
          f"{real['queries']} real queries; HNSW forced)\n")
    print("| exact CPU p50 ms | recall@10 ef64 / ef128 / ef256 | HNSW CPU p50 ms ef64 / ef128 / ef256 | "
          "int8 vectors, ef128, rescored x1 / x2: recall@10 | CPU p50 ms |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {real['exact_cpu_p50']:.2f} | {real['ef64_recall10']:.3f} / {real['ef128_recall10']:.3f} / "
          f"{real['ef256_recall10']:.3f} | {real['ef64_cpu_p50']:.2f} / {real['ef128_cpu_p50']:.2f} / "
          f"{real['ef256_cpu_p50']:.2f} | {real['int8_x1_recall10']:.3f} / {real['int8_x2_recall10']:.3f} | "
          f"{real['int8_x1_cpu_p50']:.2f} / {real['int8_x2_cpu_p50']:.2f} |\n", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--container", default="default", help="container the sets are ingested into ('eval' for "
                    "copies of `hopgraph eval`'s indexes)")
    ap.add_argument("--workdir", type=Path,
                    help="keep the indexes here (an index already holding a set is reused: ingest skips unchanged "
                         "documents, so copies of `hopgraph eval`'s cached indexes save the embedding)")
    args = ap.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}\n", flush=True)
    ready: dict[str, EdgeBackend] = {}
    with tempfile.TemporaryDirectory(prefix="hopgraph-quality-") as tmp:
        workdir = args.workdir or Path(tmp)
        print_quality(bench_quality(args.data, workdir, sets, ready, args.container))
        print_real_recall(bench_real_recall(ready, args.data, Path(tmp)))
        for b in ready.values():
            b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
