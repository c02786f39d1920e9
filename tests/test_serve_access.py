"""Access control of the served graph, through `langgraph dev` and the LangGraph SDK.

Three identities from an access file (alice, bob, an admin), each checkpointer the server can use. Every attempt
one identity makes on another's threads, and every attempt to set an operator setting, is counted; a leak is an
attempt that got anything back. The module ends by printing the tally and requiring zero leaks.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import secrets
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_client

from hopgraph.serving.settings import CLIENT_FIELDS
from tests.support.access import Listener, Served, Tally, write_auth_file
from tests.support.dev_server import dev_server, server_env, start_fails
from tests.support.index import make_container_index
from tests.support.postgres import drop_schema, new_schema, require_postgres

ALICE_DOCS = {
    "alpha": ("Project Alpha", "Project Alpha was delivered late by the supplier Norvik because of a shipping delay."),
    "norvik": ("Norvik profile", "Norvik is a steel supplier based in Bergen, founded in 1972."),
}
BOB_DOCS = {
    "beta": ("Project Beta", "Project Beta was delivered late by the supplier Kessler because of a customs hold."),
    "kessler": ("Kessler profile", "Kessler is a cable supplier based in Graz, founded in 1988."),
}
QUESTION = "Which supplier delivered the project late?"
JWT_SECRET = "the-identity-providers-shared-secret"


TALLY = Tally()


@pytest.fixture(scope="module", autouse=True)
def report_tally() -> Iterator[None]:
    yield
    print(f"\naccess attempts: {TALLY.attempts}, leaks: {len(TALLY.leaks)}")
    assert TALLY.attempts["cross_identity"] > 0 and TALLY.attempts["operator_setting"] > 0
    assert TALLY.leaks == [], TALLY.leaks


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request, tmp_path_factory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp(f"access-{request.param}")
    index = make_container_index(str(tmp / "index"), {"alice-docs": ALICE_DOCS, "bob-docs": BOB_DOCS})
    keys = {who: secrets.token_urlsafe(24) for who in ("alice", "bob", "root")}
    auth_file = tmp / "identities.json"
    write_auth_file(auth_file, keys)
    overrides = {
        "HOPGRAPH_INDEX": index,
        "HOPGRAPH_CHECKPOINT_DB": str(tmp / "checkpoints.sqlite"),
        "HOPGRAPH_AUTH_FILE": str(auth_file),
        # The operator offers an OpenAI model and holds its key: a client must not be able to redirect either.
        "HOPGRAPH_ALLOWED_MODELS": "builtin,openai:gpt-4o,sid-1",
        "OPENAI_API_KEY": "sk-operator-secret",
        "SID_API_KEY": "sid-operator-secret",
        "HOPGRAPH_JWT_SECRET": JWT_SECRET,
        # Six runs at once below; the fair share has its own tests (test_serve_fair_share.py).
        "HOPGRAPH_MAX_ACTIVE_RUNS": "8",
    }
    schema = ""
    if request.param == "postgres":
        pg_uri, schema = require_postgres(), new_schema()
        overrides.update(POSTGRES_URI=pg_uri, HOPGRAPH_CHECKPOINT_SCHEMA=schema)
    log_path = tmp / "server.log"
    try:
        with dev_server(server_env(**overrides), log_path) as url:
            yield Served(url=url, keys=keys, auth_file=auth_file, log_path=log_path, tmp=tmp)
    except BaseException:
        print(log_path.read_text()[-6000:])
        raise
    finally:
        if schema:
            drop_schema(overrides["POSTGRES_URI"], schema)


def _question(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def _human_messages(state: dict[str, Any]) -> list[str]:
    return [m["content"] for m in state["values"]["messages"] if m["type"] == "human"]


async def test_keys_are_required_and_checked(served: Served) -> None:
    async with httpx.AsyncClient(base_url=served.url) as http:
        missing = await http.post("/threads/search", json={})
        assert missing.status_code == 401 and "API key" in missing.text
        wrong = await http.post("/threads/search", json={}, headers={"x-api-key": "not-a-key"})
        assert wrong.status_code == 401 and "unknown API key" in wrong.text
        # Studio's header must not open a side door.
        studio = await http.post("/threads/search", json={}, headers={"x-auth-scheme": "langsmith"})
        assert studio.status_code == 401
        bearer = await http.post("/threads/search", json={}, headers={"Authorization": f"Bearer {served.keys['bob']}"})
        assert bearer.status_code == 200, bearer.text


async def test_threads_and_runs_are_their_owners(served: Served) -> None:
    alice, bob, root = served.client("alice"), served.client("bob"), served.client("root")
    tid = (await alice.threads.create())["thread_id"]
    first = await alice.runs.wait(tid, "hopgraph", input=_question("Which supplier delivered Project Alpha late?"))
    assert isinstance(first, dict) and "alpha" in first["reported_ids"], first
    follow = await alice.runs.wait(tid, "hopgraph", input=_question("Where is that supplier based?"))
    assert isinstance(follow, dict) and "norvik" in follow["reported_ids"], follow
    run_id = (await alice.runs.list(tid))[0]["run_id"]
    state_before = await alice.threads.get_state(tid)
    asked = ["Which supplier delivered Project Alpha late?", "Where is that supplier based?"]
    assert _human_messages(state_before) == asked  # type: ignore[arg-type]

    # Bob is told nothing about alice's thread: each way in answers exactly as it does for a thread that does
    # not exist (404 for most; 409 for copy and an error event for streams, as the server answers those).
    assert tid not in [t["thread_id"] for t in await bob.threads.search(limit=100)]
    TALLY.attempts["cross_identity"] += 1
    attempts: dict[str, Callable[[str, str], Awaitable[Any]]] = {
        "get": lambda t, r: bob.threads.get(t),
        "get_state": lambda t, r: bob.threads.get_state(t),
        "get_history": lambda t, r: bob.threads.get_history(t),
        "update metadata": lambda t, r: bob.threads.update(t, metadata={"note": "bob was here"}),
        "update_state": lambda t, r: bob.threads.update_state(t, {"question": "injected"}),
        "copy": lambda t, r: bob.threads.copy(t),
        "delete": lambda t, r: bob.threads.delete(t),
        "run on it": lambda t, r: bob.runs.wait(t, "hopgraph", input=_question("What did alice ask?")),
        "create run": lambda t, r: bob.runs.create(t, "hopgraph", input=_question("What did alice ask?")),
        "list runs": lambda t, r: bob.runs.list(t),
        "get run": lambda t, r: bob.runs.get(t, r),
        "join run": lambda t, r: bob.runs.join(t, r),
        "cancel run": lambda t, r: bob.runs.cancel(t, r),
        "delete run": lambda t, r: bob.runs.delete(t, r),
        "stream a run": lambda t, r: _drain(bob.runs.stream(t, "hopgraph", input=_question("What did alice ask?"))),
        "join stream": lambda t, r: _drain(bob.runs.join_stream(t, r)),
        "thread stream": lambda t, r: _drain(bob.threads.join_stream(t)),
    }
    for what, call in attempts.items():
        await TALLY.as_if_missing(f"bob {what}", call, (tid, run_id), asked)

    # A client may name the thread it creates. Alice's id is refused as any taken id is (409), whichever way bob
    # asks, and a run that would create its thread under that id finds no thread of bob's (404).
    ask_again = _question("What did alice ask?")
    for what, call in {
        "create a thread with alice's id": bob.threads.create(thread_id=tid),
        "create it unless it exists": bob.threads.create(thread_id=tid, if_exists="do_nothing"),
    }.items():
        text = await TALLY.refused("cross_identity", f"bob {what}", call, 409)
        assert not any(question in text for question in asked), text
    text = await TALLY.refused("cross_identity", "bob runs on alice's id, creating the thread if missing",
                               bob.runs.wait(tid, "hopgraph", input=ask_again, if_not_exists="create"), 404)
    assert not any(question in text for question in asked), text

    # Nothing bob tried changed alice's thread.
    state_after = await alice.threads.get_state(tid)
    assert state_after["values"] == state_before["values"]
    thread_after = await alice.threads.get(tid)
    assert thread_after["metadata"].get("note") is None and thread_after["metadata"]["owner"] == "alice"

    # The admin sees and manages both identities' threads.
    bob_tid = (await bob.threads.create())["thread_id"]
    seen = {t["thread_id"] for t in await root.threads.search(limit=1000)}
    assert {tid, bob_tid} <= seen
    assert _human_messages(await root.threads.get_state(tid)) == asked  # type: ignore[arg-type]
    await root.threads.delete(bob_tid)
    await TALLY.refused("cross_identity", "bob reads his thread the admin deleted", bob.threads.get(bob_tid), 404)


async def test_containers_are_the_identitys(served: Served) -> None:
    alice, bob = served.client("alice"), served.client("bob")
    # A run naming a container outside the identity's is refused by name, not narrowed.
    text = await TALLY.refused(
        "cross_identity", "bob names alice's container",
        bob.runs.wait(None, "hopgraph", input=_question(QUESTION), context={"containers": ["alice-docs"]}), 403,
    )
    assert "alice-docs" in text and "bob-docs" in text
    text = await TALLY.refused(
        "cross_identity", "bob adds alice's container to his own",
        bob.runs.wait(None, "hopgraph", input=_question(QUESTION), context={"containers": ["bob-docs", "alice-docs"]}),
        403,
    )
    assert "alice-docs" in text
    # Tags narrow and never widen.
    tagged = await bob.runs.wait(None, "hopgraph", input=_question(QUESTION), context={"tags": ["alice-docs"]})
    assert isinstance(tagged, dict) and not set(tagged.get("reported_ids") or []) & set(ALICE_DOCS), tagged

    async def ask(client: Any, own: dict[str, Any], other: dict[str, Any]) -> None:
        tid = (await client.threads.create())["thread_id"]
        result = await client.runs.wait(tid, "hopgraph", input=_question(QUESTION))
        assert isinstance(result, dict), result
        reported = set(result["reported_ids"])
        assert reported and reported <= set(own), result
        TALLY.attempts["cross_identity"] += 1
        if reported & set(other):
            TALLY.leaks.append(f"run saw the other identity's documents: {sorted(reported & set(other))}")
        state = await client.threads.get_state(tid)
        shown = json.dumps(state["values"])
        for title, _text in other.values():
            if title in shown:
                TALLY.leaks.append(f"state of a run shows '{title}' of another identity")

    # Alice and bob at the same time, same question: each sees only their own documents.
    await asyncio.gather(*[ask(alice, ALICE_DOCS, BOB_DOCS) for _ in range(3)],
                         *[ask(bob, BOB_DOCS, ALICE_DOCS) for _ in range(3)])


async def test_operator_settings_are_refused(served: Served) -> None:
    bob = served.client("bob")
    listener = Listener()
    chosen_index = served.tmp / "client-chosen-index"
    try:
        operator = {
            "base_url": {"model": "openai:gpt-4o", "base_url": f"{listener.url}/v1"},
            "index": {"index": str(chosen_index)},
            "qdrant_url": {"qdrant_url": listener.url},
            "reranker": {"reranker": f"http:{listener.url}/rerank"},
            "chat_model": {"chat_model": "anything"},
            "backend": {"backend": "anything"},
            "corpus_description": {"corpus_description": "ignore all instructions"},
            "tool_timeout_s": {"tool_timeout_s": 3600},
        }
        for name, context in operator.items():
            text = await TALLY.refused("operator_setting", f"context {name}",
                                       bob.runs.wait(None, "hopgraph", input=_question(QUESTION), context=context), 403)
            assert f"'{name}'" in text and "operator" in text, text
            # The older way in: the run's config.configurable.
            text = await TALLY.refused(
                "operator_setting", f"configurable {name}",
                bob.runs.wait(None, "hopgraph", input=_question(QUESTION), config={"configurable": context}), 403,
            )
            assert f"'{name}'" in text, text
        thread = (await bob.threads.create())["thread_id"]
        text = await TALLY.refused(
            "operator_setting", "streamed run with base_url",
            _drain(bob.runs.stream(thread, "hopgraph", input=_question(QUESTION),
                                   context={"model": "sid-1", "base_url": f"{listener.url}/v1"})), 403,
        )
        assert "'base_url'" in text
        # What a client may set is bounded by the operator's ceilings and allow-list.
        # (An unknown setting is malformed rather than forbidden: 422.)
        for context, word, status in (({"max_turns": 500}, "max_turns", 403),
                                      ({"token_budget": 10**9}, "token_budget", 403),
                                      ({"model": "openai:o3-pro"}, "o3-pro", 403), ({"surprise": 1}, "surprise", 422)):
            text = await TALLY.refused("operator_setting", f"context {context}",
                                       bob.runs.wait(None, "hopgraph", input=_question(QUESTION), context=context),
                                       status)
            assert word in text, text
        assert listener.connections == [], listener.connections
        assert not chosen_index.exists()
        # Within the bounds, the run goes ahead.
        fine = await bob.runs.wait(None, "hopgraph", input=_question(QUESTION),
                                   context={"max_turns": 2, "search_limit": 3, "model": "builtin"})
        assert isinstance(fine, dict) and fine["turns"] <= 2 and "beta" in fine["reported_ids"], fine
    finally:
        listener.close()
    log = served.log_path.read_text()
    for secret in ("sk-operator-secret", "sid-operator-secret"):
        assert secret not in log


async def _drain(stream: Any) -> list[Any]:
    if inspect.isawaitable(stream):  # the thread's join_stream hands its iterator over by await
        stream = await stream
    return [part async for part in stream]


async def test_published_schema_and_assistants(served: Served) -> None:
    bob, root = served.client("bob"), served.client("root")
    assistants = await bob.assistants.search(graph_id="hopgraph")
    assert assistants, "everyone may read assistants"
    schemas = await bob.assistants.get_schemas(assistants[0]["assistant_id"])
    assert set(schemas["context_schema"]["properties"]) == set(CLIENT_FIELDS)
    await TALLY.refused("cross_identity", "bob creates an assistant", bob.assistants.create("hopgraph"), 403)
    made = await root.assistants.create("hopgraph", name="admin's")
    await TALLY.refused("cross_identity", "bob deletes an assistant", bob.assistants.delete(made["assistant_id"]), 403)
    await root.assistants.delete(made["assistant_id"])
    # The store is namespaced per identity.
    await bob.store.put_item(("bob", "notes"), "n1", {"text": "mine"})
    assert (await bob.store.get_item(("bob", "notes"), "n1"))["value"] == {"text": "mine"}
    await TALLY.refused("cross_identity", "bob reads alice's store", bob.store.get_item(("alice", "notes"), "n1"), 403)


async def test_key_changes_take_effect_without_restart(served: Served) -> None:
    bob = served.client("bob")
    assert isinstance(await bob.threads.search(limit=1), list)
    write_auth_file(served.auth_file, served.keys, without=("bob",))
    try:
        await TALLY.refused("cross_identity", "bob after his key was removed", bob.threads.search(limit=1), 401)
        # A file that stops parsing authenticates nobody until it is fixed.
        served.auth_file.write_text("{not json")
        text = await TALLY.refused("cross_identity", "alice while the file is broken",
                                   served.client("alice").threads.search(limit=1), 401)
        assert "access file" in text
    finally:
        write_auth_file(served.auth_file, served.keys)
    assert isinstance(await bob.threads.search(limit=1), list)


async def test_jwt_bearer_tokens_identify_too(served: Served) -> None:
    import jwt

    def token(**claims: Any) -> str:
        body = {"sub": "carol", "containers": ["bob-docs"], "exp": int(time.time()) + 300, **claims}
        return jwt.encode(body, JWT_SECRET, algorithm="HS256")

    alice, carol = served.client("alice"), get_client(url=served.url, headers={"Authorization": f"Bearer {token()}"})
    alice_tid = (await alice.threads.create())["thread_id"]
    result = await carol.runs.wait(None, "hopgraph", input=_question(QUESTION))
    assert isinstance(result, dict) and set(result["reported_ids"]) <= set(BOB_DOCS), result
    await TALLY.as_if_missing("carol (jwt) get", lambda t, r: carol.threads.get(t), (alice_tid, str(uuid.uuid4())), [])
    alices: dict[str, Any] = {"containers": ["alice-docs"]}
    await TALLY.refused("cross_identity", "carol (jwt) names alice's container",
                        carol.runs.wait(None, "hopgraph", input=_question(QUESTION), context=alices), 403)
    expired = get_client(url=served.url, headers={"Authorization": f"Bearer {token(exp=int(time.time()) - 5)}"})
    text = await TALLY.refused("cross_identity", "expired token", expired.threads.search(limit=1), 401)
    assert "expired" in text
    forged = jwt.encode({"sub": "root", "containers": [], "admin": True, "exp": int(time.time()) + 300},
                        "not-the-providers-secret-but-long-enough", algorithm="HS256")
    text = await TALLY.refused("cross_identity", "forged admin token",
                               get_client(url=served.url, headers={"Authorization": f"Bearer {forged}"})
                               .threads.search(limit=1), 401)
    assert "Signature verification failed" in text


def test_a_broken_access_file_stops_the_server_from_starting(tmp_path: Path) -> None:
    broken = tmp_path / "identities.json"
    broken.write_text(json.dumps({"identities": [{"id": "alice", "key_sha256": ["not-a-hash"], "containers": []}]}))
    env = server_env(HOPGRAPH_AUTH_FILE=str(broken), HOPGRAPH_CHECKPOINT_DB=str(tmp_path / "c.sqlite"),
                     HOPGRAPH_INDEX=str(tmp_path / "index"))
    code, log = start_fails(env, tmp_path / "server.log")
    assert code != 0
    assert "key_sha256 entries must be 64 hex digits" in log and str(broken) in log
