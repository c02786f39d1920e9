"""What the index benchmarks share: paths, percentiles, the machine line, peak RSS, the evaluation sets."""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from hopgraph.index.backend import Scope  # noqa: E402

SCOPE = Scope(("default",))
SETS = "scifact,hotpotqa_train100,musique_train100"


def default_data() -> Path:
    for cand in (Path("/work/shared/data"), REPO.parent / "shared" / "data"):
        if cand.exists():
            return cand
    return REPO.parent / "shared" / "data"


def one_size_args(description: str | None) -> argparse.ArgumentParser:
    """The options of a benchmark of one index size built from the scale benchmark's points."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--size", type=int, default=1_000_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "hopgraph" / "bench")
    ap.add_argument("--workdir", type=Path)
    return ap


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


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_avg() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def machine() -> str:
    return (f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"load avg (1/5/15 min) {load_avg()} at start")


def rss_mb() -> float:
    """Resident memory of this process now, in MB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_queries(folder: Path) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    """Queries that have judgements, and the judgements, of a BEIR-layout folder."""
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


def corpus_records(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(ln) for ln in (folder / "corpus.jsonl").read_text().splitlines() if ln.strip()]


def status_mb(*keys: str) -> dict[str, float]:
    """Fields of /proc/self/status (VmRSS, RssAnon, RssFile, ...) in MB."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key = line.split(":", 1)[0]
        if key in keys:
            out[key] = int(line.split()[1]) / 1024
    return out


class RssWatch:
    """Samples this process's resident memory (anonymous and file-backed) while a build runs.

    File-backed pages are the index's own files mapped in memory (the kernel can drop them); anonymous
    memory is what the process holds. Stops the run if anonymous memory passes ``limit_mb``, so a shared
    machine is never pushed into swap or the OOM killer.
    """

    def __init__(self, limit_mb: float) -> None:
        import threading

        self.limit_mb = limit_mb
        self.peak = {"RssAnon": 0.0, "RssFile": 0.0, "VmRSS": 0.0}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        import os

        while not self._stop.wait(0.25):
            now = status_mb(*self.peak)
            for k, v in now.items():
                self.peak[k] = max(self.peak[k], v)
            if now.get("RssAnon", 0.0) > self.limit_mb:
                print(f"stopped: anonymous RSS {now['RssAnon']:.0f} MB passed the limit of {self.limit_mb:.0f} MB",
                      file=sys.stderr, flush=True)
                os._exit(3)

    def __enter__(self) -> RssWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def print_ways(wall: dict[str, list[float]], baseline: str, against: str) -> None:
    """A markdown table of per-query times (ms) of ways measured side by side: p50, p95 and the median of each
    query's ratio to the ``baseline`` way's time (``against`` names it in the header)."""
    base = wall[baseline]
    print(f"| way | p50 ms | p95 ms | median ratio to {against} |")
    print("|---|---:|---:|---:|")
    for name, times in wall.items():
        ratio = statistics.median(a / b for a, b in zip(times, base, strict=True))
        print(f"| {name} | {pct(times, 50):.2f} | {pct(times, 95):.2f} | {ratio:.2f} |")


def taking_turns(ways: Sequence[tuple[str, Callable[[int], Any]]], count: int, rounds: int) -> dict[str, list[float]]:
    """Per-query wall times (ms) of each way over queries ``0 .. count - 1``, ``rounds`` times: the ways take
    turns query by query, in reverse order on every other query, so load and caches fall on all of them alike."""
    wall: dict[str, list[float]] = {name: [] for name, _ in ways}
    for _ in range(rounds):
        for j in range(count):
            for name, fn in ways if j % 2 else ways[::-1]:
                t0 = time.perf_counter()
                fn(j)
                wall[name].append((time.perf_counter() - t0) * 1000)
    return wall
