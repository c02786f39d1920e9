"""The route gate: with access control on, no route of the server answers without a valid credential.

LangGraph's custom auth covers the API routes it mounts as protected (threads, runs, assistants, store, MCP,
A2A). The rest answer without it: the health and meta routes (``/``, ``/info``, ``/metrics``, ``/docs``,
``/openapi.json``), the UI bundles (``GET /ui/...``, which langgraph.json turns off) and, in ``langgraph dev``,
``/internal/*`` and ``/deploy``.
``KeyGate`` is an ASGI middleware on the custom app that ``http.app`` in langgraph.json names; LangGraph puts a
custom app's middleware outside every route it serves, its own included, so the gate sees every request first:

- ``GET /ok`` with no query string (a bare health check) is the one request served without a credential.
- Everything else needs a credential that names an identity (``hopgraph.serving.credentials``), or gets 401.
- ``/internal/*`` (raw thread dumps, wiping every thread and run) and ``/metrics`` are for admin identities;
  ``/deploy`` (``langgraph deploy`` with the server's environment) is refused to everyone (403).
- A request body larger than ``HOPGRAPH_MAX_REQUEST_BYTES`` (default 1 MiB) gets 413 before the server reads it.
- No response carries ``Access-Control-Allow-Origin: *``: a browser origin is allowed only if the operator lists
  it in ``HOPGRAPH_CORS_ORIGINS`` (comma-separated), and then only that origin is named. A CORS preflight from a
  listed origin is answered without a credential (it carries none, and returns no data).

Requests the server makes to itself (its in-process client, which LangGraph marks with the ``/noauth`` root path,
a value no client can set) pass, as they pass LangGraph's own auth. Without an access file or JWT settings the
gate lets everything through, as the rest of the server does.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from hopgraph.serving.credentials import CredentialError, access_control_on, identify, presented_credential
from hopgraph.serving.limits import request_scope

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

MAX_REQUEST_ENV = "HOPGRAPH_MAX_REQUEST_BYTES"
DEFAULT_MAX_REQUEST = 1_048_576
CORS_ORIGINS_ENV = "HOPGRAPH_CORS_ORIGINS"
ADMIN_PREFIXES = ("/internal/", "/metrics")
CLOSED_PREFIXES = ("/deploy",)
_CORS_HEADERS = (b"access-control-allow-origin", b"access-control-allow-credentials",
                 b"access-control-expose-headers", b"access-control-allow-methods",
                 b"access-control-allow-headers", b"access-control-max-age")


def max_request_bytes() -> int:
    raw = (os.environ.get(MAX_REQUEST_ENV) or "").strip()
    try:
        return max(1, int(raw)) if raw else DEFAULT_MAX_REQUEST
    except ValueError:
        return DEFAULT_MAX_REQUEST


def allowed_origins() -> frozenset[str]:
    raw = os.environ.get(CORS_ORIGINS_ENV) or ""
    return frozenset(origin.strip().rstrip("/") for origin in raw.split(",") if origin.strip())


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == prefix.rstrip("/") or path.startswith(prefix.rstrip("/") + "/") for prefix in prefixes)


def _from_the_server_itself(scope: Scope) -> bool:
    root = scope.get("root_path") or ""
    return root == "/noauth" or root.startswith("/noauth/")


async def _refuse(scope: Scope, send: Send, status: int, detail: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})
        return
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class KeyGate:
    """ASGI middleware: every route behind a credential (see the module docstring)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not access_control_on() or _from_the_server_itself(scope):
            await self.app(scope, receive, send)
            return
        path = scope.get("path") or "/"
        method = scope.get("method") or ""
        origin = _header(scope, b"origin")
        listed = origin is not None and origin.rstrip("/") in allowed_origins()
        send = self._cors(send, origin if listed else None)
        if scope["type"] == "http" and method == "GET" and path == "/ok" and not scope.get("query_string"):
            await self.app(scope, receive, send)
            return
        if method == "OPTIONS" and listed and _header(scope, b"access-control-request-method") is not None:
            await self.app(scope, receive, send)
            return
        try:
            identity = await identify(presented_credential(scope.get("headers") or ()))
        except CredentialError as exc:
            await _refuse(scope, send, 401, str(exc))
            return
        if _under(path, CLOSED_PREFIXES):
            await _refuse(scope, send, 403, f"{path} is off on a server with access control; deploy from the "
                                            "operator's shell with `langgraph deploy`")
            return
        if _under(path, ADMIN_PREFIXES) and not identity.admin:
            await _refuse(scope, send, 403, f"{path} is for admin identities only")
            return
        if scope["type"] == "http":
            replay = await self._bounded_body(scope, receive, send)
            if replay is None:
                return
            receive = replay
        with request_scope():
            await self.app(scope, receive, send)

    @staticmethod
    async def _bounded_body(scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """Read the request body up to the limit and hand it on; None once a 413 has been sent."""
        top = max_request_bytes()
        declared = _header(scope, b"content-length")
        refusal = f"the request body is larger than this server's limit of {top} bytes ({MAX_REQUEST_ENV})"
        if declared is not None and declared.strip().isdigit() and int(declared) > top:
            await _refuse(scope, send, 413, refusal)
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                chunks = []
                pending: list[Message] = [message]
                break
            body = message.get("body", b"")
            size += len(body)
            if size > top:
                await _refuse(scope, send, 413, refusal)
                return None
            chunks.append(body)
            if not message.get("more_body"):
                pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]
                break

        async def replay() -> Message:
            if pending:
                return pending.pop(0)
            return await receive()

        return replay

    @staticmethod
    def _cors(send: Send, origin: str | None) -> Send:
        """Drop every CORS header, or name only the listed origin the request came from."""

        async def rewritten(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers") or () if k.lower() not in _CORS_HEADERS
                           or (origin is not None and k.lower() != b"access-control-allow-origin")]
                if origin is not None and any(k.lower() == b"access-control-allow-origin"
                                              for k, _ in message.get("headers") or ()):
                    headers.append((b"access-control-allow-origin", origin.encode("latin-1")))
                    headers.append((b"vary", b"Origin"))
                message = {**message, "headers": headers}
            await send(message)

        return rewritten
