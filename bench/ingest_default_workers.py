"""Is the default ever slower than one process? `hopgraph ingest` with HOPGRAPH_EMBED_WORKERS unset (one process,
one worker per core from LARGE_INGEST documents on) against HOPGRAPH_EMBED_WORKERS=1, on the first N SciFact
abstracts for N on both sides of the threshold, taking turns, and the workers' start-up on its own.

    PYTHONPATH=. python bench/ingest_default_workers.py --sizes 500,1999,2000,5183 --runs 2
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import default_data, machine

from hopgraph.index.embed import MiniLMEmbedder
from hopgraph.index.embed_pool import LARGE_INGEST, per_core


def startup_s() -> float:
    """Seconds the first pooled call takes beyond a second identical one: starting the workers and their models."""
    embedder = MiniLMEmbedder(workers=per_core())
    texts = [f"a short text number {i}" for i in range(32)]
    try:
        t0 = time.perf_counter()
        embedder.embed_documents(texts)
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        embedder.embed_documents(texts)
        return first - (time.perf_counter() - t0)
    finally:
        embedder.close()


def ingest_s(hopgraph: str, corpus: Path, index: Path, workers: str | None) -> float:
    env = {k: v for k, v in os.environ.items() if k != "HOPGRAPH_EMBED_WORKERS"}
    if workers:
        env["HOPGRAPH_EMBED_WORKERS"] = workers
    t0 = time.perf_counter()
    subprocess.run([hopgraph, "ingest", str(corpus), "--index", str(index), "--json", "--no-progress"], env=env,
                   check=True, capture_output=True)
    seconds = time.perf_counter() - t0
    shutil.rmtree(index)
    return seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sizes", default=f"500,{LARGE_INGEST - 1},{LARGE_INGEST},5183")
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    hopgraph = shutil.which("hopgraph")
    if hopgraph is None:
        sys.exit("hopgraph is not on PATH: install the package (pip install -e .)")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}; one per core = {per_core()}\n",
          flush=True)
    starts = [startup_s() for _ in range(3)]
    print(f"workers' start-up: {statistics.median(starts):.2f} s (median of 3: "
          + ", ".join(f"{s:.2f}" for s in starts) + ")\n", flush=True)
    lines = (args.data / "scifact" / "corpus.jsonl").read_text().splitlines()
    print("| documents | one process (s) | default (s) | default / one process |")
    print("|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="hopgraph-default-workers-") as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            folder = Path(tmp) / str(n)
            folder.mkdir()
            corpus = folder / "corpus.jsonl"
            corpus.write_text("\n".join(lines[:n]) + "\n")
            one: list[float] = []
            default: list[float] = []
            for r in range(args.runs):
                pair = [("1", one), (None, default)]
                for workers, out in pair if r % 2 else pair[::-1]:
                    out.append(ingest_s(hopgraph, corpus, folder / "index", workers))
            a, b = statistics.median(one), statistics.median(default)
            print(f"| {n} | {a:.1f} | {b:.1f} | {b / a:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
