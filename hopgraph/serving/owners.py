"""Thread owners, kept where the conversations are: a ``thread_owners`` table beside the checkpoints.

The LangGraph server keeps a thread's owner in the thread's metadata, in its own store. ``langgraph dev`` holds
that store in memory and writes it to disk every few seconds, and ``/internal/truncate`` empties it, while the
conversation itself is in hopgraph's checkpointer. So the checkpointer records the owner too, in the same SQLite
file or PostgreSQL schema as the checkpoints:

- The first checkpoint a served run writes for a thread records the run's authenticated identity (never anything
  the client sent) and the graph. A row is never changed afterwards and outlives the thread's deletion, so an id,
  once used, stays its owner's.
- A served run that would read or write a thread recorded for another identity (admins excepted) is stopped by
  the saver itself: the conversation cannot be reached through a run, whatever the server's own store says.
- Copying a thread copies its owner.
- The auth handlers ask ``refuses`` before a thread is created under a chosen id or a run names one: an id
  recorded for another identity, or one whose checkpoints have no owner at all (written by the CLI, or before
  owners were recorded), is refused to everyone but its owner and admins.

``restore_threads`` gives the in-memory dev server back the threads it lost: each recorded thread that still has
checkpoints is created again, with its owner, when the server starts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata, CheckpointTuple
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from hopgraph.errors import AccessError
from hopgraph.serving.settings import user_field

log = logging.getLogger("hopgraph.serving")

TABLE = "thread_owners"
_CACHE_SIZE = 10_000


class ThreadOwnerError(AccessError):
    """A run reached a thread recorded for another identity."""


@dataclass(frozen=True)
class ThreadOwner:
    owner: str
    graph_id: str | None


def _caller(config: RunnableConfig | None) -> tuple[str, bool] | None:
    """The authenticated identity a served run carries in its config, and whether it is an admin."""
    configurable = (config or {}).get("configurable") or {}
    user = configurable.get("langgraph_auth_user")
    identity = user_field(user, "identity")
    if not isinstance(identity, str) or not identity:
        return None
    permissions = configurable.get("langgraph_auth_permissions") or user_field(user, "permissions") or []
    return identity, user_field(user, "admin") is True or "admin" in permissions


class _OwnedSaver:
    """What both owned savers add to LangGraph's async savers; each subclass supplies the SQL."""

    _owners: OrderedDict[str, ThreadOwner]
    _owners_ready: bool

    # --- SQL, per database --------------------------------------------------------------------------------------

    async def _setup_owners(self) -> None:
        raise NotImplementedError

    async def _fetch_owner(self, thread_id: str) -> ThreadOwner | None:
        raise NotImplementedError

    async def _insert_owner(self, thread_id: str, owner: ThreadOwner) -> None:
        raise NotImplementedError

    async def _has_checkpoints(self, thread_id: str) -> bool:
        raise NotImplementedError

    async def _owned_with_checkpoints(self) -> list[tuple[str, ThreadOwner]]:
        raise NotImplementedError

    # --- the rules -----------------------------------------------------------------------------------------------

    async def owner_of(self, thread_id: str) -> ThreadOwner | None:
        """The recorded owner of a thread id, if any (rows never change, so a found one is kept in memory)."""
        thread_id = str(thread_id)
        known = self._owners.get(thread_id)
        if known is not None:
            return known
        found = await self._fetch_owner(thread_id)
        if found is not None:
            self._remember(thread_id, found)
        return found

    def _remember(self, thread_id: str, owner: ThreadOwner) -> None:
        self._owners[thread_id] = owner
        self._owners.move_to_end(thread_id)
        while len(self._owners) > _CACHE_SIZE:
            self._owners.popitem(last=False)

    async def refuses(self, thread_id: str, identity: str, admin: bool) -> bool:
        """Whether ``identity`` must be told this thread id does not exist."""
        if admin:
            return False
        recorded = await self.owner_of(thread_id)
        if recorded is not None:
            return recorded.owner != identity
        return await self._has_checkpoints(str(thread_id))

    async def _guard(self, config: RunnableConfig, record: bool) -> None:
        caller = _caller(config)
        if caller is None:
            return  # not a served run (the local API, the server's own reads): nothing to check
        identity, admin = caller
        configurable = config.get("configurable") or {}
        thread_id = str(configurable.get("thread_id") or "")
        if not thread_id:
            return
        recorded = await self.owner_of(thread_id)
        if recorded is None and record:
            graph_id = configurable.get("graph_id")
            await self._insert_owner(thread_id, ThreadOwner(identity, graph_id if isinstance(graph_id, str) else None))
            recorded = await self.owner_of(thread_id)  # the first writer wins a race
        if recorded is not None and recorded.owner != identity and not admin:
            log.warning("a run of '%s' reached thread %s of another identity; stopped", identity, thread_id)
            raise ThreadOwnerError(f"thread {thread_id} not found")

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        await self._guard(config, record=False)
        return await super().aget_tuple(config)  # type: ignore[misc]

    async def aput(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
                   new_versions: ChannelVersions) -> RunnableConfig:
        await self._guard(config, record=True)
        return await super().aput(config, checkpoint, metadata, new_versions)  # type: ignore[misc]

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy every checkpoint and pending write of a thread, and its owner."""
        owner = await self.owner_of(str(source_thread_id))
        if owner is not None:
            await self._insert_owner(str(target_thread_id), owner)
        saver: Any = self
        source = {"configurable": {"thread_id": str(source_thread_id)}}
        tuples = [item async for item in saver.alist(source)]
        tuples.sort(key=lambda item: item.config["configurable"]["checkpoint_id"])
        for item in tuples:
            target: dict[str, Any] = {"thread_id": str(target_thread_id),
                                      "checkpoint_ns": item.config["configurable"].get("checkpoint_ns", "")}
            parent = (item.parent_config or {}).get("configurable") or {}
            if parent.get("checkpoint_id"):
                target["checkpoint_id"] = parent["checkpoint_id"]
            metadata = dict(item.metadata)
            if "thread_id" in metadata:
                metadata["thread_id"] = str(target_thread_id)
            # The parent class's aput: the copy is the server's doing, not a run's.
            stored = await super().aput(  # type: ignore[misc]
                {"configurable": target}, item.checkpoint, metadata, item.checkpoint.get("channel_versions", {})
            )
            by_task: dict[str, list[tuple[str, Any]]] = {}
            for task_id, channel, value in item.pending_writes or []:
                by_task.setdefault(task_id, []).append((channel, value))
            for task_id, writes in by_task.items():
                await saver.aput_writes(stored, writes, task_id)

    async def owned_threads(self) -> list[tuple[str, ThreadOwner]]:
        """Every recorded thread that still has checkpoints."""
        return await self._owned_with_checkpoints()


class OwnedSqliteSaver(_OwnedSaver, AsyncSqliteSaver):
    """AsyncSqliteSaver that records and guards thread owners in the same file."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._owners = OrderedDict()
        self._owners_ready = False

    async def setup(self) -> None:
        await super().setup()
        if not self._owners_ready:
            await self._setup_owners()
            self._owners_ready = True

    async def _setup_owners(self) -> None:
        async with self.lock:
            await self.conn.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL, "
                "graph_id TEXT, recorded_at REAL NOT NULL)"
            )
            await self.conn.commit()

    async def _fetch_owner(self, thread_id: str) -> ThreadOwner | None:
        async with self.lock, self.conn.execute(
            f"SELECT owner, graph_id FROM {TABLE} WHERE thread_id = ?", (thread_id,)
        ) as cur:
            row = await cur.fetchone()
        return ThreadOwner(row[0], row[1]) if row else None

    async def _insert_owner(self, thread_id: str, owner: ThreadOwner) -> None:
        async with self.lock:
            await self.conn.execute(
                f"INSERT OR IGNORE INTO {TABLE} (thread_id, owner, graph_id, recorded_at) VALUES (?, ?, ?, ?)",
                (thread_id, owner.owner, owner.graph_id, time.time()),
            )
            await self.conn.commit()

    async def _has_checkpoints(self, thread_id: str) -> bool:
        async with self.lock, self.conn.execute(
            "SELECT 1 FROM checkpoints WHERE thread_id = ? LIMIT 1", (thread_id,)
        ) as cur:
            return await cur.fetchone() is not None

    async def _owned_with_checkpoints(self) -> list[tuple[str, ThreadOwner]]:
        async with self.lock, self.conn.execute(
            f"SELECT o.thread_id, o.owner, o.graph_id FROM {TABLE} o WHERE EXISTS "
            "(SELECT 1 FROM checkpoints c WHERE c.thread_id = o.thread_id) ORDER BY o.recorded_at"
        ) as cur:
            rows = await cur.fetchall()
        return [(row[0], ThreadOwner(row[1], row[2])) for row in rows]


class OwnedPostgresSaver(_OwnedSaver, AsyncPostgresSaver):
    """AsyncPostgresSaver that records and guards thread owners in the same schema."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._owners = OrderedDict()
        self._owners_ready = False

    async def setup(self) -> None:
        await super().setup()
        if not self._owners_ready:
            await self._setup_owners()
            self._owners_ready = True

    async def _setup_owners(self) -> None:
        async with self._cursor() as cur:
            await cur.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL, "
                "graph_id TEXT, recorded_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )

    async def _fetch_owner(self, thread_id: str) -> ThreadOwner | None:
        async with self._cursor() as cur:
            await cur.execute(f"SELECT owner, graph_id FROM {TABLE} WHERE thread_id = %s", (thread_id,))
            row = await cur.fetchone()
        return ThreadOwner(row["owner"], row["graph_id"]) if row else None

    async def _insert_owner(self, thread_id: str, owner: ThreadOwner) -> None:
        async with self._cursor() as cur:
            await cur.execute(
                f"INSERT INTO {TABLE} (thread_id, owner, graph_id) VALUES (%s, %s, %s) "
                "ON CONFLICT (thread_id) DO NOTHING",
                (thread_id, owner.owner, owner.graph_id),
            )

    async def _has_checkpoints(self, thread_id: str) -> bool:
        async with self._cursor() as cur:
            await cur.execute("SELECT 1 FROM checkpoints WHERE thread_id = %s LIMIT 1", (thread_id,))
            return await cur.fetchone() is not None

    async def _owned_with_checkpoints(self) -> list[tuple[str, ThreadOwner]]:
        async with self._cursor() as cur:
            await cur.execute(
                f"SELECT o.thread_id, o.owner, o.graph_id FROM {TABLE} o WHERE EXISTS "
                "(SELECT 1 FROM checkpoints c WHERE c.thread_id = o.thread_id) ORDER BY o.recorded_at"
            )
            rows = await cur.fetchall()
        return [(row["thread_id"], ThreadOwner(row["owner"], row["graph_id"])) for row in rows]


# --- the saver of each event loop, for the auth handlers ---------------------------------------------------------

_ACTIVE: dict[asyncio.AbstractEventLoop, _OwnedSaver] = {}


def register(saver: Any) -> None:
    if isinstance(saver, _OwnedSaver):
        _ACTIVE[asyncio.get_running_loop()] = saver


def unregister(saver: Any) -> None:
    for loop, active in list(_ACTIVE.items()):
        if active is saver:
            del _ACTIVE[loop]


def configured() -> bool:
    """Whether the server was told to use hopgraph's checkpointer (``checkpointer.path`` in langgraph.json)."""
    raw = os.environ.get("LANGGRAPH_CHECKPOINTER") or ""
    try:
        path = str((json.loads(raw) or {}).get("path") or "")
    except (ValueError, AttributeError):
        return False
    return path.endswith("hopgraph/checkpoint.py:checkpointer") or path == "hopgraph.checkpoint:checkpointer"


def active_saver() -> _OwnedSaver | None:
    """The owned saver the server opened on this event loop (None before startup, or with another checkpointer)."""
    try:
        return _ACTIVE.get(asyncio.get_running_loop())
    except RuntimeError:
        return None


async def restore_threads(saver: _OwnedSaver, create: Any, graph_ids: Sequence[str]) -> int:
    """Create again, through ``create(thread_id, metadata)``, each recorded thread that has checkpoints.

    ``create`` must leave an existing thread as it is; the count of threads it reports as created is returned.
    """
    restored = 0
    fallback = graph_ids[0] if len(graph_ids) == 1 else None
    for thread_id, owner in await saver.owned_threads():
        graph_id = owner.graph_id or fallback
        metadata: dict[str, Any] = {"owner": owner.owner}
        if graph_id:
            metadata["graph_id"] = graph_id
        if await create(thread_id, metadata):
            restored += 1
    return restored
