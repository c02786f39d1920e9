"""The built-in policy's time with and without its kept replays (``hopgraph.policies.ids.replays``).

Each question of a set runs through the graph twice, once with the planner continuing its kept replays and once
replaying every transcript from the start; the two take turns question by question (which goes first
alternates), on the evaluation index ``hopgraph eval`` builds and caches. The query-embedding cache is emptied
before every run, so neither way reuses the other's vectors.

    PYTHONPATH=. python bench/policy_replay.py [--sets hotpotqa_train100,musique_train100] [--limit 100]

Prints a table: wall and CPU ms p50 / p95 per question both ways, the median of the per-question ratios, and
how many questions reported the same ids both ways (all of them, or the kept replays changed a result).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from hopgraph.config import Context
from hopgraph.evals.data import load_beir
from hopgraph.evals.index import EVAL_CONTAINER, open_eval_index
from hopgraph.evals.runner import forget_queries, graph_run
from hopgraph.policies.ids.replays import KEPT_REPLAYS, REPLAYS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import default_data, pct  # noqa: E402


def run_set(data_dir: Path, limit: int) -> dict[str, object]:
    data = load_beir(data_dir, None)
    backend, _ = open_eval_index(data.corpus_path, data.name, progress=False)
    context = Context(model="builtin", backend=backend, containers=[EVAL_CONTAINER], mode="ids")
    questions = data.queries[:limit]
    graph_run(questions[0][1], context)  # warm the model, the index and the compiled graph
    wall: dict[str, list[float]] = {"kept": [], "fresh": []}
    cpu: dict[str, list[float]] = {"kept": [], "fresh": []}
    reports: dict[str, list[list[str]]] = {"kept": [], "fresh": []}
    for i, (_, text) in enumerate(questions):
        for way in (("kept", "fresh") if i % 2 == 0 else ("fresh", "kept")):
            REPLAYS.clear()
            REPLAYS.size = KEPT_REPLAYS if way == "kept" else 0
            forget_queries(backend)
            started = time.process_time()
            record = graph_run(text, context)
            cpu[way].append((time.process_time() - started) * 1000)
            wall[way].append(record.ms)
            reports[way].append(record.ranked)
    REPLAYS.size = KEPT_REPLAYS
    backend.close()
    return {
        "set": data.name, "questions": len(questions), "wall": wall, "cpu": cpu,
        "ratio": statistics.median(k / f for k, f in zip(wall["kept"], wall["fresh"], strict=True)),
        "same": sum(k == f for k, f in zip(reports["kept"], reports["fresh"], strict=True)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=default_data())
    parser.add_argument("--sets", default="hotpotqa_train100,musique_train100")
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    rows = [run_set(args.data / name, args.limit) for name in args.sets.split(",")]
    print("| set | questions | kept replays p50 / p95 ms [CPU p50] | from the start p50 / p95 ms [CPU p50] "
          "| median ratio kept / from the start | same report |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        wall, cpu = r["wall"], r["cpu"]
        assert isinstance(wall, dict) and isinstance(cpu, dict)
        cells = [f"{pct(wall[w], 50):.1f} / {pct(wall[w], 95):.1f} [{pct(cpu[w], 50):.1f}]" for w in ("kept", "fresh")]
        print(f"| {r['set']} | {r['questions']} | {cells[0]} | {cells[1]} | {r['ratio']:.2f} "
              f"| {r['same']} / {r['questions']} |")


if __name__ == "__main__":
    main()
