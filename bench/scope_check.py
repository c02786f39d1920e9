"""What the scope check costs a turn: counting documents per container, against the check that remembers.

Every turn a run checks that its containers hold documents (``hopgraph.index.factory.check_scope``). Counting
documents per container is a facet over every document's first chunk, so it grows with the index; the check
takes a container seen holding documents within ``HELD_FOR_S`` seconds at its word. For each size an embedded
index of synthetic chunks (two a document, random unit vectors, 30 random words) is written in batches and
optimized, then the two take turns, call by call.

    PYTHONPATH=. python bench/scope_check.py [--sizes 10000,100000] [--calls 50] [--workdir DIR]

Prints a table: ms p50 / p95 of counting and of the remembering check, per size.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from hopgraph.index import factory
from hopgraph.index.backend import Chunk, Scope, make_chunk_id
from hopgraph.index.common import bm25_document
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, pct  # noqa: E402

BATCH = 5_000
CONTAINER = "default"


def build(path: Path, size: int, seed: int) -> EdgeBackend:
    backend = EdgeBackend(str(path), embedder=get_embedder("minilm"))
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(5_000)]
    for start in range(0, size, BATCH):
        chunks = []
        for i in range(start, min(size, start + BATCH)):
            doc, index = f"doc{i // 2}", i % 2
            chunks.append(Chunk(
                chunk_id=make_chunk_id(CONTAINER, doc, index), doc_id=doc, index=index, title=doc,
                text=" ".join(rng.choice(words, 30)), container=CONTAINER, chunk_count=2, content_hash=f"h{doc}",
            ))
        vecs = rng.standard_normal((len(chunks), 384)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        backend.upsert_vectors(chunks, vecs, [bm25_document(c.text) for c in chunks])
    backend.optimize()
    return backend


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    started_on = machine()
    workdir = Path(tempfile.mkdtemp(dir=args.workdir))
    rows = []
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            backend = build(workdir / f"index-{size}", size, seed=size)
            scope = Scope((CONTAINER,))
            factory.check_scope(backend, scope)  # the first check counts
            counted: list[float] = []
            checked: list[float] = []
            for _ in range(args.calls):
                started = time.perf_counter()
                held = backend.container_documents()
                counted.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                factory.check_scope(backend, scope)
                checked.append((time.perf_counter() - started) * 1000)
            assert held == {CONTAINER: (size + 1) // 2}
            rows.append((size, counted, checked))
            backend.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(started_on)
    print("| points | counting per container p50 / p95 ms | remembering check p50 / p95 ms |")
    print("|---:|---:|---:|")
    for size, counted, checked in rows:
        print(f"| {size:,} | {pct(counted, 50):.2f} / {pct(counted, 95):.2f} "
              f"| {pct(checked, 50):.4f} / {pct(checked, 95):.4f} |")


if __name__ == "__main__":
    main()
