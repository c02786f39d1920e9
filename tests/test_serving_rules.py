"""The rules behind the served graph's access control, without a server: the access file, run settings, containers."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from hopgraph.access import run_containers
from hopgraph.config import DEFAULT_CONTAINER, Context
from hopgraph.errors import AccessError
from hopgraph.serving.bearer_tokens import TokenError, TokenSetupError, verifier_from_env
from hopgraph.serving.identities import AuthFileError, IdentityFile, key_sha256, load_file
from hopgraph.serving.settings import (
    CLIENT_FIELDS,
    OPERATOR_FIELDS,
    ServedContext,
    SettingError,
    check_client_settings,
    served_context,
)


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def _identity(ident: str, *keys: str, containers: list[str] | None = None, admin: bool = False) -> dict[str, Any]:
    return {"id": ident, "key_sha256": [key_sha256(k) for k in keys], "containers": containers or [], "admin": admin}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{oops", "not valid JSON (line 1, column 2"),
        ([], 'a JSON object with an "identities" list'),
        ({"identities": [], "extra": 1}, "unknown top-level field(s): extra"),
        ({"identities": [{"key_sha256": ["a" * 64]}]}, 'identity 1 needs a non-empty string "id"'),
        ({"identities": [{"id": "a", "key_sha256": []}]}, "identity 'a' needs \"key_sha256\""),
        ({"identities": [{"id": "a", "key_sha256": ["secret"]}]}, "64 hex digits"),
        ({"identities": [{"id": "a", "key_sha256": ["a" * 64], "containers": "legal"}]}, "list of non-empty strings"),
        ({"identities": [{"id": "a", "key_sha256": ["a" * 64], "admin": "yes"}]}, '"admin" must be true or false'),
        ({"identities": [{"id": "a", "key_sha256": ["a" * 64], "key": "x"}]}, "unknown field(s): key"),
        ({"identities": [{"id": "a", "key_sha256": ["a" * 64]}, {"id": "a", "key_sha256": ["b" * 64]}]},
         "identity 'a' appears twice"),
        ({"identities": [{"id": "a", "key_sha256": ["a" * 64]}, {"id": "b", "key_sha256": ["A" * 64]}]},
         "listed more than once"),
    ],
)
def test_a_malformed_access_file_says_what_is_wrong(tmp_path: Path, content: Any, message: str) -> None:
    path = _write(tmp_path / "ids.json", content)
    with pytest.raises(AuthFileError) as err:
        load_file(str(path))
    assert message in str(err.value) and str(path) in str(err.value)


def test_keys_identify_their_identity_and_rotate(tmp_path: Path) -> None:
    path = _write(tmp_path / "ids.json", {"identities": [
        _identity("alice", "old-key", "new-key", containers=["legal"]),
        _identity("root", "root-key", admin=True),
    ]})
    identities = IdentityFile(str(path))
    alice = identities.identify("old-key")
    assert alice is not None and alice.id == "alice" and alice.containers == ("legal",) and not alice.admin
    assert identities.identify("new-key") == alice
    root = identities.identify("root-key")
    assert root is not None and root.admin
    assert identities.identify("old-key ") is None and identities.identify("") is None
    # The file names only hashes: no key is in it.
    assert "old-key" not in path.read_text()

    # Rotation: the old key is dropped from the file and stops working at once, the new one goes on.
    _write(tmp_path / "next.json", {"identities": [_identity("alice", "new-key", containers=["legal"])]})
    os.replace(tmp_path / "next.json", path)
    assert identities.identify("old-key") is None
    assert identities.identify("new-key") == alice


def test_a_file_that_breaks_or_goes_away_locks_everyone_out(tmp_path: Path) -> None:
    path = _write(tmp_path / "ids.json", {"identities": [_identity("alice", "k")]})
    identities = IdentityFile(str(path))
    assert identities.identify("k") is not None
    path.write_text('{"identities": [')
    with pytest.raises(AuthFileError, match="not valid JSON"):
        identities.identify("k")
    path.unlink()
    with pytest.raises(AuthFileError, match="cannot read"):
        identities.check()
    _write(path, {"identities": [_identity("alice", "k")]})
    assert identities.identify("k") is not None


def test_run_containers_one_rule_for_identities_and_trusted_callers() -> None:
    # A trusted local caller: the request stands; nothing asked means the default container.
    assert run_containers(None, None) == [DEFAULT_CONTAINER]
    assert run_containers(["a", "b"], None) == ["a", "b"]
    # An identity: nothing asked means all of its containers; a subset stands; anything else is refused by name.
    assert run_containers(None, ["a", "b"]) == ["a", "b"]
    assert run_containers([], ["a", "b"]) == ["a", "b"]
    assert run_containers(["b"], ["a", "b"]) == ["b"]
    refusal = r"container 'c' is not among the containers this identity may search \(a, b\)"
    with pytest.raises(AccessError, match=refusal):
        run_containers(["a", "c"], ["a", "b"])
    with pytest.raises(AccessError, match="may search no container"):
        run_containers(None, [])
    with pytest.raises(AccessError, match="list of names"):
        run_containers("a", ["a"])


def test_every_context_field_is_either_the_callers_or_the_operators() -> None:
    from dataclasses import fields

    every = {f.name for f in fields(Context)}
    assert set(CLIENT_FIELDS) <= every
    assert set(CLIENT_FIELDS) | set(OPERATOR_FIELDS) == every
    for name in ("base_url", "index", "qdrant_url", "reranker", "chat_model", "backend"):
        assert name in OPERATOR_FIELDS


def test_client_settings_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOPGRAPH_ALLOWED_MODELS", raising=False)
    monkeypatch.setenv("HOPGRAPH_MODEL", "builtin")
    monkeypatch.setenv("HOPGRAPH_MAX_TURNS", "4")
    assert check_client_settings({"max_turns": 4, "mode": "answer", "thread_id": "t", "langgraph_auth_user": 1}) == {
        "max_turns": 4, "mode": "answer"}
    for settings, message in (
        ({"mode": "answer", "base_url": "http://x"}, "'base_url' is set by the server's operator"),
        ({"max_turns": 5}, "'max_turns' 5 is above this server's ceiling of 4 (HOPGRAPH_MAX_TURNS)"),
        ({"max_turns": True}, "whole number"),
        ({"token_budget": 0}, "whole number of at least 1"),
        ({"model": "openai:gpt-4o"}, "model 'openai:gpt-4o' is not offered by this server; choose one of: builtin"),
        ({"mode": "essay"}, "unknown mode 'essay'"),
        ({"profile": "slow"}, "unknown profile 'slow'"),
        ({"tags": "contract"}, "'tags' must be a list"),
        ({"colour": "red"}, "unknown setting 'colour'"),
    ):
        with pytest.raises(AccessError) as err:
            check_client_settings(settings)
        assert message in str(err.value)
    monkeypatch.setenv("HOPGRAPH_ALLOWED_MODELS", "builtin, openai:gpt-4o")
    assert check_client_settings({"model": "openai:gpt-4o"}) == {"model": "openai:gpt-4o"}


def test_reported_ids_are_a_client_setting_under_a_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOPGRAPH_AUTH_FILE", raising=False)
    monkeypatch.delenv("HOPGRAPH_MAX_REPORTED_IDS", raising=False)
    assert "max_reported_ids" in CLIENT_FIELDS
    assert check_client_settings({"max_reported_ids": 50}) == {"max_reported_ids": 50}
    with pytest.raises(AccessError, match="ceiling of 50 \\(HOPGRAPH_MAX_REPORTED_IDS\\)"):
        check_client_settings({"max_reported_ids": 51})
    monkeypatch.setenv("HOPGRAPH_MAX_REPORTED_IDS", "4")
    # The default is brought under a lower ceiling; a run may still ask for fewer.
    assert served_context({}, user=None).max_reported_ids == 4
    assert served_context({"max_reported_ids": 2}, user=None).max_reported_ids == 2


def test_served_context_fills_operator_fields_from_the_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOPGRAPH_INDEX", str(tmp_path / "operator-index"))
    monkeypatch.setenv("HOPGRAPH_MODEL", "builtin")
    monkeypatch.setenv("HOPGRAPH_MAX_TOKEN_BUDGET", "20000")
    monkeypatch.delenv("HOPGRAPH_AUTH_FILE", raising=False)
    context = served_context(ServedContext(mode="answer", max_turns=3), user=None)
    assert context.mode == "answer" and context.max_turns == 3
    assert context.index_dir() == str(tmp_path / "operator-index")
    assert context.token_budget == 20000  # the default is brought under the operator's ceiling
    assert context.containers == [DEFAULT_CONTAINER] and context.base_url is None and context.model == "builtin"
    alice = {"identity": "alice", "containers": ["legal", "default"]}
    assert served_context({}, alice).containers == ["legal", "default"]
    assert served_context({"containers": ["legal"], "tags": ["nda"]}, alice).tags == ["nda"]
    with pytest.raises(AccessError, match="'finance'"):
        served_context({"containers": ["finance"]}, alice)


def test_served_runs_without_an_identity_get_nothing_when_the_server_requires_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOPGRAPH_AUTH_FILE", str(tmp_path / "ids.json"))
    with pytest.raises(AccessError, match="no authenticated identity"):
        served_context({}, user=None)


SECRET = "a-shared-secret-of-at-least-32-bytes!"


def _token(key: Any, algorithm: str = "HS256", **claims: Any) -> str:
    import jwt

    body = {"sub": "carol", "containers": ["legal"], "exp": int(time.time()) + 600, **claims}
    return jwt.encode({k: v for k, v in body.items() if v is not None}, key, algorithm=algorithm)


def test_jwt_tokens_name_identity_and_containers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOPGRAPH_JWT_SECRET", SECRET)
    monkeypatch.delenv("HOPGRAPH_JWT_PUBLIC_KEY", raising=False)
    verifier = verifier_from_env()
    assert verifier is not None
    carol = verifier.identify(_token(SECRET))
    # A token's identity is kept apart from the access file's ids.
    assert carol.id == "jwt:carol" and carol.containers == ("legal",) and not carol.admin
    assert verifier.identify(_token(SECRET, admin=True)).admin
    for token, message in (
        (_token(SECRET, exp=int(time.time()) - 10), "expired"),
        (_token("another-secret-that-is-32-bytes-long"), "Signature verification failed"),
        (_token(SECRET, exp=None), 'Token is missing the "exp" claim'),
        (_token(SECRET, containers="legal"), "'containers' claim must be a list"),
        (_token(SECRET, admin="yes"), "'admin' claim must be true or false"),
    ):
        with pytest.raises(TokenError, match=message):
            verifier.identify(token)
    # Only the configured algorithm is accepted: an unsigned token names nobody.
    import jwt

    unsigned = jwt.encode({"sub": "carol", "containers": [], "exp": int(time.time()) + 60}, "", algorithm="none")
    with pytest.raises(TokenError):
        verifier.identify(unsigned)


def test_jwt_rs256_and_setup_errors(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    (tmp_path / "pub.pem").write_bytes(pem)
    monkeypatch.delenv("HOPGRAPH_JWT_SECRET", raising=False)
    monkeypatch.setenv("HOPGRAPH_JWT_PUBLIC_KEY", str(tmp_path / "pub.pem"))
    monkeypatch.setenv("HOPGRAPH_JWT_AUDIENCE", "hopgraph")
    verifier = verifier_from_env()
    assert verifier is not None and verifier.algorithm == "RS256"
    assert verifier.identify(_token(private, "RS256", aud="hopgraph")).id == "jwt:carol"
    with pytest.raises(TokenError, match="Audience doesn.t match"):
        verifier.identify(_token(private, "RS256", aud="elsewhere"))
    monkeypatch.setenv("HOPGRAPH_JWT_PUBLIC_KEY", "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----")
    with pytest.raises(TokenSetupError, match="not an RSA public key"):
        verifier_from_env()
    monkeypatch.setenv("HOPGRAPH_JWT_PUBLIC_KEY", str(tmp_path / "missing.pem"))
    with pytest.raises(TokenSetupError, match="cannot read"):
        verifier_from_env()
    monkeypatch.delenv("HOPGRAPH_JWT_PUBLIC_KEY")
    monkeypatch.setenv("HOPGRAPH_JWT_SECRET", "short")
    with pytest.raises(TokenSetupError, match="at least 32 bytes"):
        verifier_from_env()


def test_a_token_may_not_live_longer_than_the_operator_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOPGRAPH_JWT_SECRET", SECRET)
    monkeypatch.delenv("HOPGRAPH_JWT_PUBLIC_KEY", raising=False)
    monkeypatch.delenv("HOPGRAPH_JWT_MAX_LIFETIME_S", raising=False)
    verifier = verifier_from_env()
    assert verifier is not None and verifier.max_lifetime_s == 86_400
    now = int(time.time())
    assert verifier.identify(_token(SECRET, exp=now + 86_000)).id == "jwt:carol"
    too_long: list[dict[str, Any]] = [{"exp": 10**10}, {"exp": now + 3 * 86_400},
                                      {"iat": now - 86_000, "exp": now + 3_600}]
    for claims in too_long:
        with pytest.raises(TokenError, match="lives longer than this server allows .86400 s, HOPGRAPH_JWT_MAX_LIF"):
            verifier.identify(_token(SECRET, **claims))
    monkeypatch.setenv("HOPGRAPH_JWT_MAX_LIFETIME_S", "600")
    short = verifier_from_env()
    assert short is not None
    assert short.identify(_token(SECRET, exp=now + 500)).id == "jwt:carol"
    with pytest.raises(TokenError, match="600 s"):
        short.identify(_token(SECRET, exp=now + 3_600))
    for bad in ("a day", "0"):
        monkeypatch.setenv("HOPGRAPH_JWT_MAX_LIFETIME_S", bad)
        with pytest.raises(TokenSetupError, match="HOPGRAPH_JWT_MAX_LIFETIME_S"):
            verifier_from_env()


def test_access_file_ids_cannot_take_the_jwt_namespace(tmp_path: Path) -> None:
    path = _write(tmp_path / "ids.json", {"identities": [_identity("jwt:carol", "k")]})
    with pytest.raises(AuthFileError, match="ids starting with 'jwt:' are kept for JWT bearer tokens"):
        load_file(str(path))


def test_a_request_carries_one_credential_compared_exactly() -> None:
    from hopgraph.serving.credentials import CredentialError, presented_credential

    assert presented_credential([(b"x-api-key", b"K1")]) == "K1"
    assert presented_credential([(b"authorization", b"Bearer K1")]) == "K1"
    assert presented_credential([(b"authorization", b"bearer K1")]) == "K1"
    # The same credential twice is one credential.
    assert presented_credential([(b"x-api-key", b"K1"), (b"authorization", b"Bearer K1")]) == "K1"
    assert presented_credential([(b"content-type", b"application/json")]) is None
    # Nothing is trimmed: what arrives is the key.
    assert presented_credential([(b"x-api-key", b"K1\xa0")]) == "K1\xa0"
    assert presented_credential([(b"authorization", b"Bearer  K1")]) == " K1"
    for headers, message in (
        ([(b"x-api-key", b"K1"), (b"authorization", b"Bearer K2")], "differ"),
        ([(b"x-api-key", b"K1"), (b"x-api-key", b"K2")], "repeats"),
        ([(b"authorization", b"Bearer K1"), (b"authorization", b"Bearer K1")], "repeats"),
        ([(b"x-api-key", b"K1"), (b"authorization", b"Basic Zm9vOmJhcg==")], "another kind"),
        ([(b"authorization", b"Basic Zm9vOmJhcg==")], "must read 'Bearer"),
        ([(b"authorization", b"Bearer")], "must read 'Bearer"),
    ):
        with pytest.raises(CredentialError, match=message):
            presented_credential(headers)


def test_malformed_settings_and_settings_not_allowed_are_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOPGRAPH_ALLOWED_MODELS", raising=False)
    monkeypatch.setenv("HOPGRAPH_MODEL", "builtin")
    monkeypatch.delenv("HOPGRAPH_MAX_TURNS", raising=False)
    malformed = ({"max_turns": "3"}, {"max_turns": 0}, {"mode": 2}, {"mode": "essay"}, {"profile": "slow"},
                 {"tags": "x"}, {"containers": [""]}, {"model": 3}, {"colour": "red"})
    for settings in malformed:
        with pytest.raises(SettingError):
            check_client_settings(settings)
    for settings in ({"max_turns": 11}, {"model": "openai:gpt-4o"}, {"base_url": "http://x"}):
        with pytest.raises(AccessError) as err:
            check_client_settings(settings)
        assert not isinstance(err.value, SettingError), settings


def test_a_failed_exit_fails_the_served_run() -> None:
    from langgraph.runtime import Runtime

    from hopgraph.serving.settings import RunFailed, with_served_context

    def decide(state: Any, runtime: Any) -> dict[str, Any]:
        return {"exit_reason": state["pending_exit"] or "reported"}

    served = with_served_context(decide)
    runtime = Runtime(context=ServedContext())
    config: Any = {"configurable": {}}
    assert served({"pending_exit": "", "error": ""}, runtime, config) == {"exit_reason": "reported"}
    for exit_reason in ("backend_error", "model_error"):
        with pytest.raises(RunFailed, match=f"^{exit_reason}: the index is gone") as err:
            served({"pending_exit": exit_reason, "error": "the index is gone"}, runtime, config)
        assert isinstance(err.value, RuntimeError) and err.value.exit_reason == exit_reason


def test_sizes_and_the_active_run_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from hopgraph.serving.limits import ActiveRuns, LimitError, check_size, max_active_runs, startup_warning

    for name in ("HOPGRAPH_MAX_ACTIVE_RUNS", "HOPGRAPH_MAX_METADATA_BYTES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("N_JOBS_PER_WORKER", "10")
    assert max_active_runs() == 5 and startup_warning() is None
    monkeypatch.setenv("N_JOBS_PER_WORKER", "1")
    assert max_active_runs() == 1
    assert "can keep every other waiting" in (startup_warning() or "")
    check_size("metadata", {"note": "x" * 16_000})
    with pytest.raises(LimitError, match="above this server's limit of 16384 .HOPGRAPH_MAX_METADATA_BYTES.") as err:
        check_size("metadata", {"note": "x" * 17_000})
    assert err.value.status == 413

    monkeypatch.setenv("HOPGRAPH_MAX_ACTIVE_RUNS", "2")
    known: dict[str, list[str]] = {"bob": ["r1"], "alice": []}

    async def count(identity: str) -> list[str]:
        await asyncio.sleep(0.01)  # the server's record is asked over a call that takes time
        return list(known[identity])

    async def burst() -> list[str]:
        cap = ActiveRuns()
        outcomes = await asyncio.gather(*[cap.admit("bob", f"new{i}", count) for i in range(5)],
                                        cap.admit("alice", "a1", count), return_exceptions=True)
        return ["ok" if o is None else f"{getattr(o, 'status', o)}" for o in outcomes]

    # bob has one run; of five more sent at once, one is admitted; alice is not held by bob's count.
    assert asyncio.run(burst()) == ["ok", "429", "429", "429", "429", "ok"]

    from hopgraph.serving.limits import request_scope

    async def one_after_another() -> None:
        cap = ActiveRuns()
        known["carol"] = []
        for number in range(3):
            # A run that is over before the next request: once its request has ended, it is not counted.
            with request_scope():
                await cap.admit("carol", f"c{number}", count)
                await cap.admit("carol", f"c{number}b", count)
                with pytest.raises(LimitError, match="already has 2 runs"):
                    await cap.admit("carol", f"c{number}c", count)

    asyncio.run(one_after_another())


def test_the_server_knows_when_its_checkpointer_keeps_owners(monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from hopgraph.serving.owners import configured

    for path, expected in (("./hopgraph/checkpoint.py:checkpointer", True),
                           ("/deps/hopgraph/hopgraph/checkpoint.py:checkpointer", True),
                           ("./my_saver.py:checkpointer", False)):
        monkeypatch.setenv("LANGGRAPH_CHECKPOINTER", json.dumps({"path": path}))
        assert configured() is expected, path
    monkeypatch.delenv("LANGGRAPH_CHECKPOINTER")
    assert not configured()
