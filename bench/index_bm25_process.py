"""The hybrid query's BM25 list searched in a second process while this one searches the dense list.

    PYTHONPATH=. python bench/index_bm25_process.py                       # 1M points
    PYTHONPATH=. python bench/index_bm25_process.py --size 100000         # quick look

A qdrant-edge call holds the GIL, so the two lists of a hybrid query cannot overlap on two threads of one
process. A second process can search them side by side, but one shard directory belongs to one process, so it
needs its own copy of the index (here: a copy of the same shard; a real split would give it the BM25 vectors
alone). This measures what that would buy before anything is split: the scale benchmark's points
(``index_scale.py``), built once and copied; the worker opens the copy; then, query by query in alternating
order, the backend's own ``hybrid_vector_search`` against the same query with its BM25 list sent to the worker
over a pipe, fused and read the same way. Both must return the same chunks. Prints a markdown table.
"""

from __future__ import annotations

import multiprocessing as mp
import shutil
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import SCOPE, load_avg, one_size_args, pct, print_ways, taking_turns  # noqa: E402
from index_scale import one_size  # noqa: E402

from hopgraph.index.backend import Hit  # noqa: E402
from hopgraph.index.edge import EdgeBackend  # noqa: E402


def serve_bm25(path: str, conn: Connection) -> None:
    """Worker: opens the copy and answers (indices, values, depth) with the BM25 list as (point id, score)."""
    import qdrant_edge as qe

    backend = EdgeBackend(Path(path))
    conn.send("ready")
    while True:
        msg = conn.recv()
        if msg is None:
            break
        if msg == "ping":
            conn.send("pong")
            continue
        indices, values, depth = msg
        t0 = time.perf_counter()
        req = backend._sparse_request(qe.SparseVector(indices, values), None, depth, False)
        points = backend._call(lambda s, r=req: s.query(r))
        conn.send(([(p.id.int, p.score) for p in points], (time.perf_counter() - t0) * 1000))
    backend.close()


def split_hybrid(b: EdgeBackend, conn: Connection, vec: Any, sparse: Any, limit: int) -> tuple[list[Hit], float]:
    """``EdgeBackend.hybrid_vector_search`` with the BM25 list searched by the worker meanwhile, fused and read
    by the backend's own code."""
    depth = max(b.prefetch, limit)
    with b._lock:
        flt = b._scope_filter(SCOPE)
        assert flt is None, "the worker searches without a filter: one container, every document complete"
        query = b._bm25_query(sparse)
        conn.send((list(query.indices), list(query.values), depth))
        dense = b._call(lambda s: s.query(b._dense_request(vec, flt, depth, False)))
        bm25, worker_ms = conn.recv()
    return b._fused_hits([[(p.id.int, p.score) for p in dense], bm25], limit, None), worker_ms


def main() -> int:
    ap = one_size_args(__doc__)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    run = one_size(args, "BM25 list in a second process", "hopgraph-bm25proc-")
    backend, stats, qvecs, qsparse, workdir = run.backend, run.stats, run.qvecs, run.qsparse, run.workdir
    backend.close()
    shutil.copytree(workdir / f"scale{args.size}", workdir / "copy")
    backend = EdgeBackend(workdir / f"scale{args.size}")
    ctx = mp.get_context("spawn")
    ours, theirs = ctx.Pipe()
    worker = ctx.Process(target=serve_bm25, args=(str(workdir / "copy"), theirs), daemon=True)
    worker.start()
    if ours.recv() != "ready":
        raise SystemExit("worker did not start")
    print(f"(querying; load avg {load_avg()})", file=sys.stderr, flush=True)

    def plain(j: int) -> list[Hit]:
        return backend.hybrid_vector_search(qvecs[j], qsparse[j], SCOPE, 10)

    worker_ms: list[float] = []

    def split(j: int) -> list[Hit]:
        hits, ms = split_hybrid(backend, ours, qvecs[j], qsparse[j], 10)
        worker_ms.append(ms)
        return hits

    for j in range(len(qvecs)):  # warm up both copies and check the two ways agree
        a, b = plain(j), split(j)
        if [h.chunk.chunk_id for h in a] != [h.chunk.chunk_id for h in b]:
            raise SystemExit(f"query {j}: the split hybrid returned other chunks")

    def ping(j: int) -> None:
        ours.send("ping")
        ours.recv()

    worker_ms.clear()  # the BM25 list's time inside the worker, from the timed split queries only
    ways = [("one process", plain), ("BM25 list in a second process", split), ("pipe round trip", ping)]
    wall = taking_turns(ways, len(qvecs), args.rounds)
    ours.send(None)
    worker.join(10)
    backend.close()
    print(f"{args.size} points (built in {stats['load_s']:.0f} s + {stats['optimize_s']:.0f} s), {len(qvecs)} real "
          f"questions x {args.rounds} rounds, engine hybrid at limit 10 with the vectors given; the two ways "
          f"took turns query by query; load avg at the end {load_avg()}\n")
    print_ways(wall, "one process", "one process")
    print(f"\nThe BM25 list inside the worker: p50 {pct(worker_ms, 50):.2f} ms, p95 {pct(worker_ms, 95):.2f} ms.")
    run.tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
