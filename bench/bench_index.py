"""Index benchmark: ingest throughput, search latency, HNSW recall, single-shot quality.

    PYTHONPATH=. python bench/bench_index.py                      # everything, default sizes
    PYTHONPATH=. python bench/bench_index.py --sizes 10000 --skip-quality --skip-ingest

Prints markdown tables (the source of docs/benchmarks-index.md). Synthetic data is
seeded, so runs are repeatable up to machine noise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hopgraph.index.backend import Chunk, Scope, make_chunk_id  # noqa: E402
from hopgraph.index.common import bm25_document, bm25_query, embed_text  # noqa: E402
from hopgraph.index.edge import EdgeBackend, int8_vectors  # noqa: E402
from hopgraph.index.embed import MiniLMEmbedder, get_embedder, query_precision, resolve_precision  # noqa: E402
from hopgraph.index.ingest import ingest_beir  # noqa: E402

SCOPE = Scope(("default",))


def default_data() -> Path:
    for cand in (Path("/work/shared/data"), REPO.parent / "shared" / "data"):
        if cand.exists():
            return cand
    return REPO.parent / "shared" / "data"


def pct(xs: Sequence[float], p: float) -> float:
    s = sorted(xs)
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]


def timed(fn: Callable[[], Any], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load avg {load:.1f} at start"


# --- 1. ingest throughput -----------------------------------------------------------------------


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


# --- 2. search latency and HNSW recall -------------------------------------------------------------


def synthetic(n: int, dim: int, rng: np.random.Generator, vocab: list[str]) -> tuple[list[Chunk], np.ndarray]:
    # Clustered vectors (like real embeddings), Zipf-distributed words for BM25.
    centers = rng.standard_normal((max(n // 100, 10), dim)).astype(np.float32)
    assign = rng.integers(0, len(centers), n)
    vecs = centers[assign] + 0.6 * rng.standard_normal((n, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ranks = rng.zipf(1.2, size=(n, 40)) % len(vocab)
    chunks = [
        Chunk(chunk_id=make_chunk_id("default", f"s{i}", 0), doc_id=f"s{i}", index=0, title=f"synthetic {i}",
              text=" ".join(vocab[r] for r in ranks[i]), container="default", content_hash="h")
        for i in range(n)
    ]
    return chunks, vecs


def bench_search(n: int, queries: int, workdir: Path, threshold: int, seed: int = 7) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    random.seed(seed)
    emb = get_embedder("minilm")
    vocab = [f"term{i}" for i in range(20000)]
    import shutil

    shutil.rmtree(workdir / f"syn{n}", ignore_errors=True)
    backend = EdgeBackend(workdir / f"syn{n}", embedder=emb, exact_threshold=threshold)
    chunks, vecs = synthetic(n, emb.dim, rng, vocab)
    t = time.perf_counter()
    for i in range(0, n, 1000):
        part = chunks[i : i + 1000]
        backend.upsert_vectors(part, vecs[i : i + 1000], [bm25_document(c.text) for c in part])
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    backend.optimize()
    optimize_s = time.perf_counter() - t
    # Queries: a perturbed stored vector and three words from a stored text.
    qidx = rng.integers(0, n, queries)
    qvecs = vecs[qidx] + 0.3 * rng.standard_normal((queries, emb.dim)).astype(np.float32)
    qvecs /= np.linalg.norm(qvecs, axis=1, keepdims=True)
    qtexts = [" ".join(random.sample(chunks[i].text.split(), 3)) for i in qidx]
    qsparse = [bm25_query(t) for t in qtexts]

    cpu_ms: dict[str, list[float]] = {}

    def run(kind: str, switch: int) -> tuple[list[float], list[list[str]]]:
        backend.exact_threshold = switch
        lat: list[float] = []
        cpu: list[float] = cpu_ms.setdefault(kind, [])
        cpu.clear()
        ids: list[list[str]] = []
        for j in range(queries):
            c0 = time.thread_time()
            t0 = time.perf_counter()
            if kind == "dense":
                hits = backend.dense_vector_search(qvecs[j], SCOPE, 10)
            elif kind == "text":
                hits = backend.sparse_vector_search(qsparse[j], SCOPE, 10)
            else:
                hits = backend.hybrid_vector_search(qvecs[j], qsparse[j], SCOPE, 10)
            lat.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
            ids.append([h.chunk.chunk_id for h in hits])
        return lat, ids

    out: dict[str, Any] = {"n": n, "load_s": load_s, "optimize_s": optimize_s,
                           "mode": "exact" if n < threshold else "HNSW"}
    for kind in ("hybrid", "text", "dense"):
        run(kind, threshold)  # warm up
        lat, _ = run(kind, threshold)
        out[f"{kind}_p50"] = pct(lat, 50)
        out[f"{kind}_p95"] = pct(lat, 95)
        out[f"{kind}_cpu_p50"] = pct(cpu_ms[kind], 50)
    # The scope's filter, checked on every point a query visits, against the default here: one container,
    # so the backend leaves out a filter that would match every point. Interleaved query by query.
    checked: dict[str, list[float]] = {"skipped": [], "checked": []}
    for j in range(queries):
        for name in ("skipped", "checked") if j % 2 else ("checked", "skipped"):
            if name == "checked":
                backend.__dict__["_scope_filter"] = backend._filter
            t0 = time.perf_counter()
            backend.hybrid_vector_search(qvecs[j], qsparse[j], SCOPE, 10)
            checked[name].append((time.perf_counter() - t0) * 1000)
            backend.__dict__.pop("_scope_filter", None)
    out["hybrid_checked_p50"] = pct(checked["checked"], 50)
    out["hybrid_checked_p95"] = pct(checked["checked"], 95)
    out["hybrid_skipped_p50"] = pct(checked["skipped"], 50)
    out["filter_ratio"] = statistics.median(
        a / b for a, b in zip(checked["skipped"], checked["checked"], strict=True))
    # Dense both ways at this size (HNSW forced even below the threshold, to show the trade-off),
    # and recall@10 of HNSW against brute force.
    lat_exact, exact_ids = run("dense", 10**12)
    out["exact_dense_cpu_p50"] = pct(cpu_ms["dense"], 50)
    lat_hnsw, hnsw_ids = run("dense", 0)
    out["hnsw_dense_cpu_p50"] = pct(cpu_ms["dense"], 50)
    out["exact_dense_p50"] = pct(lat_exact, 50)
    out["exact_dense_p95"] = pct(lat_exact, 95)
    out["hnsw_dense_p50"] = pct(lat_hnsw, 50)
    out["hnsw_dense_p95"] = pct(lat_hnsw, 95)
    out["hnsw_recall10"] = statistics.mean(
        len(set(a) & set(b)) / max(len(b), 1) for a, b in zip(hnsw_ids, exact_ids, strict=True)
    )
    default_ef = backend.hnsw_ef
    for ef in (64, 256):
        backend.hnsw_ef = ef
        lat_ef, ids_ef = run("dense", 0)
        out[f"hnsw_ef{ef}_p50"] = pct(lat_ef, 50)
        out[f"hnsw_ef{ef}_recall10"] = statistics.mean(
            len(set(a) & set(b)) / max(len(b), 1) for a, b in zip(ids_ef, exact_ids, strict=True)
        )
    backend.hnsw_ef = default_ef
    backend.exact_threshold = threshold
    # End to end: the query text is embedded by MiniLM inside search(). The kinds take turns query by
    # query (in rotating order), so load from other processes falls on all of them alike. Hybrid runs
    # with both query precisions; text and dense with the default one.
    texts = [f"{qtexts[j]} what about {qtexts[(j + 1) % queries]}" for j in range(queries)]
    int8_queries = MiniLMEmbedder(precision="int8")
    float_queries = MiniLMEmbedder(precision="float")
    kinds: list[tuple[str, Callable[[str, Scope, int], Any], Any]] = [
        ("hybrid_int8", backend.search, int8_queries), ("hybrid_float", backend.search, float_queries),
        ("text", backend.text_search, emb), ("dense", backend.dense_search, emb),
    ]
    lat_by: dict[str, list[float]] = {kind: [] for kind, _, _ in kinds}
    cpu_by: dict[str, list[float]] = {kind: [] for kind, _, _ in kinds}
    for _, fn, embedder in kinds:  # the first query loads the query model
        backend.embedder = embedder
        fn(texts[-1], SCOPE, 10)
    for j in range(queries):
        for kind, fn, embedder in kinds[j % len(kinds):] + kinds[: j % len(kinds)]:
            backend.embedder = embedder
            embedder.__dict__.get("_query_cache", {}).clear()  # measure real query embedding, not the cache
            c0 = time.process_time()  # the query embedding may run on onnxruntime's own threads
            t0 = time.perf_counter()
            fn(texts[j], SCOPE, 10)
            lat_by[kind].append((time.perf_counter() - t0) * 1000)
            cpu_by[kind].append((time.process_time() - c0) * 1000)
    for kind in lat_by:
        out[f"e2e_{kind}_p50"] = pct(lat_by[kind], 50)
        out[f"e2e_{kind}_p95"] = pct(lat_by[kind], 95)
        out[f"e2e_{kind}_cpu_p50"] = pct(cpu_by[kind], 50)
    out["e2e_int8_float_ratio"] = statistics.median(
        a / b for a, b in zip(lat_by["hybrid_int8"], lat_by["hybrid_float"], strict=True))
    backend.embedder = emb
    backend.close()
    return out


def bench_query_embedding(data: Path, sets: Sequence[str], per_set: int = 100) -> dict[str, Any]:
    """The query embedding alone on real questions: the int8 query model, the fused float graph, the shipped graph.

    The three take turns question by question, so machine load falls on all alike.
    """
    texts = []
    for name in sets:
        queries, _ = load_queries(data / name)
        texts.extend(list(queries.values())[:per_set])
    models = {"int8": MiniLMEmbedder(precision="int8"), "float": MiniLMEmbedder(precision="float"),
              "shipped": MiniLMEmbedder(precision="float", graph="shipped")}
    tokens = [len(models["float"]._tok.encode(t).ids) for t in texts]
    for t in texts[:20]:  # warm up all
        for model in models.values():
            model._embed_query_uncached(t)
    lat: dict[str, list[float]] = {name: [] for name in models}
    agreement = []
    order = list(models.items())
    for j, t in enumerate(texts):
        vecs = {}
        for name, model in order[j % 3:] + order[: j % 3]:
            t0 = time.perf_counter()
            vecs[name] = model._embed_query_uncached(t)
            lat[name].append((time.perf_counter() - t0) * 1000)
        agreement.append(float(vecs["int8"] @ vecs["shipped"]))
    out: dict[str, Any] = {"queries": len(texts), "tokens_p50": pct([float(n) for n in tokens], 50),
                           "cosine_min": min(agreement), "cosine_p50": pct(agreement, 50)}
    for name in models:
        out[f"{name}_p50"], out[f"{name}_p95"] = pct(lat[name], 50), pct(lat[name], 95)
        out[f"{name}_ratio"] = statistics.median(a / b for a, b in zip(lat[name], lat["shipped"], strict=True))
    return out


# --- 3. single-shot quality ---------------------------------------------------------------------


def load_queries(folder: Path) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    queries = {}
    for line in (folder / "queries.jsonl").read_text().splitlines():
        if line.strip():
            rec = json.loads(line)
            queries[str(rec["_id"])] = rec["text"]
    qrels: dict[str, dict[str, int]] = {}
    for i, line in enumerate((folder / "qrels.tsv").read_text().splitlines()):
        parts = line.split("\t")
        if i == 0 or len(parts) < 3:
            continue
        qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    return {q: t for q, t in queries.items() if q in qrels}, qrels


def bench_quality(
    data: Path, workdir: Path, sets: Sequence[str], ready: dict[str, EdgeBackend]
) -> list[dict[str, Any]]:
    import pytrec_eval

    rows = []
    int8_queries = MiniLMEmbedder(precision="int8")
    float_queries = MiniLMEmbedder(precision="float")
    for name in sets:
        folder = data / name
        backend = ready.get(name) or EdgeBackend(workdir / name, embedder=get_embedder("minilm"))
        ready[name] = backend
        ingest_beir(backend, folder / "corpus.jsonl", progress=False)  # unchanged docs are skipped
        queries, qrels = load_queries(folder)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.5", "recall.2"})
        default = backend.embedder
        modes = [
            ("BM25", backend.text_search, default),
            ("dense, float queries", backend.dense_search, float_queries),
            ("hybrid, float queries", backend.search, float_queries),
            ("dense, int8 queries", backend.dense_search, int8_queries),
            ("hybrid, int8 queries", backend.search, int8_queries),
        ]
        for mode, fn, query_embedder in modes:
            # Same index, same document vectors: only the model that embeds the query changes.
            backend.embedder = query_embedder
            run: dict[str, dict[str, float]] = {}
            for qid, text in queries.items():
                # Plain query text: quotes or dashes in a claim are not operators here.
                q = text.replace('"', " ") if mode == "BM25" else text
                if mode == "BM25":
                    q = " ".join(w for w in q.split() if not w.startswith("-"))
                hits = fn(q, SCOPE, 100)
                run[qid] = {}
                for rank, h in enumerate(hits):
                    run[qid].setdefault(h.doc_id, float(len(hits) - rank))
            backend.embedder = default
            res = evaluator.evaluate(run)
            rows.append({
                "set": name, "mode": mode, "queries": len(queries),
                "ndcg10": statistics.mean(r["ndcg_cut_10"] for r in res.values()),
                "r2": statistics.mean(r["recall_2"] for r in res.values()),
                "r5": statistics.mean(r["recall_5"] for r in res.values()),
            })
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


# --- main ------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sizes", default="10000,100000", help="synthetic index sizes for latency")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--threshold", type=int, default=None, help="exact/HNSW switch (default: EdgeBackend's)")
    ap.add_argument("--ingest-docs", type=int, default=1500, help="SciFact docs for the throughput comparison")
    ap.add_argument("--sets", default="scifact,hotpotqa_train100,musique_train100")
    ap.add_argument("--skip-ingest", action="store_true")
    ap.add_argument("--skip-search", action="store_true")
    ap.add_argument("--skip-quality", action="store_true")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--workdir", type=Path)
    args = ap.parse_args()
    from hopgraph.index.edge import DEFAULT_EXACT_THRESHOLD

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
        print("## Ingest (SciFact corpus, minilm)\n")
        print("| docs | chunks | pipeline chunks/s | embedder alone chunks/s | overhead (wall) | overhead (CPU) | "
              "CPU ms/chunk pipeline / embedder | embedder on the shipped graph chunks/s | time fused / shipped |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        print(f"| {ing['docs']} | {ing['chunks']} | {ing['pipeline_cps']:.1f} | {ing['embed_cps']:.1f} | "
              f"{ing['overhead_pct']:+.1f}% | {ing['cpu_overhead_pct']:+.1f}% | "
              f"{ing['pipeline_cpu_ms_per_chunk']:.1f} / {ing['embed_cpu_ms_per_chunk']:.1f} | "
              f"{ing['shipped_cps']:.1f} | {ing['fused_shipped_ratio']:.2f} |\n", flush=True)
    if not args.skip_search:
        rows = []
        for n in [int(x) for x in args.sizes.split(",") if x]:
            rows.append(bench_search(n, args.queries, workdir, threshold))
            print(f"(search at {n} done)", file=sys.stderr, flush=True)
        results["search"] = rows
        print(f"## Search latency (ms, {args.queries} queries, limit 10, exact below {threshold} points)\n")
        print("Wall p50 / p95, and [CPU p50] of the calling thread (engine) or process (end to end): "
              "CPU time does not count waiting for cores other processes hold.\n")
        print("| points | dense index | engine hybrid | engine text | engine dense | "
              "end-to-end hybrid, int8 queries | end-to-end hybrid, float queries | end-to-end text | "
              f"end-to-end dense ({results['query_precision']} queries) |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            cells = [f"{r[k + '_p50']:.2f} / {r[k + '_p95']:.2f} [{r[k + '_cpu_p50']:.2f}]"
                     for k in ("hybrid", "text", "dense", "e2e_hybrid_int8", "e2e_hybrid_float", "e2e_text",
                               "e2e_dense")]
            print(f"| {r['n']} | {r['mode']} | " + " | ".join(cells) + " |")
        for r in rows:
            print(f"\nAt {r['n']} points, end-to-end hybrid int8 / float queries, median of per-query ratios: "
                  f"{r['e2e_int8_float_ratio']:.2f}")
        print("\nEngine hybrid with the scope filter checked on every point (as when the index holds other "
              "containers) against the default here (one container: no filter needed), interleaved:\n")
        print("| points | filter checked p50 / p95 | filter left out p50 | median ratio left out / checked |")
        print("|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['n']} | {r['hybrid_checked_p50']:.2f} / {r['hybrid_checked_p95']:.2f} | "
                  f"{r['hybrid_skipped_p50']:.2f} | {r['filter_ratio']:.2f} |")
        sets = [x for x in args.sets.split(",") if x]
        qe = bench_query_embedding(args.data, sets)
        results["query_embedding"] = qe
        print(f"\n## Query embedding alone ({qe['queries']} real questions, median {qe['tokens_p50']:.0f} tokens)\n")
        print("Taking turns question by question; ratios are medians of per-question ratios to the shipped graph.\n")
        print("| model | p50 / p95 ms | time / shipped graph |")
        print("|---|---:|---:|")
        for name, label in (("int8", "int8 copy of the fused graph (int8 queries)"),
                            ("float", "fused graph (documents, float queries)"), ("shipped", "shipped graph, float")):
            print(f"| {label} | {qe[name + '_p50']:.2f} / {qe[name + '_p95']:.2f} | {qe[name + '_ratio']:.2f} |")
        print(f"\nCosine of int8 query vectors to the shipped graph's: min {qe['cosine_min']:.4f}, "
              f"median {qe['cosine_p50']:.4f}")
        print("\n## Dense: exact vs HNSW (m=16, ef_construct=100; the backend uses hnsw_ef=128 over int8 vector "
              "copies, twice the candidates rescored)\n")
        print("| points | exact p50/p95 ms | HNSW ef128 p50/p95 ms | recall@10 ef64 / ef128 / ef256 | "
              "ef64 / ef256 p50 ms | bulk load s | optimize s |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['n']} | {r['exact_dense_p50']:.2f} / {r['exact_dense_p95']:.2f} "
                  f"[{r['exact_dense_cpu_p50']:.2f}] | {r['hnsw_dense_p50']:.2f} / {r['hnsw_dense_p95']:.2f} "
                  f"[{r['hnsw_dense_cpu_p50']:.2f}] | {r['hnsw_ef64_recall10']:.3f} / "
                  f"{r['hnsw_recall10']:.3f} / {r['hnsw_ef256_recall10']:.3f} | {r['hnsw_ef64_p50']:.2f} / "
                  f"{r['hnsw_ef256_p50']:.2f} | {r['load_s']:.1f} | {r['optimize_s']:.1f} |")
        print(flush=True)
    if not args.skip_quality:
        sets = [s for s in args.sets.split(",") if s]
        rows = bench_quality(args.data, workdir, sets, ready)
        results["quality"] = rows
        print("## Single-shot quality (one query, no agent loop; BEIR docs as whole chunks)\n")
        print("| set | queries | mode | nDCG@10 | R@2 | R@5 |")
        print("|---|---:|---|---:|---:|---:|")
        for r in rows:
            print(f"| {r['set']} | {r['queries']} | {r['mode']} | {r['ndcg10']:.3f} | {r['r2']:.3f} | {r['r5']:.3f} |")
        print(flush=True)
        real = bench_real_recall({k: v for k, v in ready.items() if k in sets}, args.data, workdir)
        results["real_recall"] = real
        print(f"## HNSW on real vectors ({real['points']} MiniLM document vectors of the sets above, "
              f"{real['queries']} real queries; HNSW forced)\n")
        print("| exact CPU p50 ms | recall@10 ef64 / ef128 / ef256 | HNSW CPU p50 ms ef64 / ef128 / ef256 | "
              "int8 vectors, ef128, rescored x1 / x2: recall@10 | CPU p50 ms |")
        print("|---:|---:|---:|---:|---:|")
        print(f"| {real['exact_cpu_p50']:.2f} | {real['ef64_recall10']:.3f} / {real['ef128_recall10']:.3f} / "
              f"{real['ef256_recall10']:.3f} | {real['ef64_cpu_p50']:.2f} / {real['ef128_cpu_p50']:.2f} / "
              f"{real['ef256_cpu_p50']:.2f} | {real['int8_x1_recall10']:.3f} / {real['int8_x2_recall10']:.3f} | "
              f"{real['int8_x1_cpu_p50']:.2f} / {real['int8_x2_cpu_p50']:.2f} |\n", flush=True)
    for b in ready.values():
        b.close()
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2))
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
