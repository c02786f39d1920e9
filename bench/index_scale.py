"""Index cost against size: indexes of 10k, 100k and 1M points, built one after another and queried side by side.

    PYTHONPATH=. python bench/index_scale.py                                   # 10k, 100k, 1M; plot in docs/
    PYTHONPATH=. python bench/index_scale.py --sizes 10000,100000 --plot ''    # quick look, no plot

Points are shaped like real data: the base is the real MiniLM document vectors and BM25 vectors of the
evaluation corpora (scifact, hotpotqa_train100, musique_train100: 8,067 documents); point k < 8,067 is
document k itself, every further point mixes three random documents with random weights (Dirichlet(1, 1, 1))
plus a little noise (dense) and takes the BM25 vector of its heaviest document with a fifth of its terms
dropped (sparse). (A first model, each point one document plus up to half of another, put hundreds of near
copies around every document at 1M: HNSW recall@10 fell to 0.5 to 0.6 at any ef, since the true top 10 were
ties within 0.01 of cosine. Real corpora are not made of paraphrase clusters that size.) Queries are the
sets' real questions, embedded as the backend embeds queries. Points are generated batch by batch from a seed
and written with ``upsert_vectors`` (stream, batch, optimize once), so the process never holds the corpus.

Every size is built first and kept open; then the query loops take turns size by size and query by query,
so load from other processes falls on all sizes alike. Prints markdown tables (docs/benchmarks-index.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from _common import (
    REPO,
    SCOPE,
    SETS,
    RssWatch,
    corpus_records,
    cpu_model,
    default_data,
    load_avg,
    load_queries,
    machine,
    pct,
    rss_mb,
    status_mb,
)

from hopgraph.index.backend import Chunk, make_chunk_id
from hopgraph.index.common import DENSE, bm25_document, bm25_query, embed_text
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder
from hopgraph.index.hnsw import HNSW_EF_CONSTRUCT, HNSW_M, default_hnsw_ef

BATCH = 5000
MIXED = 3  # a point mixes this many real documents, with weights drawn uniformly from the simplex
NOISE = 0.01  # per-dimension standard deviation of the noise added to a point (before normalizing)
KEEP = 0.8  # share of a document's BM25 terms a replica keeps


@dataclass
class Base:
    """The real documents every point is made from."""

    vecs: np.ndarray  # (B, dim) float32 unit rows
    sp_idx: list[np.ndarray]
    sp_val: list[np.ndarray]
    titles: list[str]
    texts: list[str]


def _doc_chunk(rec: dict[str, Any]) -> Chunk:
    return Chunk(chunk_id="x", doc_id=str(rec["_id"]), index=0, title=rec.get("title", ""),
                 text=rec.get("text", ""), container="default")


def _vectors_from_indexes(dirs: list[Path], workdir: Path) -> dict[str, np.ndarray]:
    """Document vectors read from copies of existing MiniLM hopgraph indexes (e.g. ``hopgraph eval``'s cache)."""
    import qdrant_edge as qe

    out: dict[str, np.ndarray] = {}
    for d in dirs:
        meta = json.loads((d / "hopgraph.json").read_text())
        if meta.get("embedder") != "minilm":
            raise SystemExit(f"{d} was built with {meta.get('embedder')!r}, not minilm")
        copy = workdir / f"copy-{d.name}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(d / "shard", copy)
        shard = qe.EdgeShard.load(str(copy))
        offset = None
        while True:
            recs, offset = shard.scroll(qe.ScrollRequest(offset=offset, limit=1000, with_payload=["doc_id", "index"],
                                                         with_vector=[DENSE]))
            for r in recs:
                payload, vectors = r.payload or {}, r.vector
                if int(payload.get("index", 0)) == 0 and isinstance(vectors, dict):
                    out[str(payload["doc_id"])] = np.asarray(vectors[DENSE], dtype=np.float32)
            if offset is None or not recs:
                break
        shard.close()
        shutil.rmtree(copy, ignore_errors=True)
    return out


def load_base(data: Path, sets: list[str], cache: Path, sources: list[Path], workdir: Path) -> Base:
    records = [rec for name in sets for rec in corpus_records(data / name)]
    texts = [embed_text(_doc_chunk(rec)) for rec in records]
    key = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    cache.mkdir(parents=True, exist_ok=True)
    cached = cache / f"minilm-docs-{key}.npy"
    if cached.exists():
        vecs = np.load(cached)
    else:
        known = _vectors_from_indexes(sources, workdir) if sources else {}
        ids = [str(rec["_id"]) for rec in records]
        missing = [i for i, d in enumerate(ids) if d not in known]
        print(f"(document vectors: {len(ids) - len(missing)} read from indexes, {len(missing)} to embed)",
              file=sys.stderr, flush=True)
        vecs = np.zeros((len(ids), 384), dtype=np.float32)
        for i, d in enumerate(ids):
            if d in known:
                vecs[i] = known[d]
        if missing:
            emb = get_embedder("minilm")
            for k in range(0, len(missing), 256):
                part = missing[k : k + 256]
                vecs[part] = emb.embed_documents([texts[i] for i in part])
                print(f"(embedded {k + len(part)} / {len(missing)})", file=sys.stderr, flush=True)
        np.save(cached, vecs)
    sparse = [bm25_document(t) for t in texts]
    return Base(vecs=vecs, sp_idx=[np.asarray(s.indices, dtype=np.uint32) for s in sparse],
                sp_val=[np.asarray(s.values, dtype=np.float32) for s in sparse],
                titles=[str(rec.get("title") or rec["_id"]) for rec in records],
                texts=[str(rec.get("text") or "") for rec in records])


def make_batch(base: Base, start: int, stop: int, seed: int) -> tuple[list[Chunk], np.ndarray, list[Any]]:
    """Points start..stop-1: the same points for the same seed, whatever the batch boundaries of other sizes."""
    import qdrant_edge as qe

    rng = np.random.default_rng([seed, start])
    size, nbase = stop - start, len(base.vecs)
    k = np.arange(start, stop)
    docs = rng.integers(0, nbase, (size, MIXED))
    weights = rng.dirichlet(np.ones(MIXED), size).astype(np.float32)
    vecs = (base.vecs[docs] * weights[:, :, None]).sum(axis=1)
    vecs += NOISE * rng.standard_normal(vecs.shape, dtype=np.float32)
    # The BM25 vector and the text are those of the document with the largest weight.
    src = docs[np.arange(size), weights.argmax(axis=1)]
    real = k < nbase
    src[real] = k[real]
    vecs[real] = base.vecs[k[real]]
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    chunks, sparse = [], []
    for j in range(size):
        s = int(src[j])
        idx, val = base.sp_idx[s], base.sp_val[s]
        if not real[j] and len(idx) > 1:
            keep = rng.random(len(idx)) < KEEP
            if keep.any():
                idx, val = idx[keep], val[keep]
        sparse.append(qe.SparseVector(idx.tolist(), val.tolist()))
        doc = f"p{start + j}"
        chunks.append(Chunk(chunk_id=make_chunk_id("default", doc, 0), doc_id=doc, index=0, title=base.titles[s],
                            text=base.texts[s], container="default", content_hash="h"))
    return chunks, vecs, sparse


def build(n: int, base: Base, workdir: Path, seed: int, limit_mb: float) -> tuple[EdgeBackend, dict[str, Any]]:
    path = workdir / f"scale{n}"
    shutil.rmtree(path, ignore_errors=True)
    backend = EdgeBackend(path, embedder=get_embedder("minilm"))
    before = status_mb("RssAnon", "VmRSS")
    with RssWatch(limit_mb) as watch:
        t = time.perf_counter()
        for start in range(0, n, BATCH):
            chunks, vecs, sparse = make_batch(base, start, min(n, start + BATCH), seed)
            backend.upsert_vectors(chunks, vecs, sparse)
            del chunks, vecs, sparse
        load_s = time.perf_counter() - t
        t = time.perf_counter()
        backend.optimize()
        optimize_s = time.perf_counter() - t
    stats = {"n": n, "load_s": load_s, "optimize_s": optimize_s, "anon_before_mb": before["RssAnon"],
             "peak_anon_mb": watch.peak["RssAnon"], "peak_file_mb": watch.peak["RssFile"],
             "peak_rss_mb": watch.peak["VmRSS"], "rss_after_mb": rss_mb(),
             "disk_mb": sum(f.stat().st_blocks * 512 for f in path.rglob("*") if f.is_file()) / 2**20,
             "load_avg": load_avg()}
    print(f"(built {n}: load {load_s:.0f} s, optimize {optimize_s:.0f} s, peak RSS {stats['peak_rss_mb']:.0f} MB, "
          f"of it anonymous {stats['peak_anon_mb']:.0f} MB; load avg {load_avg()})", file=sys.stderr, flush=True)
    return backend, stats


def queries(data: Path, sets: list[str], count: int, seed: int) -> tuple[list[str], np.ndarray, list[Any]]:
    texts = [t for name in sets for t in load_queries(data / name)[0].values()]
    rng = np.random.default_rng(seed)
    texts = [texts[i] for i in sorted(rng.choice(len(texts), size=min(count, len(texts)), replace=False))]
    emb = get_embedder("minilm")  # queries in the default precision for this CPU, as search() embeds them
    return texts, np.stack([emb.embed_query(t) for t in texts]), [bm25_query(t) for t in texts]


@dataclass
class OneSize:
    """One index of the scale benchmark's points, built in a temporary directory, and its questions."""

    tmp: tempfile.TemporaryDirectory[str]
    workdir: Path
    qvecs: np.ndarray
    qsparse: list[Any]
    backend: EdgeBackend
    stats: dict[str, Any]


def one_size(args: argparse.Namespace, title: str, prefix: str) -> OneSize:
    """Prints the heading, then builds the index of ``args.size`` points (``_common.one_size_args``)."""
    sets = [s for s in args.sets.split(",") if s]
    tmp = tempfile.TemporaryDirectory(prefix=prefix, dir=args.workdir)
    workdir = Path(tmp.name)
    print(f"# {title}\n\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}\n", flush=True)
    base = load_base(args.data, sets, args.cache, [], workdir)
    _, qvecs, qsparse = queries(args.data, sets, args.queries, args.seed)
    backend, stats = build(args.size, base, workdir, args.seed, 8000)
    return OneSize(tmp, workdir, qvecs, qsparse, backend, stats)


KINDS = ("hybrid", "text", "dense")


def latency(backends: dict[int, EdgeBackend], qvecs: np.ndarray, qsparse: list[Any]) -> dict[int, dict[str, Any]]:
    """Engine queries (vectors given), sizes and kinds taking turns query by query."""
    import time as _t

    def one(b: EdgeBackend, kind: str, j: int) -> list[str]:
        if kind == "hybrid":
            hits = b.hybrid_vector_search(qvecs[j], qsparse[j], SCOPE, 10)
        elif kind == "text":
            hits = b.sparse_vector_search(qsparse[j], SCOPE, 10)
        else:
            hits = b.dense_vector_search(qvecs[j], SCOPE, 10)
        return [h.chunk.chunk_id for h in hits]

    sizes = list(backends)
    for n in sizes:  # warm up: page in what the queries touch
        for kind in KINDS:
            for j in range(len(qvecs)):
                one(backends[n], kind, j)
    wall: dict[tuple[int, str], list[float]] = {(n, k): [] for n in sizes for k in KINDS}
    cpu: dict[tuple[int, str], list[float]] = {(n, k): [] for n in sizes for k in KINDS}
    for j in range(len(qvecs)):
        order = sizes[j % len(sizes):] + sizes[: j % len(sizes)]
        for n in order:
            for kind in KINDS:
                c0, t0 = _t.thread_time(), _t.perf_counter()
                one(backends[n], kind, j)
                wall[n, kind].append((_t.perf_counter() - t0) * 1000)
                cpu[n, kind].append((_t.thread_time() - c0) * 1000)
    out: dict[int, dict[str, Any]] = {}
    for n in sizes:
        row: dict[str, Any] = {}
        for kind in KINDS:
            row[f"{kind}_p50"], row[f"{kind}_p95"] = pct(wall[n, kind], 50), pct(wall[n, kind], 95)
            row[f"{kind}_cpu_p50"] = pct(cpu[n, kind], 50)
        out[n] = row
    smallest = sizes[0]
    for n in sizes:
        for kind in KINDS:  # median of per-query ratios to the smallest size, measured side by side
            out[n][f"{kind}_ratio"] = statistics.median(
                a / b for a, b in zip(wall[n, kind], wall[smallest, kind], strict=True))
    return out


def recall(backend: EdgeBackend, qvecs: np.ndarray, efs: list[int]) -> dict[str, Any]:
    """HNSW (the backend's int8 copies, twice the candidates rescored) against exact search, recall@10."""

    def ids(j: int) -> list[str]:
        return [h.chunk.chunk_id for h in backend.dense_vector_search(qvecs[j], SCOPE, 10)]

    threshold, ef0 = backend.exact_threshold, backend.hnsw_ef
    backend.exact_threshold = 10**12
    t = time.perf_counter()
    exact = [ids(j) for j in range(len(qvecs))]
    out: dict[str, Any] = {"exact_ms": (time.perf_counter() - t) * 1000 / len(qvecs)}
    backend.exact_threshold = 0
    out["default_ef"] = default_hnsw_ef(backend.count())
    for ef in efs:
        backend.hnsw_ef = ef
        lat, got = [], []
        for j in range(len(qvecs)):
            t0 = time.perf_counter()
            got.append(ids(j))
            lat.append((time.perf_counter() - t0) * 1000)
        out[f"ef{ef}_recall10"] = statistics.mean(len(set(a) & set(e)) / 10 for a, e in zip(got, exact, strict=True))
        out[f"ef{ef}_p50"] = pct(lat, 50)
    backend.exact_threshold, backend.hnsw_ef = threshold, ef0
    return out


def plot(rows: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = [r["n"] for r in rows]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    for kind, label, color in (("hybrid", "engine hybrid", "C0"), ("text", "BM25", "C1"), ("dense", "dense", "C2")):
        ax.plot(ns, [r[f"{kind}_p50"] for r in rows], "o-", color=color, label=f"{label} p50")
        ax.plot(ns, [r[f"{kind}_p95"] for r in rows], "o--", color=color, alpha=0.6, label=f"{label} p95")
    ax.axhline(2, color="grey", lw=0.8, ls=":")
    ax.axhline(4, color="grey", lw=0.8, ls=":")
    ax.set(xscale="log", xlabel="points", ylabel="ms per query", title="engine query (vectors given)")
    ax.legend(fontsize=8)
    bx.plot(ns, [r["load_s"] + r["optimize_s"] for r in rows], "o-", label="bulk load + optimize, s")
    bx.plot(ns, [r["peak_rss_mb"] / 1000 for r in rows], "s-", label="peak RSS while building, GB")
    bx.set(xscale="log", yscale="log", xlabel="points", title="build")
    bx.legend(fontsize=8)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--efs", default="64,128,256,512", help="hnsw_ef values for the recall table")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--vectors-from", type=Path, nargs="*", default=[],
                    help="hopgraph MiniLM index directories to read document vectors from instead of embedding")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "hopgraph" / "bench")
    ap.add_argument("--plot", default=str(REPO / "docs" / "index-scale.png"), help="PNG path ('' for none)")
    ap.add_argument("--anon-limit-mb", type=float, default=8000, help="stop if anonymous RSS passes this")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--replot", type=Path, help="only draw the plot again from a --json-out file")
    args = ap.parse_args()
    if args.replot:
        saved = json.loads(args.replot.read_text())
        plot(saved["rows"], Path(args.plot), saved["title"])
        return 0
    sets = [s for s in args.sets.split(",") if s]
    sizes = sorted(int(x) for x in args.sizes.split(",") if x)
    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.TemporaryDirectory(prefix="hopgraph-scale-", dir=args.workdir)
    workdir = Path(tmp.name)
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    start_load = load_avg()
    print(f"# hopgraph index cost against size\n\n{date}; {machine()}\n", flush=True)
    base = load_base(args.data, sets, args.cache, args.vectors_from, workdir)
    texts, qvecs, qsparse = queries(args.data, sets, args.queries, args.seed)
    backends: dict[int, EdgeBackend] = {}
    builds: dict[int, dict[str, Any]] = {}
    for n in sizes:
        backends[n], builds[n] = build(n, base, workdir, args.seed, args.anon_limit_mb)
    print(f"(querying; load avg {load_avg()})", file=sys.stderr, flush=True)
    lat = latency(backends, qvecs, qsparse)
    efs = [int(x) for x in args.efs.split(",") if x]
    rec = {n: recall(backends[n], qvecs, efs) for n in sizes}
    rows = [{**builds[n], **lat[n], **rec[n]} for n in sizes]
    end_load = load_avg()
    for b in backends.values():
        b.close()

    print(f"{len(base.vecs)} real documents, {len(texts)} real questions; load avg at the end {end_load}\n")
    print("## Engine latency (vectors given, limit 10, one container), ms wall p50 / p95 [CPU p50]\n")
    print("| points | hybrid | BM25 | dense | hybrid / BM25 / dense time vs the smallest size |")
    print("|---:|---:|---:|---:|---:|")
    for r in rows:
        cells = [f"{r[k + '_p50']:.2f} / {r[k + '_p95']:.2f} [{r[k + '_cpu_p50']:.2f}]" for k in KINDS]
        ratios = " / ".join(f"{r[k + '_ratio']:.2f}" for k in KINDS)
        print(f"| {r['n']} | " + " | ".join(cells) + f" | {ratios} |")
    print(f"\n## Dense recall@10 against exact search (HNSW m {HNSW_M}, ef_construct {HNSW_EF_CONSTRUCT}, int8 copies "
          "rescored x2)\n")
    print("The backend's default ef by size is in the second column; the latency table above ran with it.\n")
    print("| points | default ef | exact ms/query | " + " | ".join(f"ef {ef}: recall@10 / p50 ms" for ef in efs) + " |")
    print("|---:|---:|---:|" + "---:|" * len(efs))
    for r in rows:
        cells = [f"{r[f'ef{ef}_recall10']:.3f} / {r[f'ef{ef}_p50']:.2f}" for ef in efs]
        print(f"| {r['n']} | {r['default_ef']} | {r['exact_ms']:.1f} | " + " | ".join(cells) + " |")
    print(f"\n## Bulk ingest (batches of {BATCH}, generated as written; optimize once)\n")
    print("Peak RSS of the whole process while building that size (the smaller indexes stay open), split into "
          "anonymous memory and the index files mapped in memory; RSS after: all sizes built so far, open.\n")
    print("| points | load s | optimize s | points/s (load + optimize) | peak RSS MB | of it anonymous / "
          "file-backed MB | anonymous before MB | RSS after MB | on disk MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['n']} | {r['load_s']:.1f} | {r['optimize_s']:.1f} | "
              f"{r['n'] / (r['load_s'] + r['optimize_s']):.0f} | {r['peak_rss_mb']:.0f} | "
              f"{r['peak_anon_mb']:.0f} / {r['peak_file_mb']:.0f} | {r['anon_before_mb']:.0f} | "
              f"{r['rss_after_mb']:.0f} | {r['disk_mb']:.0f} |")
    print(flush=True)
    title = (f"hopgraph index, {date}; {cpu_model()}, {os.cpu_count()} cores; "
             f"load avg {start_load} at start, {end_load} at end")
    if args.plot:
        plot(rows, Path(args.plot), title)
        print(f"(plot: {args.plot})", file=sys.stderr)
    if args.json_out:
        saved = {"date": date, "machine": machine(), "title": title, "rows": rows}
        args.json_out.write_text(json.dumps(saved, indent=2))
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
