"""A real large ingest through the CLI: at least 200,000 passages, docs/s, peak memory, a projection to a million.

Builds one corpus.jsonl from the shared sets' corpora (SciFact, HotpotQA and MuSiQue passages) repeated
``--copies`` times, each copy marked in its ids (``-c3``) and titles (``(copy 3)``) so no two records share an
id, runs ``hopgraph ingest`` on it under a terminal of its own (the progress bar is drawn only on a terminal),
samples the resident memory of the whole process tree (the CLI and any embedding workers) every few seconds,
and prints: documents per second while counting and overall, peak memory, the index's size on disk, the
projected time for a million passages, and the bar's shown rate and time left against what then happened.

    PYTHONPATH=. python bench/ingest_200k.py --copies 25 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _common import default_data, machine
from ingest_progress import POINTS, redraws, run_under_terminal

SETS = ("scifact", "hotpotqa_train100", "musique_train100")


def write_corpus(data: Path, copies: int, out: Path) -> int:
    """The shared corpora repeated ``copies`` times with a marker per copy; the number of records written."""
    records = [json.loads(line) for name in SETS
               for line in (data / name / "corpus.jsonl").read_text().splitlines() if line.strip()]
    with out.open("w") as f:
        for c in range(1, copies + 1):
            for r in records:
                f.write(json.dumps({"_id": f"{r['_id']}-c{c}", "title": f"{r.get('title', '')} (copy {c})".strip(),
                                    "text": r.get("text", "")}) + "\n")
    return copies * len(records)


def tree_rss_mb(root: int) -> float:
    """Resident memory of every descendant of ``root`` (not ``root`` itself), in MB."""
    parents: dict[int, int] = {}
    rss: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            status = (entry / "status").read_text()
        except OSError:  # the process ended while we looked
            continue
        pid = int(entry.name)
        parents[pid] = int(stat.rsplit(")", 1)[1].split()[1])
        rss[pid] = next((int(ln.split()[1]) / 1024 for ln in status.splitlines() if ln.startswith("VmRSS:")), 0.0)
    total = 0.0
    for pid in rss:
        p = parents.get(pid, 0)
        while p and p != root:
            p = parents.get(p, 0)
        if p == root:
            total += rss[pid]
    return total


def sample_memory(every_s: float, stop: threading.Event, samples: list[tuple[float, float]]) -> None:
    t0 = time.monotonic()
    me = os.getpid()
    while not stop.wait(every_s):
        samples.append((time.monotonic() - t0, tree_rss_mb(me)))


def du_mb(path: Path) -> float:
    """Space the folder takes on disk (allocated blocks: the engine's files are sparse), in MB."""
    return sum(f.stat().st_blocks * 512 for f in path.rglob("*") if f.is_file()) / 2**20


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--copies", type=int, default=25, help="copies of the shared corpora (25: 201,675 passages)")
    ap.add_argument("--workers", default="", help="HOPGRAPH_EMBED_WORKERS for the run (default: as set, else 1)")
    ap.add_argument("--doc-precision", default="auto", choices=("auto", "int8", "float"))
    ap.add_argument("--workdir", type=Path, help="where the corpus and index go (default: a temporary folder)")
    ap.add_argument("--every", type=float, default=5.0, help="seconds between memory samples")
    args = ap.parse_args()
    hopgraph = shutil.which("hopgraph")
    if hopgraph is None:
        sys.exit("hopgraph is not on PATH: install the package (pip install -e .)")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="hopgraph-200k-", dir=args.workdir) as tmp:
        corpus, index = Path(tmp) / "corpus.jsonl", Path(tmp) / "index"
        n = write_corpus(args.data, args.copies, corpus)
        print(f"{n} passages ({args.copies} copies of {', '.join(SETS)}), {corpus.stat().st_size / 2**20:.0f} MB",
              flush=True)
        env = {**os.environ, "LANGSMITH_TRACING": "false", "TERM": "xterm"}
        if args.workers:
            env["HOPGRAPH_EMBED_WORKERS"] = args.workers
        samples: list[tuple[float, float]] = []
        stop = threading.Event()
        sampler = threading.Thread(target=sample_memory, args=(args.every, stop, samples), daemon=True)
        sampler.start()
        try:
            chunks, total_s, code = run_under_terminal(
                [hopgraph, "ingest", str(corpus), "--index", str(index), "--doc-precision", args.doc_precision,
                 "--json"], env)
        finally:
            stop.set()
            sampler.join()
        size = du_mb(index) if index.exists() else float("nan")
        meta = json.loads((index / "hopgraph.json").read_text()) if (index / "hopgraph.json").exists() else {}
        # The index holds what was sent: the CLI's own count of documents.
        listed = subprocess.run([hopgraph, "list", "--index", str(index), "--json"], capture_output=True, text=True,
                                env=env)
    bars = redraws(chunks)
    if code != 0 or not bars:
        print(f"hopgraph ingest exited {code} after {total_s:.1f} s with {len(bars)} bar redraws", file=sys.stderr)
        print("".join(t for _, t in chunks)[-2000:], file=sys.stderr)
        return 1
    full = next((b for b in bars if b[1] >= b[2]), bars[-1])
    count_s = full[0]
    half = next(b for b in bars if b[1] >= b[2] / 2)
    first_rate, second_rate = half[1] / half[0], (full[1] - half[1]) / (count_s - half[0])
    peak = max((mb for _, mb in samples), default=float("nan"))
    try:
        stored = sum(json.loads(listed.stdout)["containers"].values())
    except (json.JSONDecodeError, KeyError, AttributeError):
        stored = -1
    rate = n / total_s
    print(f"exit {code}; doc precision in the index: {meta.get('doc_precision', '?')}; "
          f"workers: {env.get('HOPGRAPH_EMBED_WORKERS', '1 (default)')}; documents listed after: {stored}\n")
    print("| measure | value |")
    print("|---|---:|")
    for label, value in [
        ("passages", f"{n:,}"),
        ("time counting documents (s)", f"{count_s:.0f}"),
        ("time after the count: search graph, flush, report (s)", f"{total_s - count_s:.0f}"),
        ("total wall time (s)", f"{total_s:.0f}"),
        ("docs/s while counting", f"{n / count_s:.1f}"),
        ("docs/s while counting, first half / second half", f"{first_rate:.1f} / {second_rate:.1f}"),
        ("docs/s overall", f"{rate:.1f}"),
        ("peak resident memory of the process tree (MB)", f"{peak:.0f}"),
        ("median resident memory of the process tree (MB)",
         f"{statistics.median(mb for _, mb in samples):.0f}" if samples else "nan"),
        ("index on disk (MB)", f"{size:.0f}"),
        ("projected time for 1,000,000 passages at the overall rate (h)", f"{1_000_000 / rate / 3600:.1f}"),
    ]:
        print(f"| {label} | {value} |")
    print("\n| at | docs done | time left shown (s) | time the count then took (s) | rate shown (docs/s) | "
          "mean rate so far (docs/s) | mean rate of the rest (docs/s) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for p in POINTS:
        at, done, total, left, shown = next(b for b in bars if b[1] >= p * b[2])
        actual = count_s - at
        rest = (total - done) / actual if actual > 0 else float("nan")
        print(f"| {p:.0%} | {done} | {left} | {actual:.0f} | {shown:.1f} | {done / at:.1f} | {rest:.1f} |")
    print("\nmemory over time (s, MB): " + ", ".join(f"{t:.0f}:{mb:.0f}" for t, mb in samples[:: max(1, len(samples)
                                                                                                         // 24)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
