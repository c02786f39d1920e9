"""No route without a key: every route a real `langgraph dev` serves, asked over HTTP without a key, with bob's
key and with the admin's; CORS; how a credential is read; JWT limits; the size limits of a fair share.

The routes come from the server itself (its OpenAPI document lists every route of the assembled app: LangGraph's
API, its meta and internal routes, and the deploy routes of `langgraph dev`), so a route a new LangGraph version
adds is asked too. The module ends by printing the tally of attempts and requiring that every one held.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.access import Served, write_auth_file
from tests.support.dev_server import ROOT, dev_server, server_env
from tests.support.index import make_container_index

JWT_SECRET = "the-identity-providers-shared-secret"
ALLOWED_ORIGIN = "https://app.example.com"
ADMIN_ONLY = ("/internal/", "/metrics")
CLOSED = ("/deploy",)
# The routes the API documents were written for; an old server's route list must still be among them.
KNOWN = ("/ok", "/", "/info", "/metrics", "/docs", "/openapi.json", "/internal/truncate",
         "/internal/debug/thread/{thread_id}", "/deploy", "/deploy/{operation_id}/stream", "/threads", "/runs",
         "/store/items", "/assistants", "/mcp", "/a2a/{assistant_id}")

TALLY = {"attempts": 0, "held": 0}


@pytest.fixture(scope="module", autouse=True)
def report_tally() -> Iterator[None]:
    yield
    print(f"\nroute and credential attempts: {TALLY['attempts']}, held: {TALLY['held']}")
    assert TALLY["attempts"] == TALLY["held"]


def _held(ok: bool, what: str) -> None:
    TALLY["attempts"] += 1
    TALLY["held"] += ok
    assert ok, what


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("routes")
    index = make_container_index(str(tmp / "index"), {
        "alice-docs": {"alpha": ("Project Alpha", "Project Alpha was delivered late by the supplier Norvik.")},
        "bob-docs": {"beta": ("Project Beta", "Project Beta was delivered late by the supplier Kessler.")},
    })
    keys = {who: secrets.token_urlsafe(24) for who in ("alice", "bob", "root")}
    auth_file = tmp / "identities.json"
    write_auth_file(auth_file, keys)
    overrides = {
        "HOPGRAPH_INDEX": index,
        "HOPGRAPH_CHECKPOINT_DB": str(tmp / "checkpoints.sqlite"),
        "HOPGRAPH_AUTH_FILE": str(auth_file),
        "HOPGRAPH_JWT_SECRET": JWT_SECRET,
        "HOPGRAPH_CORS_ORIGINS": ALLOWED_ORIGIN,
        "HOPGRAPH_MAX_ACTIVE_RUNS": "8",
    }
    log_path = tmp / "server.log"
    with dev_server(server_env(**overrides), log_path) as url:
        yield Served(url=url, keys=keys, auth_file=auth_file, log_path=log_path, tmp=tmp)


def _routes(served: Served) -> list[tuple[str, str]]:
    spec = httpx.get(f"{served.url}/openapi.json", headers={"x-api-key": served.keys["root"]}, timeout=30).json()
    paths = spec["paths"]
    missing = [path for path in KNOWN if path not in paths]
    assert not missing, f"the server's route list lacks {missing}; it is not the route list it should be"
    routes = [(method.upper(), path) for path, ops in paths.items() for method in ops if method != "parameters"]
    return sorted(set(routes))


def _concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", lambda _: str(uuid.uuid4()), path)


def _ask(url: str, method: str, path: str, key: str | None) -> httpx.Response:
    headers = {"x-api-key": key} if key else {}
    body: dict[str, Any] | None = None if method in ("GET", "DELETE") else {}
    # A connection of its own: some of these routes fail with 500 (a random id LangGraph does not expect), and
    # the server then drops the connection.
    with httpx.Client(base_url=url, timeout=30) as http, \
            http.stream(method, _concrete(path), headers=headers, json=body) as response:
        # A stream (SSE) would run on: its status and headers are the answer here.
        if "text/event-stream" not in response.headers.get("content-type", ""):
            response.read()
        return response


def test_every_route_needs_a_key(served: Served) -> None:
    routes = _routes(served)
    assert len(routes) > 60, routes
    seen: dict[str, list[str]] = {"open": [], "admin": [], "closed": []}
    with httpx.Client(base_url=served.url, timeout=30) as http:
        for method, path in routes:
            bare = _ask(served.url, method, path, None)
            if (method, path) == ("GET", "/ok"):
                assert bare.status_code == 200
                seen["open"].append(path)
                continue
            _held(bare.status_code == 401, f"{method} {path} without a key: {bare.status_code} {bare.text[:200]}")
            assert "API key" in bare.text and "access-control-allow-origin" not in bare.headers
            bob = _ask(served.url, method, path, served.keys["bob"])
            assert bob.status_code != 401, f"{method} {path} with bob's key: {bob.status_code} {bob.text[:200]}"
            if any(path.startswith(prefix) for prefix in CLOSED):
                root = _ask(served.url, method, path, served.keys["root"])
                _held(bob.status_code == 403 and root.status_code == 403, f"{method} {path}: {root.status_code}")
                seen["closed"].append(path)
            elif any(path.startswith(prefix) for prefix in ADMIN_ONLY):
                _held(bob.status_code == 403 and "admin identities only" in bob.text,
                      f"{method} {path} with bob's key: {bob.status_code}")
                if method == "GET":
                    root = _ask(served.url, method, path, served.keys["root"])
                    assert root.status_code not in (401, 403), (method, path, root.status_code)
                seen["admin"].append(path)
        # A bare health check is bare: with a query it needs a key, as does a route that does not exist.
        _held(http.get("/ok", params={"check_db": "1"}).status_code == 401, "/ok?check_db=1 without a key")
        _held(http.get(f"/{uuid.uuid4()}").status_code == 401, "an unknown path without a key")
    assert {"/internal/truncate", "/internal/debug/thread/{thread_id}", "/metrics"} <= set(seen["admin"])
    assert {"/deploy", "/deploy/{operation_id}/stream"} <= set(seen["closed"])


def test_no_route_answers_any_origin(served: Served) -> None:
    bob = {"x-api-key": served.keys["bob"]}
    with httpx.Client(base_url=served.url, timeout=30) as http:
        for path in ("/info", "/ok", "/openapi.json"):
            for origin in ("https://evil.example.net", "null"):
                answer = http.get(path, headers={**bob, "Origin": origin})
                _held(answer.status_code == 200 and "access-control-allow-origin" not in answer.headers,
                      f"{path} from {origin}: {dict(answer.headers)}")
            listed = http.get(path, headers={**bob, "Origin": ALLOWED_ORIGIN})
            assert listed.headers.get("access-control-allow-origin") == ALLOWED_ORIGIN
        posted = http.post("/threads/search", json={}, headers={**bob, "Origin": "https://evil.example.net"})
        _held(posted.status_code == 200 and "access-control-allow-origin" not in posted.headers, "threads/search")
        preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-api-key"}
        unlisted = http.options("/threads/search", headers={**preflight, "Origin": "https://evil.example.net"})
        _held(unlisted.status_code == 401 and "access-control-allow-origin" not in unlisted.headers, "preflight")
        allowed = http.options("/threads/search", headers={**preflight, "Origin": ALLOWED_ORIGIN})
        assert allowed.status_code == 200 and allowed.headers["access-control-allow-origin"] == ALLOWED_ORIGIN


def test_a_credential_is_one_and_exact(served: Served) -> None:
    bob, alice = served.keys["bob"], served.keys["alice"]
    with httpx.Client(base_url=served.url, timeout=30) as http:
        def search(headers: Any) -> httpx.Response:
            return http.post("/threads/search", json={}, headers=headers)

        assert search({"x-api-key": bob}).status_code == 200
        assert search({"Authorization": f"Bearer {bob}"}).status_code == 200
        assert search({"x-api-key": bob, "Authorization": f"Bearer {bob}"}).status_code == 200
        for what, headers, word in (
            ("a key with a no-break space", {"x-api-key": bob.encode() + b"\xa0"}, "unknown API key"),
            ("a key with a space inside", {"x-api-key": f"{bob[:5]} {bob[5:]}"}, "unknown API key"),
            ("a key in another case", {"x-api-key": bob.swapcase()}, "unknown API key"),
            ("a Bearer with two spaces", {"Authorization": f"Bearer  {bob}"}, "unknown API key"),
            ("bob's key and alice's Bearer", {"x-api-key": bob, "Authorization": f"Bearer {alice}"}, "differ"),
            ("alice's key and a wrong Bearer", {"x-api-key": alice, "Authorization": "Bearer nope"}, "differ"),
            ("bob's key sent twice, then alice's", [("x-api-key", bob), ("x-api-key", alice)], "repeats"),
            ("a key next to Basic credentials", {"x-api-key": bob, "Authorization": "Basic Ym9iOmJvYg=="}, "kind"),
        ):
            answer = search(headers)
            _held(answer.status_code == 401 and word in answer.text, f"{what}: {answer.status_code} {answer.text}")


def _jwt(**claims: Any) -> str:
    import jwt

    body = {"sub": "carol", "containers": ["bob-docs"], "exp": int(time.time()) + 300, **claims}
    return jwt.encode(body, JWT_SECRET, algorithm="HS256")


async def test_jwt_lifetime_and_namespace(served: Served) -> None:
    from langgraph_sdk import get_client

    def bearer(token: str) -> Any:
        return get_client(url=served.url, headers={"Authorization": f"Bearer {token}"}, api_key=None)

    assert isinstance(await bearer(_jwt()).threads.search(limit=1), list)
    for claims in ({"exp": 10**10}, {"exp": int(time.time()) + 2 * 86_400}):
        try:
            await bearer(_jwt(**claims)).threads.search(limit=1)
            _held(False, f"a token with {claims} was accepted")
        except httpx.HTTPStatusError as exc:
            _held(exc.response.status_code == 401 and "lives longer" in exc.response.text, exc.response.text)
    # A token whose subject is "alice" names jwt:alice, not the access file's alice.
    alice = served.client("alice")
    tid = (await alice.threads.create())["thread_id"]
    await alice.store.put_item(("alice", "notes"), "n1", {"text": "alice's"})
    impostor = bearer(_jwt(sub="alice", containers=["alice-docs"]))
    for what, call, status in (
        ("get alice's thread", lambda: impostor.threads.get(tid), 404),
        ("read alice's store", lambda: impostor.store.get_item(("alice", "notes"), "n1"), 403),
        ("create a thread under alice's id", lambda: impostor.threads.create(thread_id=tid), 409),
    ):
        try:
            await call()
            _held(False, f"a jwt 'alice' could {what}")
        except httpx.HTTPStatusError as exc:
            _held(exc.response.status_code == status, f"{what}: {exc.response.status_code} {exc.response.text}")
    assert tid not in {t["thread_id"] for t in await impostor.threads.search(limit=100)}
    made = await impostor.threads.create()
    assert made["metadata"]["owner"] == "jwt:alice"


async def test_sizes_are_capped(served: Served) -> None:
    bob = served.client("bob")
    thread = (await bob.threads.create())["thread_id"]
    big = "x" * 20_000
    for what, call, env in (
        ("thread metadata", lambda: bob.threads.create(metadata={"note": big}), "HOPGRAPH_MAX_METADATA_BYTES"),
        ("metadata update", lambda: bob.threads.update(thread, metadata={"note": big}), "HOPGRAPH_MAX_METADATA_BYTES"),
        ("run metadata", lambda: bob.runs.create(thread, "hopgraph", input={"question": "Kessler?"},
                                                 metadata={"note": big}), "HOPGRAPH_MAX_METADATA_BYTES"),
        ("run input", lambda: bob.runs.create(thread, "hopgraph", input={"question": "Kessler? " + "x" * 140_000}),
         "HOPGRAPH_MAX_INPUT_BYTES"),
        ("store value", lambda: bob.store.put_item(("bob", "notes"), "big", {"text": "x" * 70_000}),
         "HOPGRAPH_MAX_STORE_VALUE_BYTES"),
        ("request body", lambda: bob.threads.create(metadata={f"k{i}": "x" * 1_000 for i in range(1_100)}),
         "HOPGRAPH_MAX_REQUEST_BYTES"),
    ):
        try:
            await call()
            _held(False, f"{what} was accepted")
        except httpx.HTTPStatusError as exc:
            _held(exc.response.status_code == 413 and env in exc.response.text, f"{what}: {exc.response.text[:200]}")
    assert [t for t in await bob.threads.search(limit=100) if "note" in t["metadata"]] == []
    # Within the limits, the same calls go through.
    await bob.threads.update(thread, metadata={"note": "short"})
    await bob.store.put_item(("bob", "notes"), "small", {"text": "x" * 1_000})


def test_the_production_image_serves_the_same_gate(tmp_path: Path) -> None:
    """What can be checked without Docker and a license: the image's settings name the gate, and it loads."""
    out = tmp_path / "Dockerfile"
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "langgraph"), "dockerfile", str(out), "-c", "langgraph.json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "LANGGRAPH_CLI_NO_ANALYTICS": "1", "HOME": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = re.search(r"^ENV LANGGRAPH_HTTP='(.*)'$", out.read_text(), re.M)
    assert found, out.read_text()
    http = json.loads(found.group(1))
    assert http["app"] == "hopgraph.serving.app:app" and http["disable_ui"] is True
    auth = re.search(r"^ENV LANGGRAPH_AUTH='(.*)'$", out.read_text(), re.M)
    assert auth and json.loads(auth.group(1))["path"] == "hopgraph.serving.auth:auth"

    def load(**env: str) -> subprocess.CompletedProcess[str]:
        base = {k: v for k, v in os.environ.items() if not k.startswith(("HOPGRAPH_", "MOUNT_PREFIX", "LANGGRAPH_"))}
        code = ("from starlette.applications import Starlette; from hopgraph.serving.app import app; "
                "from hopgraph.serving.gate import KeyGate; assert isinstance(app, Starlette); "
                "assert [m.cls for m in app.user_middleware] == [KeyGate]; print('gate')")
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                              env={**base, **env})

    ids = tmp_path / "ids.json"
    write_auth_file(ids, {"alice": "a", "bob": "b", "root": "r"})
    assert load(HOPGRAPH_AUTH_FILE=str(ids), LANGGRAPH_HTTP=json.dumps(http)).stdout.strip() == "gate"
    # A mount prefix would serve /metrics outside the gate: refused when access control is on.
    prefixed = load(HOPGRAPH_AUTH_FILE=str(ids), LANGGRAPH_HTTP=json.dumps({**http, "mount_prefix": "/api"}))
    assert prefixed.returncode != 0 and "mount prefix '/api' with access control" in prefixed.stderr
    assert load(LANGGRAPH_HTTP=json.dumps({**http, "mount_prefix": "/api"})).returncode == 0
    ordered = json.dumps({**http, "middleware_order": "auth_first"})
    auth_first = load(HOPGRAPH_AUTH_FILE=str(ids), LANGGRAPH_HTTP=ordered)
    assert auth_first.returncode != 0 and "middleware_order 'auth_first'" in auth_first.stderr


def test_the_mcp_route_runs_as_the_caller(served: Served) -> None:
    """LangGraph's /mcp runs the graph through its in-process client; hopgraph's rules still apply to the caller."""
    headers = {"x-api-key": served.keys["bob"], "Accept": "application/json, text/event-stream"}

    def call(arguments: dict[str, Any], context: dict[str, Any] | None = None) -> httpx.Response:
        params: dict[str, Any] = {"name": "hopgraph", "arguments": arguments}
        if context is not None:
            params["context"] = context
        return httpx.post(f"{served.url}/mcp", headers=headers, timeout=120,
                          json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})

    own = call({"question": "Which supplier delivered the project late?"})
    assert own.status_code == 200 and "'beta'" in own.text and "'alpha'" not in own.text, own.text
    for context in ({"containers": ["alice-docs"]}, {"base_url": "http://127.0.0.1:9/v1"}):
        refused = call({"question": "Which supplier delivered the project late?"}, context)
        # The run is refused before it is queued; LangGraph's MCP endpoint answers that with a bare 500.
        _held(refused.status_code == 500 and "alpha" not in refused.text, f"/mcp with {context}: {refused.text}")
