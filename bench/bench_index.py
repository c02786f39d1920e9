"""Index benchmark, all parts in one run: ingest throughput, search latency, HNSW recall, single-shot quality.

    PYTHONPATH=. python bench/bench_index.py                      # everything, default sizes
    PYTHONPATH=. python bench/bench_index.py --sizes 10000 --skip-quality --skip-ingest

Each part is also a script of its own: bench/index_ingest.py, bench/index_search.py, bench/index_quality.py;
index cost against size (10k to 1M points) is bench/index_scale.py. Prints markdown tables (the source of
docs/benchmarks-index.md). Synthetic data is seeded, so runs are repeatable up to machine noise.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import SETS, default_data, machine  # noqa: E402
from index_ingest import bench_ingest, print_ingest  # noqa: E402
from index_quality import bench_quality, bench_real_recall, print_quality, print_real_recall  # noqa: E402
from index_search import bench_query_embedding, bench_search, print_query_embedding, print_search  # noqa: E402

from hopgraph.index.edge import DEFAULT_EXACT_THRESHOLD, EdgeBackend  # noqa: E402
from hopgraph.index.embed import query_precision, resolve_precision  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sizes", default="10000,100000", help="synthetic index sizes for latency")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--threshold", type=int, default=None, help="exact/HNSW switch (default: EdgeBackend's)")
    ap.add_argument("--ingest-docs", type=int, default=1500, help="SciFact docs for the throughput comparison")
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--skip-ingest", action="store_true")
    ap.add_argument("--skip-search", action="store_true")
    ap.add_argument("--skip-quality", action="store_true")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--workdir", type=Path)
    args = ap.parse_args()
    threshold = args.threshold or DEFAULT_EXACT_THRESHOLD
    tmp = tempfile.TemporaryDirectory(prefix="hopgraph-bench-")
    workdir = args.workdir or Path(tmp.name)
    results: dict[str, Any] = {"machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                               "threads": os.environ.get("HOPGRAPH_EMBED_THREADS", "1"), "threshold": threshold,
                               "query_precision": resolve_precision(query_precision())}
    print(f"# hopgraph index benchmark\n\n{results['date']}; {results['machine']}; "
          f"HOPGRAPH_EMBED_THREADS={results['threads']}; queries embedded in {results['query_precision']} "
          "by default on this CPU\n", flush=True)
    ready: dict[str, EdgeBackend] = {}
    if not args.skip_ingest:
        ing, backend = bench_ingest(args.data, workdir, args.ingest_docs)
        results["ingest"] = ing
        ready["scifact"] = backend  # quality later adds the rest of the corpus to it
        print_ingest(ing)
    if not args.skip_search:
        rows = []
        for n in [int(x) for x in args.sizes.split(",") if x]:
            rows.append(bench_search(n, args.queries, workdir, threshold))
            print(f"(search at {n} done)", file=sys.stderr, flush=True)
        results["search"] = rows
        print_search(rows, args.queries, threshold, results["query_precision"])
        qe = bench_query_embedding(args.data, [x for x in args.sets.split(",") if x])
        results["query_embedding"] = qe
        print_query_embedding(qe)
    if not args.skip_quality:
        sets = [s for s in args.sets.split(",") if s]
        rows = bench_quality(args.data, workdir, sets, ready)
        results["quality"] = rows
        print_quality(rows)
        real = bench_real_recall({k: v for k, v in ready.items() if k in sets}, args.data, workdir)
        results["real_recall"] = real
        print_real_recall(real)
    for b in ready.values():
        b.close()
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2))
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
