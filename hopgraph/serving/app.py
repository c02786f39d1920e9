"""The custom app that ``http.app`` in langgraph.json names: no routes of its own, the route gate around all of
LangGraph's, and a startup step.

At startup it tells the operator once when one identity may fill every worker (``hopgraph.serving.limits``),
and, on the in-memory runtime of ``langgraph dev``, gives back the threads the server lost while hopgraph's
checkpointer kept them (``hopgraph.serving.owners.restore_threads``), each with its recorded owner.

With access control on, two HTTP settings are refused at startup: a mount prefix (``http.mount_prefix``,
``MOUNT_PREFIX``), with which LangGraph serves ``/ok`` and ``/metrics`` from an app outside this one, and
``http.middleware_order: "auth_first"``, which puts LangGraph's CORS handling outside the gate.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware

from hopgraph.serving import limits, owners
from hopgraph.serving.credentials import access_control_on
from hopgraph.serving.gate import KeyGate

log = logging.getLogger("hopgraph.serving")


def _check_http_settings() -> None:
    try:
        http = json.loads(os.environ.get("LANGGRAPH_HTTP") or "{}") or {}
    except ValueError:
        http = {}
    prefix = os.environ.get("MOUNT_PREFIX") or os.environ.get("LANGGRAPH_MOUNT_PREFIX") or http.get("mount_prefix")
    if not access_control_on():
        return
    if prefix:
        raise RuntimeError(f"mount prefix {prefix!r} with access control: the server would then answer /metrics "
                           "outside the route gate; serve without a mount prefix (put a proxy in front instead)")
    if http.get("middleware_order") == "auth_first":
        raise RuntimeError("http.middleware_order 'auth_first' with access control: it moves the route gate inside "
                           "the server's CORS handling; leave middleware_order unset")


def _graph_ids() -> list[str]:
    try:
        return list(json.loads(os.environ.get("LANGSERVE_GRAPHS") or "{}"))
    except ValueError:
        return []


async def _restore() -> None:
    if os.environ.get("MIGRATIONS_PATH") != "__inmem":
        return  # the production runtime keeps its threads in PostgreSQL
    saver = owners.active_saver()
    if saver is None:
        return
    from langgraph_sdk import get_client

    client = get_client(url=None, api_key=None)

    async def create(thread_id: str, metadata: dict[str, Any]) -> bool:
        import httpx

        try:
            await client.threads.get(thread_id)
            return False
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code != 404:
                raise
        await client.threads.create(thread_id=thread_id, metadata=metadata, if_exists="do_nothing")
        return True

    restored = await owners.restore_threads(saver, create, _graph_ids())
    if restored:
        log.warning("restored %d thread(s) the server had lost, from the checkpointer, with their owners", restored)


@asynccontextmanager
async def lifespan(_app: Starlette) -> AsyncIterator[None]:
    if access_control_on():
        warning = limits.startup_warning()
        if warning:
            log.warning(warning)
        if not owners.configured():
            log.warning("the checkpointer is not hopgraph's: thread owners are kept in the server's own store "
                        "alone, so an id whose thread that store loses is free for anyone (see docs/deploy.md)")
    await _restore()
    yield


_check_http_settings()
app = Starlette(middleware=[Middleware(KeyGate)], lifespan=lifespan)
