"""Thread owners kept with the conversations: the savers themselves (SQLite and PostgreSQL), and a real
`langgraph dev` killed with SIGKILL right after alice's run, restarted on the same storage, then emptied by
`/internal/truncate`: bob never reaches alice's conversation, and alice always gets it back.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph.checkpoint.base import empty_checkpoint
from langgraph_sdk import get_client

from hopgraph.checkpoint import checkpointer, open_checkpointer
from hopgraph.serving.owners import ThreadOwnerError
from tests.support.access import write_auth_file
from tests.support.dev_server import DevServer, server_env
from tests.support.index import make_container_index
from tests.support.postgres import drop_schema, new_schema, require_postgres

ALICE_DOCS = {"alpha": ("Project Alpha", "Project Alpha was delivered late by the supplier Norvik.")}
BOB_DOCS = {"beta": ("Project Beta", "Project Beta was delivered late by the supplier Kessler.")}
ASKED = "Which supplier delivered Project Alpha late?"
FLUSH_INTERVAL_S = 10  # langgraph dev writes its in-memory store to .langgraph_api/ this often

TALLY = {"attempts": 0, "held": 0}


@pytest.fixture(scope="module", autouse=True)
def report_tally() -> Iterator[None]:
    yield
    print(f"\nownership attempts after a crash or a truncate: {TALLY['attempts']}, held: {TALLY['held']}")
    assert TALLY["attempts"] == TALLY["held"]


@pytest.fixture(params=["sqlite", "postgres"])
def storage(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
            ) -> Iterator[dict[str, str]]:
    """Where the checkpointer keeps conversations (and owners): the server's settings, also set for this process
    so the savers and the CLI's checkpointer here open the same storage."""
    for name in ("POSTGRES_URI", "DATABASE_URI", "HOPGRAPH_CHECKPOINT_DB", "HOPGRAPH_CHECKPOINT_SCHEMA"):
        monkeypatch.delenv(name, raising=False)
    if request.param == "sqlite":
        settings = {"HOPGRAPH_CHECKPOINT_DB": str(tmp_path / "checkpoints.sqlite")}
    else:
        settings = {"POSTGRES_URI": require_postgres(), "HOPGRAPH_CHECKPOINT_SCHEMA": new_schema()}
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    try:
        yield settings
    finally:
        if "POSTGRES_URI" in settings:
            drop_schema(settings["POSTGRES_URI"], settings["HOPGRAPH_CHECKPOINT_SCHEMA"])


@asynccontextmanager
async def _saver(storage: dict[str, str]) -> AsyncIterator[Any]:
    async with checkpointer() as saver:
        assert type(saver).__name__ == ("OwnedPostgresSaver" if "POSTGRES_URI" in storage else "OwnedSqliteSaver")
        yield saver


def _config(thread_id: str, who: str | None, admin: bool = False) -> Any:
    configurable: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": "", "graph_id": "hopgraph"}
    if who is not None:
        # What the server puts in a run's config from its auth: the identity never comes from the client.
        configurable["langgraph_auth_user"] = {"identity": who, "admin": admin}
        configurable["langgraph_auth_permissions"] = ["admin"] if admin else []
    return {"configurable": configurable}


async def _put(saver: Any, thread_id: str, who: str | None, admin: bool = False) -> None:
    await saver.aput(_config(thread_id, who, admin), empty_checkpoint(), {"source": "input", "step": -1}, {})


async def test_the_saver_records_and_guards_owners(storage: dict[str, str]) -> None:
    alices, copied, unowned, fresh = (str(uuid.uuid4()) for _ in range(4))
    async with _saver(storage) as saver:
        await _put(saver, alices, "alice")
        await _put(saver, alices, "alice")
        recorded = await saver.owner_of(alices)
        assert recorded is not None and recorded.owner == "alice" and recorded.graph_id == "hopgraph"
        # A run of bob's can neither read nor write alice's conversation, whatever let it start.
        with pytest.raises(ThreadOwnerError):
            await saver.aget_tuple(_config(alices, "bob"))
        with pytest.raises(ThreadOwnerError):
            await _put(saver, alices, "bob")
        # Her own runs, an admin's, and the server's own reads (no identity) go on.
        assert await saver.aget_tuple(_config(alices, "alice")) is not None
        await _put(saver, alices, "root", admin=True)
        assert await saver.aget_tuple(_config(alices, None)) is not None
        assert (await saver.owner_of(alices)).owner == "alice"
        # What the auth handlers ask before a thread is created under an id or a run names one.
        assert not await saver.refuses(alices, "alice", admin=False)
        assert await saver.refuses(alices, "bob", admin=False)
        assert not await saver.refuses(alices, "root", admin=True)
        assert not await saver.refuses(fresh, "bob", admin=False)
        # Checkpoints no identity wrote (the CLI's, or from before owners were kept) are nobody's to take.
        await _put(saver, unowned, None)
        assert await saver.refuses(unowned, "alice", admin=False) and await saver.refuses(unowned, "bob", admin=False)
        # A copy keeps the owner, and the conversation.
        await saver.acopy_thread(alices, copied)
        assert (await saver.owner_of(copied)).owner == "alice"
        assert len([c async for c in saver.alist(_config(copied, None))]) == 3
        # The owner outlives the thread: a deleted id is not free for someone else.
        await saver.adelete_thread(alices)
        assert await saver.aget_tuple(_config(alices, None)) is None
        assert await saver.refuses(alices, "bob", admin=False)
    # And it is on disk, not in the saver's memory.
    async with _saver(storage) as again:
        assert await again.refuses(alices, "bob", admin=False) and not await again.refuses(alices, "alice", False)


# --- through a real server ---------------------------------------------------------------------------------------


def _human(state: Any) -> list[str]:
    return [m["content"] for m in (state.get("values") or {}).get("messages", []) if m["type"] == "human"]


async def _refused(what: str, call: Any, status: int) -> str:
    TALLY["attempts"] += 1
    try:
        result = await call
    except httpx.HTTPStatusError as exc:
        assert exc.response.status_code == status, (what, exc.response.status_code, exc.response.text)
        assert ASKED not in exc.response.text, what
        TALLY["held"] += 1
        return exc.response.text
    pytest.fail(f"{what}: succeeded with {str(result)[:300]}")


async def _bob_gets_nothing(bob: Any, tid: str) -> None:
    await _refused("bob creates a thread with alice's id", bob.threads.create(thread_id=tid), 409)
    await _refused("bob creates it unless it exists", bob.threads.create(thread_id=tid, if_exists="do_nothing"), 409)
    await _refused("bob runs on it, creating it if missing",
                   bob.runs.wait(tid, "hopgraph", input={"question": "What did alice ask?"}, if_not_exists="create"),
                   404)
    await _refused("bob starts a background run on it",
                   bob.runs.create(tid, "hopgraph", input={"question": "What did alice ask?"}, if_not_exists="create"),
                   404)
    await _refused("bob reads its state", bob.threads.get_state(tid), 404)
    await _refused("bob reads its history", bob.threads.get_history(tid), 404)
    await _refused("bob copies it", bob.threads.copy(tid), 409)  # the server answers a missing thread so


async def _flush_tick(ops: Path) -> float:
    """Wait until langgraph dev has just written its store to disk; the moment it did."""
    def stamp() -> int | None:
        return ops.stat().st_mtime_ns if ops.exists() else None

    before = stamp()
    deadline = time.monotonic() + 3 * FLUSH_INTERVAL_S
    while stamp() in (before, None):
        assert time.monotonic() < deadline, "langgraph dev stopped writing .langgraph_api"
        await asyncio.sleep(0.05)
    return time.monotonic()


def _restored(log: Path) -> list[int]:
    counts = []
    for line in log.read_text(errors="replace").splitlines():
        if "restored " in line and "thread(s) the server had lost" in line:
            counts.append(int(line.split("restored ", 1)[1].split(" ", 1)[0]))
    return counts


async def test_ownership_survives_a_crash_and_a_truncate(storage: dict[str, str], tmp_path: Path) -> None:
    index = make_container_index(str(tmp_path / "index"), {"alice-docs": ALICE_DOCS, "bob-docs": BOB_DOCS})
    keys = {who: secrets.token_urlsafe(24) for who in ("alice", "bob", "root")}
    write_auth_file(tmp_path / "identities.json", keys)
    env = server_env(HOPGRAPH_INDEX=index, HOPGRAPH_AUTH_FILE=str(tmp_path / "identities.json"),
                     HOPGRAPH_MAX_ACTIVE_RUNS="4", **storage)
    log = tmp_path / "server.log"
    server = DevServer(env, log, tmp_path / "workdir")
    try:
        url = server.start()
        alice, bob, root = (get_client(url=url, api_key=keys[who]) for who in ("alice", "bob", "root"))
        warm = (await alice.threads.create())["thread_id"]
        await alice.runs.wait(warm, "hopgraph", input={"question": "Where is Norvik?"})  # loads index and graph

        # Alice's thread and run fall between two writes of the dev server's store; then the server dies.
        ticked = await _flush_tick(tmp_path / "workdir" / ".langgraph_api" / ".langgraph_ops.pckl")
        tid = (await alice.threads.create())["thread_id"]
        result = await alice.runs.wait(tid, "hopgraph", input={"question": ASKED})
        assert isinstance(result, dict) and result["reported_ids"] == ["alpha"], result
        server.kill()
        killed = time.monotonic()
        assert killed - ticked < FLUSH_INTERVAL_S, "the kill came after the next write of the store"

        server.start()
        # The server had lost the thread; the checkpointer gave it back, with its owner.
        assert _restored(log) and _restored(log)[-1] >= 1, log.read_text()[-3000:]
        assert _human(await alice.threads.get_state(tid)) == [ASKED]
        assert tid not in {t["thread_id"] for t in await bob.threads.search(limit=100)}
        await _bob_gets_nothing(bob, tid)

        # The SDK annotates copy() as returning None; the server answers with the new thread.
        copy = (await alice.threads.copy(tid))["thread_id"]  # type: ignore[func-returns-value,index]
        assert _human(await alice.threads.get_state(copy)) == [ASKED]

        # /internal/truncate empties the server's store (not the checkpointer); only an admin may call it.
        async with httpx.AsyncClient(base_url=url) as http:
            for who in (None, "bob"):
                headers = {"x-api-key": keys[who]} if who else {}
                refused = await http.post("/internal/truncate", headers=headers)
                TALLY["attempts"] += 1
                TALLY["held"] += refused.status_code == (403 if who else 401)
                assert refused.status_code == (403 if who else 401), refused.text
            assert (await http.post("/internal/truncate", headers={"x-api-key": keys["root"]})).status_code == 200
        await _refused("alice reads her thread the server no longer has", alice.threads.get_state(tid), 404)
        await _bob_gets_nothing(bob, tid)
        await _bob_gets_nothing(bob, copy)

        # Alice creates her thread again under its id: her conversation is there, and it goes on.
        await alice.threads.create(thread_id=tid)
        assert _human(await alice.threads.get_state(tid)) == [ASKED]
        await alice.threads.create(thread_id=copy)
        assert _human(await alice.threads.get_state(copy)) == [ASKED]
        follow = await alice.runs.wait(tid, "hopgraph", input={"question": "Where is that supplier based?"})
        assert isinstance(follow, dict) and follow["exit_reason"] != "backend_error", follow
        assert _human(await alice.threads.get_state(tid)) == [ASKED, "Where is that supplier based?"]
        await _bob_gets_nothing(bob, tid)

        # A conversation the CLI wrote (no owner) is no served identity's to take; an admin may.
        cli_tid = str(uuid.uuid4())
        with open_checkpointer() as cli:
            cli.put({"configurable": {"thread_id": cli_tid, "checkpoint_ns": ""}}, empty_checkpoint(),
                    {"source": "input", "step": -1}, {})
        await _refused("bob takes a thread the CLI wrote", bob.threads.create(thread_id=cli_tid), 409)
        await _refused("alice takes a thread the CLI wrote", alice.threads.create(thread_id=cli_tid), 409)
        assert (await root.threads.create(thread_id=cli_tid))["thread_id"] == cli_tid
    except BaseException:
        print(log.read_text()[-6000:])
        raise
    finally:
        server.stop()
