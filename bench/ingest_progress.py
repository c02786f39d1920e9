"""Does `hopgraph ingest`'s progress bar tell the truth? Its rate and time left, against what then happens.

Runs the CLI on a corpus.jsonl under a terminal of its own (the bar is drawn only on a terminal), records every
redraw with the wall time it arrived, and prints, at a few points of the count, the time left the bar showed
beside the time the count then took, and the rate it showed beside the mean rate of the rest of the run. The time
after the count is full (the search graph being built) is printed apart: the bar says it is building, not when
it will be done.

    PYTHONPATH=. python bench/ingest_progress.py --corpus ../shared/data/scifact/corpus.jsonl --docs 2000
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

from _common import default_data, machine

# tqdm's line: "  12%|###       | 240/2000 [00:17<02:05, 14.1doc/s, chunks=240]"
BAR = re.compile(r"(\d+)/(\d+) \[(?:(\d+):)?(\d+):(\d+)<(?:(\d+):)?(\d+):(\d+), *([\d.]+)(s/doc|doc/s)")
POINTS = (0.05, 0.1, 0.25, 0.5, 0.75, 0.9)


def _seconds(h: str | None, m: str, s: str) -> int:
    return int(h or 0) * 3600 + int(m) * 60 + int(s)


def run_under_terminal(cmd: list[str], env: dict[str, str]) -> tuple[list[tuple[float, str]], float, int]:
    """Every chunk of terminal output with its arrival time (seconds from the start), the total time, the exit code."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))  # a terminal 160 columns wide
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    chunks: list[tuple[float, str]] = []
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the terminal closes with the process
                break
            if not data:
                break
            chunks.append((time.monotonic() - t0, data.decode(errors="replace")))
        elif proc.poll() is not None:
            break
    code = proc.wait()
    os.close(master)
    return chunks, time.monotonic() - t0, code


def redraws(chunks: list[tuple[float, str]]) -> list[tuple[float, int, int, int, float]]:
    """(arrival, done, total, time left shown, rate shown in docs/s) for each redraw of the document bar."""
    out = []
    for at, text in chunks:
        for piece in re.split(r"[\r\n]", text):
            m = BAR.search(piece)
            if not m:
                continue
            done, total = int(m.group(1)), int(m.group(2))
            left = _seconds(m.group(6), m.group(7), m.group(8))
            rate = float(m.group(9))
            out.append((at, done, total, left, rate if m.group(10) == "doc/s" else 1 / rate))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=default_data() / "scifact" / "corpus.jsonl")
    ap.add_argument("--docs", type=int, default=2000, help="the corpus's first N records")
    ap.add_argument("--index", type=Path, help="index folder (default: a fresh temporary one)")
    args = ap.parse_args()
    hopgraph = shutil.which("hopgraph")
    if hopgraph is None:
        sys.exit("hopgraph is not on PATH: install the package (pip install -e .)")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="hopgraph-progress-") as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        with args.corpus.open() as src, corpus.open("w") as dst:
            for n, line in enumerate(src):
                if n >= args.docs:
                    break
                dst.write(line)
        index = args.index or Path(tmp) / "index"
        env = {**os.environ, "LANGSMITH_TRACING": "false", "TERM": "xterm"}
        chunks, total_s, code = run_under_terminal([hopgraph, "ingest", str(corpus), "--index", str(index),
                                                    "--json"], env)
    bars = redraws(chunks)
    if code != 0 or not bars:
        print(f"hopgraph ingest exited {code} after {total_s:.1f} s with {len(bars)} bar redraws", file=sys.stderr)
        return 1
    full = next((b for b in bars if b[1] >= b[2]), bars[-1])
    count_end = full[0]
    print(f"{full[2]} records of {args.corpus}; counted in {count_end:.1f} s, then {total_s - count_end:.1f} s until "
          f"the command returned (search graph, flush, report); {len(bars)} redraws\n")
    print("| at | docs done | time left shown (s) | time the count then took (s) | rate shown (docs/s) | "
          "mean rate of the rest (docs/s) |")
    print("|---:|---:|---:|---:|---:|---:|")
    rows = []
    for p in POINTS:
        at, done, total, left, rate = next(b for b in bars if b[1] >= p * b[2])
        actual = count_end - at
        rest = (total - done) / actual if actual > 0 else float("nan")
        rows.append({"at": p, "done": done, "left_shown": left, "left_actual": actual, "rate_shown": rate,
                     "rate_rest": rest})
        print(f"| {p:.0%} | {done} | {left} | {actual:.0f} | {rate:.1f} | {rest:.1f} |")
    print("\n" + json.dumps({"docs": full[2], "count_s": count_end, "total_s": total_s, "points": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
