"""A fair share of the server per identity: how many runs it may have waiting or running, how large what it
sends may be.

Operator settings (environment of the server):

    HOPGRAPH_MAX_ACTIVE_RUNS         runs one identity may have pending or running at once; default: half the
                                     server's runs at a time (N_JOBS_PER_WORKER), at least 1
    HOPGRAPH_MAX_METADATA_BYTES      thread and run metadata, as JSON (default 16384)
    HOPGRAPH_MAX_INPUT_BYTES         a run's input and command, as JSON (default 131072)
    HOPGRAPH_MAX_STORE_VALUE_BYTES   one store item's value, as JSON (default 65536)

They apply with access control on (an open server has no identities to share among). The server runs pending
runs oldest first, so capping what one identity has in the queue is what keeps its runs
from taking every worker: with the default, another identity's run finds a free worker while one identity has
as many runs as it may. A run beyond the cap is refused with 429 before it is queued; a value beyond its size
is refused with 413. Both name the setting. The count comes from the server's own record of runs (through its
in-process client), so it holds across restarts and, in the production image, across replicas. A run admitted
here is counted as well until the request that asked for it ends (by then the server's record has it, or it was
refused), so a burst of requests cannot slip past the cap between the count and the record.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal

log = logging.getLogger("hopgraph.serving")

ACTIVE_RUNS_ENV = "HOPGRAPH_MAX_ACTIVE_RUNS"
SIZES: dict[str, tuple[str, int]] = {
    "metadata": ("HOPGRAPH_MAX_METADATA_BYTES", 16_384),
    "input": ("HOPGRAPH_MAX_INPUT_BYTES", 131_072),
    "store value": ("HOPGRAPH_MAX_STORE_VALUE_BYTES", 65_536),
}
# How long an admitted run is counted from here at most, when no request scope ends it earlier.
_RESERVATION_S = 30.0
# The runs admitted during the current request, released when the request ends.
_REQUEST_RUNS: ContextVar[list[tuple[ActiveRuns, str, str]] | None] = ContextVar("hopgraph_request_runs",
                                                                                 default=None)
_ACTIVE: tuple[Literal["pending"], Literal["running"]] = ("pending", "running")


class LimitError(Exception):
    """A request beyond an operator limit; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _setting(env: str, default: int) -> int:
    raw = (os.environ.get(env) or "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise LimitError(500, f"the server's {env} is not a whole number ({raw!r}); ask the operator to fix it") \
            from None
    return max(1, value)


def workers() -> int:
    """How many runs this server process executes at once (LangGraph's N_JOBS_PER_WORKER)."""
    try:
        return max(1, int(os.environ.get("N_JOBS_PER_WORKER") or 10))
    except ValueError:
        return 10


def max_active_runs() -> int:
    return _setting(ACTIVE_RUNS_ENV, max(1, workers() // 2))


def check_size(what: str, value: Any) -> None:
    """Refuse (413) a value whose JSON form is larger than the operator allows for ``what``."""
    if value is None:
        return
    env, default = SIZES[what]
    top = _setting(env, default)
    size = len(json.dumps(value, default=str, ensure_ascii=False).encode("utf-8"))
    if size > top:
        raise LimitError(413, f"the {what} is {size} bytes, above this server's limit of {top} ({env})")


def startup_warning() -> str | None:
    """What to tell the operator when one identity may fill every worker."""
    cap, slots = max_active_runs(), workers()
    if cap < slots:
        return None
    return (f"one identity may have {cap} runs at once ({ACTIVE_RUNS_ENV}) and the server runs {slots} at a time: "
            f"one identity can keep every other waiting; start more workers (langgraph dev --n-jobs-per-worker, "
            f"N_JOBS_PER_WORKER) or lower {ACTIVE_RUNS_ENV}")


class ActiveRuns:
    """Admission of runs per identity against HOPGRAPH_MAX_ACTIVE_RUNS."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._admitted: dict[str, dict[str, float]] = {}

    async def admit(self, identity: str, run_id: Any, count: Any) -> None:
        """Admit one more run of ``identity`` or raise LimitError(429).

        ``count(identity)`` returns the ids of the identity's pending and running runs, as the server knows them.
        """
        cap = max_active_runs()
        lock = self._locks.setdefault(identity, asyncio.Lock())
        async with lock:
            known = set(await count(identity))
            now = time.monotonic()
            admitted = {rid: at for rid, at in self._admitted.get(identity, {}).items()
                        if now - at < _RESERVATION_S and rid not in known}
            active = len(known) + len(admitted)
            if active >= cap:
                self._admitted[identity] = admitted
                raise LimitError(429, f"'{identity}' already has {active} runs waiting or running, this server's "
                                      f"limit per identity ({cap}, {ACTIVE_RUNS_ENV}); wait for one to finish")
            if run_id:
                admitted[str(run_id)] = now
                scope = _REQUEST_RUNS.get()
                if scope is not None:
                    scope.append((self, identity, str(run_id)))
            self._admitted[identity] = admitted

    def release(self, identity: str, run_id: str) -> None:
        """Stop counting an admitted run here: the server's record has it now, or never will."""
        self._admitted.get(identity, {}).pop(run_id, None)


ACTIVE_RUNS = ActiveRuns()


@contextmanager
def request_scope() -> Iterator[None]:
    """Around one request: the runs it was admitted are released from the local count when it ends."""
    token = _REQUEST_RUNS.set([])
    try:
        yield
    finally:
        for counter, identity, run_id in _REQUEST_RUNS.get() or []:
            counter.release(identity, run_id)
        _REQUEST_RUNS.reset(token)


async def active_run_ids(identity: str) -> list[str]:
    """The ids of an identity's pending and running runs, from the server's own record (in-process client)."""
    from langgraph_sdk import get_client

    client = get_client(url=None, api_key=None)
    ids: list[str] = []
    offset = 0
    while True:
        page = await client.threads.search(metadata={"owner": identity}, status="busy", limit=100, offset=offset)
        for thread in page:
            for status in _ACTIVE:
                ids.extend(str(run["run_id"]) for run in await client.runs.list(thread["thread_id"], status=status,
                                                                                 limit=100))
        if len(page) < 100:
            return ids
        offset += 100
