"""Errors a client of the served graph can read, through `langgraph dev` and the LangGraph SDK.

A malformed run setting is answered 422 naming the field; 403 is kept for values this caller may not use. A run
whose index cannot be opened, or whose model cannot be reached, ends as a failed run (status ``error``) with the
reason, and carries no result.
"""

from __future__ import annotations

import contextlib
import secrets
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.access import Served, write_auth_file
from tests.support.dev_server import dev_server, server_env
from tests.support.index import make_container_index

QUESTION = {"question": "Which supplier delivered Project Beta late?"}
BOB_DOCS = {"beta": ("Project Beta", "Project Beta was delivered late by the supplier Kessler.")}


@contextlib.contextmanager
def _closed_port() -> Iterator[int]:
    """A port every connection to is refused: bound, never listened on, and held while the test runs, so the server
    started next (which asks the system for a free port too) cannot be handed the same one."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("errors")
    make_container_index(str(tmp / "index"), {"bob-docs": BOB_DOCS})
    keys = {who: secrets.token_urlsafe(24) for who in ("alice", "bob", "root")}
    auth_file = tmp / "identities.json"
    write_auth_file(auth_file, keys)
    # The operator's index is not where the server is told it is (a volume that was not mounted).
    broken_index = tmp / "not-mounted"
    with _closed_port() as model_port:
        overrides = {
            "HOPGRAPH_INDEX": str(broken_index),
            "HOPGRAPH_CHECKPOINT_DB": str(tmp / "checkpoints.sqlite"),
            "HOPGRAPH_AUTH_FILE": str(auth_file),
            "HOPGRAPH_ALLOWED_MODELS": "builtin,openai:gone",
            "OPENAI_BASE_URL": f"http://127.0.0.1:{model_port}/v1",
            "OPENAI_API_KEY": "sk-operator",
            "HOPGRAPH_MODEL_TIMEOUT": "3",
            "HOPGRAPH_MAX_ACTIVE_RUNS": "8",
        }
        log_path = tmp / "server.log"
        with dev_server(server_env(**overrides), log_path) as url:
            yield Served(url=url, keys=keys, auth_file=auth_file, log_path=log_path, tmp=tmp)


async def _status(call: Any) -> tuple[int, str]:
    try:
        await call
    except httpx.HTTPStatusError as exc:
        return exc.response.status_code, exc.response.text
    return 200, ""


@pytest.mark.parametrize(("context", "field"), [
    ({"max_turns": "3"}, "'max_turns'"),
    ({"max_turns": 0}, "'max_turns'"),
    ({"search_limit": -5}, "'search_limit'"),
    ({"token_budget": 2.5}, "'token_budget'"),
    ({"mode": "essay"}, "'mode'"),
    ({"mode": 1}, "'mode'"),
    ({"profile": "slow"}, "'profile'"),
    ({"containers": "bob-docs"}, "'containers'"),
    ({"tags": [1]}, "'tags'"),
    ({"model": ["builtin"]}, "'model'"),
    ({"colour": "red"}, "'colour'"),
])
async def test_a_malformed_setting_is_422_naming_the_field(served: Served, context: dict[str, Any], field: str) -> None:
    bob = served.client("bob")
    status, text = await _status(bob.runs.wait(None, "hopgraph", input=QUESTION, context=context))
    assert status == 422, (status, text)
    assert field in text


@pytest.mark.parametrize(("context", "word"), [
    ({"max_turns": 500}, "ceiling"),
    ({"model": "openai:o3-pro"}, "not offered"),
    ({"containers": ["alice-docs"]}, "'alice-docs'"),
    ({"base_url": "http://elsewhere/v1"}, "'base_url'"),
    ({"index": "/tmp/elsewhere"}, "'index'"),
])
async def test_a_value_not_allowed_to_the_caller_is_403(served: Served, context: dict[str, Any], word: str) -> None:
    bob = served.client("bob")
    status, text = await _status(bob.runs.wait(None, "hopgraph", input=QUESTION, context=context))
    assert status == 403, (status, text)
    assert word in text


async def _failed_run(served: Served, context: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    bob = served.client("bob")
    thread = (await bob.threads.create())["thread_id"]
    result = await bob.runs.wait(thread, "hopgraph", input=QUESTION, context=context, raise_error=False)
    runs = await bob.runs.list(thread)
    assert len(runs) == 1
    return result, runs[0]


async def test_a_run_whose_index_cannot_be_opened_fails(served: Served) -> None:
    result, run = await _failed_run(served, {"model": "builtin"})
    assert run["status"] == "error", run
    error = result["__error__"]
    assert error["error"] == "RunFailed", error
    assert error["message"].startswith("backend_error: ") and "not-mounted" in error["message"], error
    assert "reported_ids" not in result and "answer" not in result


async def test_a_run_whose_model_cannot_be_reached_fails(served: Served) -> None:
    result, run = await _failed_run(served, {"model": "openai:gone", "mode": "answer"})
    assert run["status"] == "error", run
    error = result["__error__"]
    assert error["error"] == "RunFailed", error
    assert error["message"].startswith("model_error: ") and "could not be reached" in error["message"], error
    assert "answer" not in result


async def test_a_failed_run_streams_an_error_event(served: Served) -> None:
    bob = served.client("bob")
    thread = (await bob.threads.create())["thread_id"]
    events = [part async for part in bob.runs.stream(thread, "hopgraph", input=QUESTION, stream_mode="updates")]
    assert events[-1].event == "error", events
    assert events[-1].data["error"] == "RunFailed" and "backend_error" in events[-1].data["message"]
    assert not any(part.event == "updates" and "finalize" in (part.data or {}) for part in events)
