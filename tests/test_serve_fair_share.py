"""A fair share per identity, on a real `langgraph dev` with three workers and a scripted slow model.

bob fills his share (one run running and one queued behind it on the same thread: both count), his next runs
are refused with 429 naming the limit, and alice's run starts on a free worker and finishes while bob's first run
is still running. Latency is asserted only as an order (alice done before bob's run); the figures are in
docs/reliability.md (stress/fair_share_dev.py).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.access import Served, write_auth_file
from tests.support.dev_server import dev_server, server_env
from tests.support.index import make_container_index
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import Request, chat_tool_calls

SLOW_S = 6.0  # how long the scripted model takes to answer one of bob's runs
WORKERS = 3
BOB_SHARE = 2


def slow_report(_request: Request) -> dict[str, Any]:
    time.sleep(SLOW_S)
    return chat_tool_calls(("report_helpful_ids", {"ids": []}))


@pytest.fixture(scope="module")
def model() -> Iterator[ScriptedOpenAI]:
    with ScriptedOpenAI() as srv:
        srv.chat(*[slow_report for _ in range(4)])
        yield srv


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, model: ScriptedOpenAI) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("fair-share")
    index = make_container_index(str(tmp / "index"), {
        "alice-docs": {"alpha": ("Project Alpha", "Project Alpha was delivered late by the supplier Norvik.")},
        "bob-docs": {"beta": ("Project Beta", "Project Beta was delivered late by the supplier Kessler.")},
    })
    keys = {who: secrets.token_urlsafe(24) for who in ("alice", "bob", "root")}
    write_auth_file(tmp / "identities.json", keys)
    env = server_env(
        HOPGRAPH_INDEX=index, HOPGRAPH_CHECKPOINT_DB=str(tmp / "checkpoints.sqlite"),
        HOPGRAPH_AUTH_FILE=str(tmp / "identities.json"), HOPGRAPH_MAX_ACTIVE_RUNS=str(BOB_SHARE),
        HOPGRAPH_ALLOWED_MODELS="builtin,openai:slow", OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="sk-operator",
    )
    log_path = tmp / "server.log"
    with dev_server(env, log_path, args=("--n-jobs-per-worker", str(WORKERS))) as url:
        yield Served(url=url, keys=keys, auth_file=tmp / "identities.json", log_path=log_path, tmp=tmp)


async def _status(client: Any, thread: str, run: str) -> str:
    return str((await client.runs.get(thread, run))["status"])


async def test_one_identity_cannot_hold_every_worker(served: Served, model: ScriptedOpenAI) -> None:
    alice, bob = served.client("alice"), served.client("bob")
    question = {"question": "Which supplier delivered the project late?"}
    slow = {"model": "openai:slow"}
    # The index and the graph are loaded once, before anything is timed.
    assert (await alice.runs.wait(None, "hopgraph", input=question))["reported_ids"] == ["alpha"]

    thread = (await bob.threads.create())["thread_id"]
    first = await bob.runs.create(thread, "hopgraph", input=question, context=slow)
    queued = await bob.runs.create(thread, "hopgraph", input=question, context=slow, multitask_strategy="enqueue")
    other = (await bob.threads.create())["thread_id"]
    refusals = []
    for call in (bob.runs.create(other, "hopgraph", input=question, context=slow),
                 bob.runs.wait(None, "hopgraph", input=question),
                 bob.runs.create(thread, "hopgraph", input=question, multitask_strategy="enqueue")):
        with pytest.raises(httpx.HTTPStatusError) as refused:
            await call
        refusals.append(refused.value.response)
    assert [r.status_code for r in refusals] == [429, 429, 429]
    assert all("HOPGRAPH_MAX_ACTIVE_RUNS" in r.text and f"already has {BOB_SHARE} runs" in r.text
               for r in refusals), [r.text for r in refusals]

    deadline = time.monotonic() + 30
    while await _status(bob, thread, first["run_id"]) != "running":
        assert time.monotonic() < deadline, "bob's first run never started"
        await asyncio.sleep(0.1)
    assert await _status(bob, thread, queued["run_id"]) == "pending"

    started = time.monotonic()
    result = await alice.runs.wait(None, "hopgraph", input=question)
    latency = time.monotonic() - started
    assert isinstance(result, dict) and result["reported_ids"] == ["alpha"], result
    # Alice did not wait behind bob: his first run (started before hers) is still running when hers is done.
    assert await _status(bob, thread, first["run_id"]) == "running", f"alice's run took {latency:.2f} s"
    print(f"\nalice's run with bob's share in use: {latency:.2f} s (bob's runs take {SLOW_S} s each)")

    # When bob's runs are done, his share is his again.
    await bob.runs.join(thread, queued["run_id"])
    assert await _status(bob, thread, first["run_id"]) == "success"
    assert await _status(bob, thread, queued["run_id"]) == "success"
    again = await bob.runs.wait(None, "hopgraph", input=question)
    assert isinstance(again, dict) and again["reported_ids"] == ["beta"], again
    assert len(model.chat_requests()) == 2  # the refused runs never reached the model


def test_the_server_says_when_one_identity_may_fill_every_worker(served: Served) -> None:
    log = Path(served.log_path).read_text(errors="replace")
    assert "can keep every other waiting" not in log  # three workers, a share of two: nobody can


async def test_an_open_server_has_no_per_identity_cap(tmp_path: Path) -> None:
    """Without access control every caller is the same local identity: no cap is applied (and none is said)."""
    from langgraph_sdk import get_client

    index = make_container_index(str(tmp_path / "index"), {"default": {"d": ("Doc", "Kessler is in Graz.")}})
    env = server_env(HOPGRAPH_INDEX=index, HOPGRAPH_CHECKPOINT_DB=str(tmp_path / "c.sqlite"),
                     HOPGRAPH_MAX_ACTIVE_RUNS="1")
    with dev_server(env, tmp_path / "server.log") as url:
        client = get_client(url=url, api_key=None)
        threads = [(await client.threads.create())["thread_id"] for _ in range(3)]
        runs = [await client.runs.create(t, "hopgraph", input={"question": "Where is Kessler?"}) for t in threads]
        for t, r in zip(threads, runs, strict=True):
            await client.runs.join(t, r["run_id"])
            assert await _status(client, t, r["run_id"]) == "success"
    assert "can keep every other waiting" not in (tmp_path / "server.log").read_text(errors="replace")
