"""Load on `langgraph dev` (loopback only) with the builtin model.

N concurrent conversation threads each ask Q questions in sequence. Checks: zero errors, and
every thread's stored state holds exactly its own questions, in order. Prints throughput and
run latency (p50/p95/max).

    PYTHONPATH=. /work/venv/bin/python stress/load_dev.py --threads 50 --questions 5

The default test run uses a small version (tests/test_reliability_load.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.support.dev_server import dev_server, server_env  # noqa: E402

CORPUS = {
    "alpha": ("Project Alpha", "Project Alpha was delivered late by the supplier Norvik because of a shipping delay."),
    "norvik": ("Norvik profile", "Norvik is a steel supplier based in Bergen, founded in 1972 by Ola Brekke."),
    "bergen": ("Bergen", "Bergen is a city on the west coast of Norway with a large harbour."),
    "gamma": ("Canteen menu", "The canteen serves soup on Mondays and fish on Fridays."),
    "globex": ("Globex contract", "Globex supplies copper wire to Project Beta under a renewal clause."),
    "beta": ("Project Beta", "Project Beta was finished early; its copper came from Globex."),
    "audit": ("Audit 2023", "The 2023 audit found late invoices from Norvik and none from Globex."),
    "brekke": ("Ola Brekke", "Ola Brekke was an engineer from Oslo who founded Norvik."),
}
QUESTIONS = [
    "Which supplier delivered Project Alpha late?",
    "Where is that supplier based?",
    "Who supplies copper wire?",
    "What did the 2023 audit find?",
    "Who founded Norvik?",
    "What does the canteen serve on Fridays?",
]


def make_index(path: str) -> str:
    from hopgraph.index.backend import Chunk, make_chunk_id
    from hopgraph.index.factory import close_backend, open_backend

    backend = open_backend(path)
    try:
        backend.upsert([Chunk(chunk_id=make_chunk_id("default", d, 0), doc_id=d, index=0, title=t, text=x,
                              container="default") for d, (t, x) in CORPUS.items()])
    finally:
        close_backend(path)
    return path


@contextlib.contextmanager
def load_server(workdir: Path) -> Iterator[str]:
    """`langgraph dev` on a free loopback port with a fresh index and SQLite threads."""
    index = make_index(str(workdir / "index"))
    env = server_env(HOPGRAPH_INDEX=index, HOPGRAPH_CHECKPOINT_DB=str(workdir / "threads.sqlite"))
    with dev_server(env, workdir / "server.log") as url:
        yield url


@dataclass
class LoadResult:
    threads: int
    questions: int
    wall_s: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    mixed_threads: list[str] = field(default_factory=list)

    @property
    def runs(self) -> int:
        return len(self.latencies)

    def pct(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]

    def table(self) -> str:
        rows = [
            ("threads x questions", f"{self.threads} x {self.questions}"),
            ("runs completed", str(self.runs)),
            ("errors", str(len(self.errors))),
            ("threads with foreign turns", str(len(self.mixed_threads))),
            ("wall time", f"{self.wall_s:.1f} s"),
            ("throughput", f"{self.runs / self.wall_s:.2f} runs/s" if self.wall_s else "-"),
            ("latency p50", f"{self.pct(50):.2f} s"),
            ("latency p95", f"{self.pct(95):.2f} s"),
            ("latency max", f"{max(self.latencies):.2f} s" if self.latencies else "-"),
            ("machine", f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"),
        ]
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"| {k.ljust(width)} | {v} |" for k, v in rows)


def question(thread: int, n: int) -> str:
    return f"{QUESTIONS[(thread + n) % len(QUESTIONS)]} (thread {thread}, question {n})"


async def run_load(url: str, threads: int, questions: int, timeout_s: float = 600) -> LoadResult:
    from langgraph_sdk import get_client

    client = get_client(url=url, timeout=timeout_s)
    result = LoadResult(threads, questions)

    async def one_thread(t: int) -> None:
        try:
            tid = (await client.threads.create())["thread_id"]
        except Exception as exc:
            result.errors.append(f"thread {t}: create: {type(exc).__name__}: {exc}")
            return
        for n in range(questions):
            # Plain JSON; dict[str, Any] because the SDK's invariant list[_JSONMap] input type rejects message lists.
            run_input: dict[str, Any] = {"messages": [{"role": "user", "content": question(t, n)}]}
            started = time.perf_counter()
            try:
                out = await client.runs.wait(tid, "hopgraph", input=run_input)
            except Exception as exc:
                result.errors.append(f"thread {t} q{n}: {type(exc).__name__}: {exc}")
                continue
            result.latencies.append(time.perf_counter() - started)
            if not isinstance(out, dict) or out.get("__error__") or not out.get("exit_reason"):
                result.errors.append(f"thread {t} q{n}: bad result {str(out)[:200]}")
        try:
            state = await client.threads.get_state(tid)
            values = state["values"]
            if not isinstance(values, dict):
                raise TypeError(f"thread state values are not a dict: {str(values)[:200]}")
            humans = [m["content"] for m in values["messages"] if m["type"] == "human"
                      and not (m.get("additional_kwargs") or {}).get("hopgraph_nudge")]
        except Exception as exc:
            result.errors.append(f"thread {t}: state: {type(exc).__name__}: {exc}")
            return
        if humans != [question(t, n) for n in range(questions)]:
            result.mixed_threads.append(f"thread {t}: {humans}")

    started = time.perf_counter()
    await asyncio.gather(*(one_thread(t) for t in range(threads)))
    result.wall_s = time.perf_counter() - started
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=50)
    parser.add_argument("--questions", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hopgraph-load-") as tmp, load_server(Path(tmp)) as url:
        warm = asyncio.run(run_load(url, 1, 1))  # first run loads the embedder; keep it out of the figures
        if warm.errors:
            print("\n".join(warm.errors), file=sys.stderr)
            return 1
        result = asyncio.run(run_load(url, args.threads, args.questions))
    print(result.table())
    for line in (result.errors + result.mixed_threads)[:20]:
        print(f"  {line}", file=sys.stderr)
    return 0 if not result.errors and not result.mixed_threads else 1


if __name__ == "__main__":
    sys.exit(main())
