"""Dense recall at scale, counting near-ties: HNSW against exact search on points shaped like real embeddings.

    PYTHONPATH=. python bench/index_dense_recall.py                       # 1M points, ef 64..512
    PYTHONPATH=. python bench/index_dense_recall.py --size 200000 --efs 128,256

Points are those of ``bench/index_scale.py`` (the real MiniLM vectors of the evaluation corpora, then mixtures
of three of them plus a little noise), written through ``EdgeBackend`` with its HNSW and int8 settings; texts and
BM25 vectors are left out, since only the dense index is measured. Queries are the sets' real questions.

Two recalls for each ef, both against exact search over the same points (numpy, float32):

- ``recall@10``: the share of the exact ten that HNSW returned;
- ``ε-recall@10`` (ann-benchmarks' "epsilon recall", ε = 0.01): the share of returned points whose cosine
  distance is at most 1.01 times the exact tenth distance. Where hundreds of mixtures lean on one document,
  the exact ten are near-ties and a point just outside them is as good an answer; this counts it.

Also printed: how tight the exact neighbourhoods are (the tenth minus the fiftieth similarity), which says how
many near-ties there are to choose from.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from _common import SCOPE, load_avg, machine, one_size_args, pct
from index_scale import BATCH, Base, load_base, make_batch, queries

from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.hnsw import HNSW_EF_CONSTRUCT, HNSW_M, default_hnsw_ef

K = 10
EPSILON = 0.01


def build(n: int, base: Base, workdir: Path, seed: int) -> tuple[EdgeBackend, np.ndarray, dict[str, float]]:
    """The index and, beside it, every point's vector for the exact search."""
    import qdrant_edge as qe

    backend = EdgeBackend(workdir / f"dense{n}", embedder=get_embedder("minilm"))
    vectors = np.empty((n, base.vecs.shape[1]), dtype=np.float32)
    empty = qe.SparseVector([], [])
    t = time.perf_counter()
    for start in range(0, n, BATCH):
        stop = min(n, start + BATCH)
        chunks, vecs, _ = make_batch(base, start, stop, seed)
        vectors[start:stop] = vecs
        backend.upsert_vectors([replace(c, title="", text="") for c in chunks], vecs, [empty] * len(chunks))
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    backend.optimize()
    optimize_s = time.perf_counter() - t
    print(f"(built {n}: load {load_s:.0f} s, optimize {optimize_s:.0f} s; load avg {load_avg()})",
          file=sys.stderr, flush=True)
    return backend, vectors, {"load_s": load_s, "optimize_s": optimize_s}


def exact_neighbours(vectors: np.ndarray, qvecs: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices and similarities of each query's ``depth`` nearest points, best first."""
    ids = np.empty((len(qvecs), depth), dtype=np.int64)
    sims = np.empty((len(qvecs), depth), dtype=np.float32)
    for j, q in enumerate(qvecs):
        scores = vectors @ q
        top = np.argpartition(-scores, depth)[:depth]
        order = top[np.argsort(-scores[top], kind="stable")]
        ids[j], sims[j] = order, scores[order]
    return ids, sims


def main() -> int:
    ap = one_size_args(__doc__)
    ap.add_argument("--efs", default="64,128,256,512")
    ap.add_argument("--vectors-from", type=Path, nargs="*", default=[],
                    help="hopgraph MiniLM index directories to read document vectors from instead of embedding")
    args = ap.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    efs = [int(x) for x in args.efs.split(",") if x]
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"# Dense recall at {args.size:,} points\n\n{date}; {machine()}; load avg {load_avg()} at start\n",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="hopgraph-recall-", dir=args.workdir) as tmp:
        workdir = Path(tmp)
        base = load_base(args.data, sets, args.cache, args.vectors_from, workdir)
        _, qvecs, _ = queries(args.data, sets, args.queries, args.seed)
        backend, vectors, cost = build(args.size, base, workdir, args.seed)
        t = time.perf_counter()
        true_ids, true_sims = exact_neighbours(vectors, qvecs, 50)
        exact_ms = (time.perf_counter() - t) * 1000 / len(qvecs)
        backend.exact_threshold = 0  # HNSW for every query
        rows = []
        for ef in efs:
            backend.hnsw_ef = ef
            exact_hits, near_hits, latencies = [], [], []
            for j, q in enumerate(qvecs):
                started = time.perf_counter()
                hits = backend.dense_vector_search(q, SCOPE, K)
                latencies.append((time.perf_counter() - started) * 1000)
                got = [int(h.chunk.doc_id[1:]) for h in hits]  # doc ids are "p<row>"
                exact_hits.append(len(set(got) & set(true_ids[j, :K].tolist())) / K)
                # Cosine distance of each returned point, against (1 + ε) times the exact tenth distance.
                limit = (1 + EPSILON) * (1 - float(true_sims[j, K - 1]))
                near_hits.append(sum(1 - float(vectors[g] @ q) <= limit + 1e-7 for g in got) / K)
            rows.append((ef, statistics.mean(exact_hits), statistics.mean(near_hits), pct(latencies, 50)))
        backend.close()
    spread = true_sims[:, K - 1] - true_sims[:, 49]
    print(f"{len(base.vecs)} real documents, {len(qvecs)} real questions; HNSW m {HNSW_M}, "
          f"ef_construct {HNSW_EF_CONSTRUCT}, int8 copies "
          f"rescored x2; the backend's default ef at this size: {default_hnsw_ef(args.size)}; "
          f"load avg at the end {load_avg()}\n")
    print(f"Bulk load {cost['load_s']:.0f} s, optimize {cost['optimize_s']:.0f} s; exact search "
          f"{exact_ms:.0f} ms a query (numpy). Exact neighbourhoods: the 10th similarity minus the 50th, median "
          f"{statistics.median(spread.tolist()):.4f} (p10 {pct(spread.tolist(), 10):.4f}).\n")
    print(f"| ef | recall@10 | ε-recall@10 (ε {EPSILON}) | p50 ms |")
    print("|---:|---:|---:|---:|")
    for ef, exact, near, p50 in rows:
        print(f"| {ef} | {exact:.3f} | {near:.3f} | {p50:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
