"""Search latency on synthetic chunks (engine and end to end), the scope filter, exact against HNSW,
and the query embedding alone on real questions.

    PYTHONPATH=. python bench/index_search.py --sizes 10000,100000

Synthetic data is seeded (clustered random vectors, Zipf-distributed words), so runs repeat up to machine noise.
Index cost against size on data shaped like real documents: bench/index_scale.py.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from _common import SCOPE, SETS, default_data, load_queries, machine, pct

from hopgraph.index.backend import Chunk, Scope, make_chunk_id
from hopgraph.index.common import bm25_document, bm25_query
from hopgraph.index.edge import DEFAULT_EXACT_THRESHOLD, EdgeBackend
from hopgraph.index.embed import MiniLMEmbedder, get_embedder, query_precision, resolve_precision
from hopgraph.index.hnsw import HNSW_EF_CONSTRUCT, HNSW_M


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



def print_search(rows: list[dict[str, Any]], queries: int, threshold: int, precision: str) -> None:
    print(f"## Search latency (ms, {queries} queries, limit 10, exact below {threshold} points)\n")
    print("Wall p50 / p95, and [CPU p50] of the calling thread (engine) or process (end to end): "
          "CPU time does not count waiting for cores other processes hold.\n")
    print("| points | dense index | engine hybrid | engine text | engine dense | "
          "end-to-end hybrid, int8 queries | end-to-end hybrid, float queries | end-to-end text | "
          f"end-to-end dense ({precision} queries) |")
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
    print(f"\n## Dense: exact vs HNSW (m={HNSW_M}, ef_construct={HNSW_EF_CONSTRUCT}; the backend uses hnsw_ef=128 "
          "over int8 vector copies, twice the candidates rescored)\n")
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


def print_query_embedding(qe: dict[str, Any]) -> None:
    print(f"\n## Query embedding alone ({qe['queries']} real questions, median {qe['tokens_p50']:.0f} tokens)\n")
    print("Taking turns question by question; ratios are medians of per-question ratios to the shipped graph.\n")
    print("| model | p50 / p95 ms | time / shipped graph |")
    print("|---|---:|---:|")
    for name, label in (("int8", "int8 copy of the fused graph (int8 queries)"),
                        ("float", "fused graph (documents, float queries)"), ("shipped", "shipped graph, float")):
        print(f"| {label} | {qe[name + '_p50']:.2f} / {qe[name + '_p95']:.2f} | {qe[name + '_ratio']:.2f} |")
    print(f"\nCosine of int8 query vectors to the shipped graph's: min {qe['cosine_min']:.4f}, "
          f"median {qe['cosine_p50']:.4f}")
    print(flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sizes", default="10000,100000", help="synthetic index sizes")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--threshold", type=int, default=DEFAULT_EXACT_THRESHOLD, help="exact/HNSW switch")
    ap.add_argument("--sets", default=SETS, help="sets whose questions time the query embedding")
    args = ap.parse_args()
    precision = resolve_precision(query_precision())
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}; queries embedded in {precision} "
          "by default on this CPU\n", flush=True)
    with tempfile.TemporaryDirectory(prefix="hopgraph-search-") as tmp:
        rows = [bench_search(int(n), args.queries, Path(tmp), args.threshold) for n in args.sizes.split(",") if n]
    print_search(rows, args.queries, args.threshold, precision)
    print_query_embedding(bench_query_embedding(args.data, [s for s in args.sets.split(",") if s]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
