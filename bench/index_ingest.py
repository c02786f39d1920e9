"""Ingest throughput: the pipeline (ingest_beir) against the embedder alone on the same SciFact documents.

    PYTHONPATH=. python bench/index_ingest.py --docs 1500
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import default_data, machine

from hopgraph.index.backend import Chunk
from hopgraph.index.common import embed_text
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import MiniLMEmbedder, get_embedder
from hopgraph.index.ingest import ingest_beir


def bench_ingest(data: Path, workdir: Path, docs: int, blocks: int = 5) -> tuple[dict[str, Any], EdgeBackend]:
    """Pipeline (ingest_beir) vs the embedder alone on the same SciFact documents.

    The two alternate block by block so that load from other processes hits both alike;
    wall time and CPU time (this process, all threads) are both reported.
    """
    lines = [ln for ln in (data / "scifact" / "corpus.jsonl").read_text().splitlines() if ln.strip()][:docs]
    emb = get_embedder("minilm")
    backend = EdgeBackend(workdir / "scifact", embedder=emb)
    size = max(1, -(-len(lines) // blocks))
    # The same embedder on the model file as shipped, for the fused graph's gain.
    shipped = MiniLMEmbedder(graph="shipped", precision="float")
    wall = {"pipeline": 0.0, "embed": 0.0, "shipped": 0.0}
    cpu = {"pipeline": 0.0, "embed": 0.0}
    chunks = 0
    for k in range(0, len(lines), size):
        block = lines[k : k + size]
        path = workdir / f"block{k}" / "corpus.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(block) + "\n")
        w, c = time.perf_counter(), time.process_time()
        rep = ingest_beir(backend, path, progress=False)
        wall["pipeline"] += time.perf_counter() - w
        cpu["pipeline"] += time.process_time() - c
        chunks += rep.chunks
        texts = []
        for line in block:
            rec = json.loads(line)
            ch = Chunk(chunk_id="x", doc_id=str(rec["_id"]), index=0, title=rec.get("title", ""),
                       text=rec.get("text", ""), container="default")
            texts.append(embed_text(ch))
        w, c = time.perf_counter(), time.process_time()
        emb.embed_documents(texts)
        wall["embed"] += time.perf_counter() - w
        cpu["embed"] += time.process_time() - c
        w = time.perf_counter()
        shipped.embed_documents(texts)
        wall["shipped"] += time.perf_counter() - w
    res = {
        "docs": len(lines), "chunks": chunks,
        "pipeline_cps": chunks / wall["pipeline"], "embed_cps": len(lines) / wall["embed"],
        "overhead_pct": (wall["pipeline"] / wall["embed"] - 1) * 100,
        "cpu_overhead_pct": (cpu["pipeline"] / cpu["embed"] - 1) * 100,
        "pipeline_cpu_ms_per_chunk": cpu["pipeline"] / chunks * 1000,
        "embed_cpu_ms_per_chunk": cpu["embed"] / len(lines) * 1000,
        "shipped_cps": len(lines) / wall["shipped"], "fused_shipped_ratio": wall["embed"] / wall["shipped"],
    }
    return res, backend


def print_ingest(ing: dict[str, Any]) -> None:
    print("## Ingest (SciFact corpus, minilm)\n")
    print("| docs | chunks | pipeline chunks/s | embedder alone chunks/s | overhead (wall) | overhead (CPU) | "
          "CPU ms/chunk pipeline / embedder | embedder on the shipped graph chunks/s | time fused / shipped |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {ing['docs']} | {ing['chunks']} | {ing['pipeline_cps']:.1f} | {ing['embed_cps']:.1f} | "
          f"{ing['overhead_pct']:+.1f}% | {ing['cpu_overhead_pct']:+.1f}% | "
          f"{ing['pipeline_cpu_ms_per_chunk']:.1f} / {ing['embed_cpu_ms_per_chunk']:.1f} | "
          f"{ing['shipped_cps']:.1f} | {ing['fused_shipped_ratio']:.2f} |\n", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--docs", type=int, default=1500)
    args = ap.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}\n", flush=True)
    with tempfile.TemporaryDirectory(prefix="hopgraph-ingest-") as tmp:
        ing, backend = bench_ingest(args.data, Path(tmp), args.docs)
        backend.close()
    print_ingest(ing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
