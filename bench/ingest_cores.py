"""Ways to use the cores for a large ingest, on an idle and on a busy machine, against the shipped graph.

Each way ingests the same SciFact abstracts through the whole pipeline (``ingest_beir`` into a fresh embedded
index) in blocks; the ways take turns block by block, in reverse order every other block, so load from other
processes falls on all of them alike. "Busy" runs the same with one process spinning on a core throughout (a
neighbour, or the server the ingest shares a machine with). The shipped graph row is the embedder alone on the
model file as shipped, run by onnxruntime as is (float, one thread, batches of 8): the yardstick of the ratio.

    PYTHONPATH=. python bench/ingest_cores.py --docs 600 --blocks 6
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from _common import default_data, machine

from hopgraph.index.backend import Chunk
from hopgraph.index.common import embed_text
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import MiniLMEmbedder
from hopgraph.index.ingest import ingest_beir

# name: MiniLMEmbedder keyword arguments
WAYS: dict[str, dict[str, object]] = {
    "float, 1 process, 1 thread (before)": {"doc_precision": "float", "threads": 1, "workers": 1},
    "int8, 1 process, 1 thread": {"doc_precision": "int8", "threads": 1, "workers": 1},
    "int8, 1 process, 2 threads": {"doc_precision": "int8", "threads": 2, "workers": 1},
    "int8, 1 process, batches of 32": {"doc_precision": "int8", "threads": 1, "workers": 1, "batch_size": 32},
    "int8, 2 worker processes": {"doc_precision": "int8", "threads": 1, "workers": 2},
}
SHIPPED = "shipped graph as is (embedder alone)"


def _spin(stop: Any) -> None:
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x += 1


def run(data: Path, docs: int, blocks: int, busy: bool, workdir: Path) -> dict[str, float]:
    """Documents per second of each way (the sum over blocks), and of the shipped graph."""
    lines = [ln for ln in (data / "scifact" / "corpus.jsonl").read_text().splitlines() if ln.strip()][:docs]
    size = max(1, -(-len(lines) // blocks))
    embedders = {name: MiniLMEmbedder(**kw) for name, kw in WAYS.items()}  # type: ignore[arg-type]
    shipped = MiniLMEmbedder(graph="shipped", doc_precision="float", threads=1, workers=1)
    for e in [*embedders.values(), shipped]:
        e.embed_documents(["warm up"] * 20)  # worker processes start and load their model
    backends = {name: EdgeBackend(workdir / f"{busy}-{k}", embedder=e) for k, (name, e) in
                enumerate(embedders.items())}
    seconds = dict.fromkeys([*WAYS, SHIPPED], 0.0)
    stop = multiprocessing.Event()
    spinner = multiprocessing.Process(target=_spin, args=(stop,), daemon=True) if busy else None
    if spinner:
        spinner.start()
    try:
        for b, k in enumerate(range(0, len(lines), size)):
            block = lines[k : k + size]
            path = workdir / f"{busy}-block{k}" / "corpus.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(block) + "\n")
            texts = [embed_text(Chunk(chunk_id="x", doc_id=str(r["_id"]), index=0, title=r.get("title", ""),
                                      text=r.get("text", ""), container="default"))
                     for r in map(json.loads, block)]
            turns: list[tuple[str, Callable[[], object]]] = [
                (name, partial(ingest_beir, backends[name], path, progress=False)) for name in WAYS]
            turns.append((SHIPPED, partial(shipped.embed_documents, texts)))
            for name, fn in turns if b % 2 else turns[::-1]:
                t0 = time.perf_counter()
                fn()
                seconds[name] += time.perf_counter() - t0
    finally:
        stop.set()
        if spinner:
            spinner.join()
        for backend in backends.values():
            backend.close()
        for e in embedders.values():
            e.close()
    return {name: len(lines) / s for name, s in seconds.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--docs", type=int, default=600)
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--runs", type=int, default=1, help="runs of each condition; the table shows medians")
    args = ap.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}\n", flush=True)
    results: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory(prefix="hopgraph-cores-") as tmp:
        for r in range(args.runs):
            for busy in (False, True):
                results[busy].append(run(args.data, args.docs, args.blocks, busy, Path(tmp) / f"run{r}"))
    print(f"{args.docs} SciFact abstracts in {args.blocks} blocks, {args.runs} run(s); documents per second "
          "(median over runs) and the ratio to the shipped graph in the same run\n")
    print("| way | idle: docs/s | idle: x shipped | busy: docs/s | busy: x shipped |")
    print("|---|---:|---:|---:|---:|")
    for name in [*WAYS, SHIPPED]:
        cells = []
        for busy in (False, True):
            rate = statistics.median(r[name] for r in results[busy])
            ratio = statistics.median(r[name] / r[SHIPPED] for r in results[busy])
            cells += [f"{rate:.1f}", f"{ratio:.2f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
