"""Conversation persistence: where thread checkpoints live.

SQLite by default (one file per user, ``HOPGRAPH_CHECKPOINT_DB`` overrides the path);
PostgreSQL when ``POSTGRES_URI`` or ``DATABASE_URI`` is set. PostgreSQL tables go into
their own schema (``HOPGRAPH_CHECKPOINT_SCHEMA``, default ``hopgraph``) so they never
collide with the tables a LangGraph server keeps in the same database.

``checkpointer`` is the async factory named by ``checkpointer.path`` in langgraph.json;
``open_checkpointer`` is the sync twin used by the CLI and the Python API; ``latest_checkpoints`` lists the
conversations a store holds. The async savers also keep each thread's owner beside its checkpoints (a
``thread_owners`` table, ``hopgraph.serving.owners``), which the served graph records and checks; local callers
carry no identity, so for them it stays empty.

SQLite runs in WAL mode (LangGraph's savers set it) with ``synchronous=NORMAL``: a commit is not flushed to the
disk one by one, which halves the cost of a step (two commits a step, each a flush otherwise). A killed process
still loses nothing committed (the log is in the operating system's hands); a power cut or an operating-system
crash may lose the last few steps of a thread, never the file's consistency.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple

DEFAULT_SCHEMA = "hopgraph"
_SCHEMA_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
# Per connection, so set on every one opened (see the module docstring).
SQLITE_SYNCHRONOUS = "PRAGMA synchronous=NORMAL"
# The threads of a store, from the table both LangGraph savers keep (the root graph's checkpoints only).
THREAD_IDS_SQL = "SELECT DISTINCT thread_id FROM checkpoints WHERE checkpoint_ns = ''"
# Metadata a LangGraph server writes into the checkpoints of the runs it serves.
SERVED_KEY = "assistant_id"


def postgres_uri() -> str | None:
    """The PostgreSQL URI from the environment, if any.

    ``langgraph dev`` sets DATABASE_URI to ``:memory:`` for its own in-memory runtime, so only
    values that are PostgreSQL connection strings count.
    """
    for name in ("POSTGRES_URI", "DATABASE_URI"):
        value = (os.environ.get(name) or "").strip()
        if value.startswith(("postgres://", "postgresql://")) or re.match(r"^\w+\s*=", value):
            return value
    return None


def default_sqlite_path() -> str:
    """HOPGRAPH_CHECKPOINT_DB, else ``<data dir>/hopgraph/checkpoints.sqlite``."""
    env = os.environ.get("HOPGRAPH_CHECKPOINT_DB")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "hopgraph" / "checkpoints.sqlite")


def checkpoint_schema() -> str | None:
    """Schema for the PostgreSQL tables; empty HOPGRAPH_CHECKPOINT_SCHEMA keeps the URI's search_path."""
    schema = os.environ.get("HOPGRAPH_CHECKPOINT_SCHEMA", DEFAULT_SCHEMA)
    if not schema:
        return None
    if not _SCHEMA_RE.match(schema):
        raise ValueError(f"invalid HOPGRAPH_CHECKPOINT_SCHEMA: {schema!r}")
    return schema


def _pg_kwargs(schema: str | None) -> dict[str, Any]:
    from psycopg.rows import dict_row

    # The settings the LangGraph Postgres savers expect (see their from_conn_string).
    kwargs: dict[str, Any] = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    if schema:
        kwargs["options"] = f"-c search_path={schema}"
    return kwargs


def _sqlite_file(path: str | None) -> str:
    path = path or default_sqlite_path()
    if path != ":memory:":
        Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
    return str(Path(path).expanduser()) if path != ":memory:" else path


def _unreachable(uri: str, exc: Exception) -> RuntimeError:
    return RuntimeError(f"cannot connect to PostgreSQL for checkpoints ({_redact(uri)}): {exc}")


def _redact(uri: str) -> str:
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", uri)


# --- async (LangGraph server, async callers) ---------------------------------------------


@asynccontextmanager
async def checkpointer(
    *, uri: str | None = None, path: str | None = None, schema: str | None = None
) -> AsyncIterator[BaseCheckpointSaver]:
    """Yield an async saver: PostgreSQL if a URI is given or set in the environment, else SQLite.

    langgraph.json points ``checkpointer.path`` here; the server calls it with no arguments
    and enters the context once per event-loop thread.
    """
    from hopgraph.serving import owners

    uri = uri or postgres_uri()
    if uri:
        from psycopg import AsyncConnection
        from psycopg_pool import AsyncConnectionPool

        schema = schema if schema is not None else checkpoint_schema()
        try:
            if schema:
                async with await AsyncConnection.connect(uri, autocommit=True) as conn:
                    await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        except Exception as exc:  # psycopg.OperationalError and friends
            raise _unreachable(uri, exc) from exc
        # A pool: the server runs many threads' turns concurrently.
        pool = AsyncConnectionPool(uri, kwargs=_pg_kwargs(schema), min_size=1, max_size=10, open=False)
        await pool.open()
        try:
            pg_saver = owners.OwnedPostgresSaver(pool)  # type: ignore[arg-type]
            await pg_saver.setup()
            owners.register(pg_saver)
            try:
                yield pg_saver
            finally:
                owners.unregister(pg_saver)
        finally:
            await pool.close()
    else:
        # mkdir off the event loop: the LangGraph server rejects blocking calls in async code.
        file = await asyncio.to_thread(_sqlite_file, path)
        async with owners.OwnedSqliteSaver.from_conn_string(file) as lite_saver:
            await lite_saver.setup()
            await lite_saver.conn.execute(SQLITE_SYNCHRONOUS)
            owners.register(lite_saver)
            try:
                yield lite_saver
            finally:
                owners.unregister(lite_saver)


async def adelete_thread(saver: BaseCheckpointSaver, thread_id: str) -> None:
    """Delete every checkpoint and pending write of a thread."""
    await saver.adelete_thread(thread_id)


async def athread_exists(saver: BaseCheckpointSaver, thread_id: str) -> bool:
    return await saver.aget_tuple({"configurable": {"thread_id": thread_id}}) is not None


# --- sync (CLI, Python API) --------------------------------------------------------------


@contextmanager
def open_checkpointer(
    *, uri: str | None = None, path: str | None = None, schema: str | None = None
) -> Iterator[BaseCheckpointSaver]:
    """Yield a sync saver (SqliteSaver or PostgresSaver), chosen like ``checkpointer``."""
    uri = uri or postgres_uri()
    if uri:
        import psycopg
        from langgraph.checkpoint.postgres import PostgresSaver

        schema = schema if schema is not None else checkpoint_schema()
        try:
            pg_conn = psycopg.connect(uri, **_pg_kwargs(schema))
        except Exception as exc:
            raise _unreachable(uri, exc) from exc
        with pg_conn:
            if schema:
                pg_conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
            pg_saver = PostgresSaver(pg_conn)  # type: ignore[arg-type]
            pg_saver.setup()
            yield pg_saver
    else:
        from langgraph.checkpoint.sqlite import SqliteSaver

        # check_same_thread=False: the graph may run nodes on worker threads.
        lite_conn = sqlite3.connect(_sqlite_file(path), check_same_thread=False)
        try:
            lite_saver = SqliteSaver(lite_conn)
            lite_saver.setup()
            lite_conn.execute(SQLITE_SYNCHRONOUS)
            yield lite_saver
        finally:
            lite_conn.close()


def delete_thread(saver: BaseCheckpointSaver, thread_id: str) -> None:
    """Delete every checkpoint and pending write of a thread."""
    saver.delete_thread(thread_id)


def thread_exists(saver: BaseCheckpointSaver, thread_id: str) -> bool:
    return saver.get_tuple({"configurable": {"thread_id": thread_id}}) is not None


def thread_ids(saver: BaseCheckpointSaver) -> list[str]:
    """Every thread the store holds, sorted. SQLite and PostgreSQL are asked for the ids alone; any other saver
    is walked checkpoint by checkpoint."""
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.checkpoint.sqlite import SqliteSaver

    if isinstance(saver, SqliteSaver):
        ids = {str(row[0]) for row in saver.conn.execute(THREAD_IDS_SQL).fetchall()}
    elif isinstance(saver, PostgresSaver):
        from psycopg_pool import ConnectionPool

        with contextlib.ExitStack() as stack:
            conn = saver.conn
            if isinstance(conn, ConnectionPool):
                conn = stack.enter_context(conn.connection())
            rows = conn.execute(THREAD_IDS_SQL).fetchall()
        ids = {str(row["thread_id"] if isinstance(row, dict) else row[0]) for row in rows}
    else:
        ids = {str(t.config["configurable"]["thread_id"]) for t in saver.list(None)}
    return sorted(ids)


def latest_checkpoints(saver: BaseCheckpointSaver, *, served: bool = False) -> list[CheckpointTuple]:
    """Each thread's latest checkpoint. Threads a LangGraph server wrote belong to its callers (who list them
    through the server) and are left out unless ``served``."""
    latest = []
    for thread_id in thread_ids(saver):
        found = saver.get_tuple({"configurable": {"thread_id": thread_id}})
        if found is not None and (served or SERVED_KEY not in (found.metadata or {})):
            latest.append(found)
    return latest
