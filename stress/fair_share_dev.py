"""One identity's queue and another's wait, on `langgraph dev` with an access file (loopback only).

bob sends three runs to a scripted OpenAI-compatible model that takes SLOW seconds to answer; then alice asks one
question with the builtin model. Each round measures alice's latency and how many of bob's runs were admitted.
Three set-ups, each its own server:

    no cap, 1 worker       HOPGRAPH_MAX_ACTIVE_RUNS=100, `langgraph dev`'s default of one run at a time
    default cap, 1 worker  the default cap (half the workers, at least 1)
    cap 2, 3 workers       --n-jobs-per-worker 3, HOPGRAPH_MAX_ACTIVE_RUNS=2

Alice alone (no runs of bob's) is measured on the last server, between the rounds. Prints a table.

    PYTHONPATH=. .venv/bin/python stress/fair_share_dev.py --rounds 3 --slow 4
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from langgraph_sdk import get_client  # noqa: E402

from tests.support.access import write_auth_file  # noqa: E402
from tests.support.dev_server import dev_server, server_env  # noqa: E402
from tests.support.index import make_container_index  # noqa: E402
from tests.support.openai_server import ScriptedOpenAI  # noqa: E402
from tests.support.openai_steps import Request, chat_tool_calls  # noqa: E402

QUESTION = {"question": "Which supplier delivered the project late?"}
SETUPS = (("no cap, 1 worker", 1, "100"), ("default cap, 1 worker", 1, ""), ("cap 2, 3 workers", 3, "2"))


async def _round(url: str, keys: dict[str, str], bob_runs: int) -> tuple[float, int]:
    alice, bob = get_client(url=url, api_key=keys["alice"]), get_client(url=url, api_key=keys["bob"])
    admitted: list[tuple[str, str]] = []
    for _ in range(bob_runs):
        thread = (await bob.threads.create())["thread_id"]
        try:
            run = await bob.runs.create(thread, "hopgraph", input=QUESTION, context={"model": "openai:slow"})
            admitted.append((thread, run["run_id"]))
        except httpx.HTTPStatusError as exc:
            assert exc.response.status_code == 429, exc.response.text
    await asyncio.sleep(0.5)  # bob's runs are picked up before alice asks
    started = time.monotonic()
    result = await alice.runs.wait(None, "hopgraph", input=QUESTION)
    latency = time.monotonic() - started
    assert isinstance(result, dict) and result.get("reported_ids") == ["alpha"], result
    for thread, run_id in admitted:
        await bob.runs.join(thread, run_id)
    return latency, len(admitted)


async def _setup(workdir: Path, model: ScriptedOpenAI, workers: int, cap: str, rounds: int,
                 alone: list[float]) -> tuple[list[float], int]:
    index = make_container_index(str(workdir / "index"), {
        "alice-docs": {"alpha": ("Project Alpha", "Project Alpha was delivered late by the supplier Norvik.")},
        "bob-docs": {"beta": ("Project Beta", "Project Beta was delivered late by the supplier Kessler.")},
    })
    keys = {who: secrets.token_urlsafe(24) for who in ("alice", "bob", "root")}
    write_auth_file(workdir / "identities.json", keys)
    env = server_env(HOPGRAPH_INDEX=index, HOPGRAPH_CHECKPOINT_DB=str(workdir / "threads.sqlite"),
                     HOPGRAPH_AUTH_FILE=str(workdir / "identities.json"), HOPGRAPH_ALLOWED_MODELS="builtin,openai:slow",
                     OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="sk-operator")
    if cap:
        env["HOPGRAPH_MAX_ACTIVE_RUNS"] = cap
    latencies: list[float] = []
    admitted = 0
    with dev_server(env, workdir / "server.log", args=("--n-jobs-per-worker", str(workers))) as url:
        alice = get_client(url=url, api_key=keys["alice"])
        await alice.runs.wait(None, "hopgraph", input=QUESTION)  # index and graph loaded before timing
        for _ in range(rounds):
            if workers > 1:
                started = time.monotonic()
                await alice.runs.wait(None, "hopgraph", input=QUESTION)
                alone.append(time.monotonic() - started)
            latency, admitted = await _round(url, keys, 3)
            latencies.append(latency)
    return latencies, admitted


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slow", type=float, default=4.0, help="seconds the scripted model takes per answer")
    args = parser.parse_args()

    def slow(_request: Request) -> dict[str, Any]:
        time.sleep(args.slow)
        return chat_tool_calls(("report_helpful_ids", {"ids": []}))

    rows = []
    alone: list[float] = []
    with ScriptedOpenAI() as model, tempfile.TemporaryDirectory() as tmp:
        model.chat(*[slow for _ in range(3 * args.rounds * len(SETUPS))])
        for number, (name, workers, cap) in enumerate(SETUPS):
            latencies, admitted = await _setup(Path(tmp) / str(number), model, workers, cap, args.rounds, alone)
            rows.append((name, admitted, _cell(latencies)))
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}; "
          f"bob's runs take {args.slow:.1f} s each; {args.rounds} rounds; median (min-max) seconds")
    print("| set-up | bob's runs admitted of 3 | alice's run, s |\n|---|---|---|")
    for name, admitted, cell in rows:
        print(f"| {name} | {admitted} | {cell} |")
    print(f"| alice alone (3 workers) | - | {_cell(alone)} |")


if __name__ == "__main__":
    asyncio.run(main())
