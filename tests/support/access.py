"""What the access-control tests of the served graph use: a tally of attempts that must fail, a listener at
an address a client might name, and the operator's access file."""

from __future__ import annotations

import json
import os
import socketserver
import threading
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from langgraph_sdk import get_client

from hopgraph.serving.identities import key_sha256


@dataclass
class Tally:
    """Cross-identity and operator-setting attempts, and how many of them got through."""

    attempts: dict[str, int] = field(default_factory=lambda: {"cross_identity": 0, "operator_setting": 0})
    leaks: list[str] = field(default_factory=list)

    async def refused(self, kind: str, what: str, call: Awaitable[Any], status: int) -> str:
        """Count one attempt that must fail with ``status``; the refusal's message."""
        self.attempts[kind] += 1
        try:
            result = await call
        except httpx.HTTPStatusError as exc:  # the SDK's APIStatusError, or plain httpx from streams
            if exc.response.status_code != status:
                self.leaks.append(f"{what}: status {exc.response.status_code}, expected {status}")
            return exc.response.text
        self.leaks.append(f"{what}: succeeded with {str(result)[:200]}")
        return ""

    async def as_if_missing(self, what: str, call: Callable[[str, str], Awaitable[Any]], ids: tuple[str, str],
                            secrets_: list[str]) -> None:
        """Count one attempt on another identity's thread and run; it must answer as for ids that do not exist."""
        self.attempts["cross_identity"] += 1
        real = await _outcome(call(*ids))
        missing_ids = (str(uuid.uuid4()), str(uuid.uuid4()))
        missing = await _outcome(call(*missing_ids))
        for real_id, missing_id in zip(ids, missing_ids, strict=True):
            real = real.replace(real_id, "<id>")
            missing = missing.replace(missing_id, "<id>")
        if real != missing or any(text in real for text in secrets_):
            self.leaks.append(f"{what}: {real[:300]} (a missing thread gives: {missing[:300]})")


async def _outcome(call: Awaitable[Any]) -> str:
    """What a call told its caller: the error status and body, or the result."""
    try:
        return f"ok {json.dumps(await call, default=str, sort_keys=True)}"
    except httpx.HTTPStatusError as exc:
        return f"status {exc.response.status_code} {exc.response.text}"


class Listener:
    """A TCP server at an address a client might name; records every connection made to it."""

    def __init__(self) -> None:
        connections = self.connections = []  # type: list[bytes]

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                self.request.settimeout(2)
                try:
                    connections.append(self.request.recv(65536))
                except OSError:
                    connections.append(b"")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@dataclass
class Served:
    url: str
    keys: dict[str, str]
    auth_file: Path
    log_path: Path
    tmp: Path

    def client(self, who: str | None) -> Any:
        return get_client(url=self.url, api_key=self.keys[who] if who else None)


def write_auth_file(path: Path, keys: dict[str, str], *, without: tuple[str, ...] = ()) -> None:
    identities: list[dict[str, Any]] = [
        {"id": "alice", "key_sha256": [key_sha256(keys["alice"])], "containers": ["alice-docs", "shared"]},
        {"id": "bob", "key_sha256": [key_sha256(keys["bob"])], "containers": ["bob-docs"]},
        {"id": "root", "key_sha256": [key_sha256(keys["root"])], "containers": [], "admin": True},
    ]
    removed = {key_sha256(keys[who]) for who in without}
    for identity in identities:
        identity["key_sha256"] = [h for h in identity["key_sha256"] if h not in removed]
    staged = path.with_suffix(".new")
    staged.write_text(json.dumps({"identities": identities}))
    os.replace(staged, path)  # the way an operator's tooling swaps a file: never half-written


