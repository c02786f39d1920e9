"""Run settings on the served graph: what a caller may set, within which ceilings, and what only the operator sets.

A caller of the server chooses the model (from the operator's allow-list), the mode, the search limits and
budgets (up to the operator's ceilings), the profile, and containers and tags (within its identity's
containers). Everything that names an endpoint, a path, where credentials go, or a Python object is the
operator's: it comes from the server's environment, and a run that sets it is refused by name. The Python API
and the CLI are local and keep every ``Context`` field.

Operator ceilings (environment of the server):

    HOPGRAPH_ALLOWED_MODELS          comma-separated model specs a run may choose (default: HOPGRAPH_MODEL)
    HOPGRAPH_MAX_TURNS               default 10
    HOPGRAPH_MAX_TOKEN_BUDGET        default 48000
    HOPGRAPH_MAX_SEARCH_LIMIT        default 15 (bounds search_limit and max_search_limit)
    HOPGRAPH_MAX_CHUNK_BUDGET        default 24
    HOPGRAPH_MAX_RERANK_CANDIDATES   default 100
    HOPGRAPH_MAX_REPORTED_IDS        default 50

Answer mode offers ``run_python`` only where its sandbox isolates the code (``hopgraph.sandbox``), unless the
operator sets HOPGRAPH_UNISOLATED_RUN_PYTHON=1 to offer it with the audit hook alone.

Two kinds of refusal: a value that is not a valid value of its setting for anyone (wrong type, below 1, an
unknown mode, profile or setting) raises ``SettingError`` (the server answers 422); a valid value this server or
this caller may not use (an operator field, above a ceiling, a model not offered, a container not the caller's)
raises ``AccessError`` (403).

On the served graph a run whose model or index failed ends as a failed run (``RunFailed``, run status
``error``, the message starting with the exit reason), never as a finished run carrying an error.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from hopgraph.access import run_containers
from hopgraph.config import MODES, Context
from hopgraph.errors import AccessError, RunFailedError
from hopgraph.profiles import PROFILES
from hopgraph.serving.bearer_tokens import PUBLIC_KEY_ENV, SECRET_ENV
from hopgraph.serving.identities import auth_file_path
from hopgraph.state import FAILED_EXITS


@dataclass
class ServedContext:
    """What a caller of the served graph may set for one run (the schema the server publishes).

    Unset fields take the operator's defaults; containers unset means every container the caller may search.
    """

    model: str | None = None
    """A model spec from the operator's allow-list (HOPGRAPH_ALLOWED_MODELS)."""
    mode: str | None = None
    """``ids``: report ranked document ids. ``answer``: a cited answer."""
    max_turns: int | None = None
    search_limit: int | None = None
    max_search_limit: int | None = None
    token_budget: int | None = None
    chunk_budget: int | None = None
    rerank_candidates: int | None = None
    max_reported_ids: int | None = None
    """ids mode: the most document ids the run reports."""
    profile: str | None = None
    """Answer mode: ``fast`` or ``thorough``."""
    containers: list[str] | None = None
    """Containers to search, within the caller's own; unset: all of them."""
    tags: list[str] = field(default_factory=list)
    """Narrow the search to documents with these tags."""


CLIENT_FIELDS = tuple(f.name for f in fields(ServedContext))
OPERATOR_FIELDS = tuple(f.name for f in fields(Context) if f.name not in CLIENT_FIELDS)

# field -> (environment variable, default ceiling)
CEILINGS: dict[str, tuple[str, int]] = {
    "max_turns": ("HOPGRAPH_MAX_TURNS", 10),
    "token_budget": ("HOPGRAPH_MAX_TOKEN_BUDGET", 48_000),
    "search_limit": ("HOPGRAPH_MAX_SEARCH_LIMIT", 15),
    "max_search_limit": ("HOPGRAPH_MAX_SEARCH_LIMIT", 15),
    "chunk_budget": ("HOPGRAPH_MAX_CHUNK_BUDGET", 24),
    "rerank_candidates": ("HOPGRAPH_MAX_RERANK_CANDIDATES", 100),
    "max_reported_ids": ("HOPGRAPH_MAX_REPORTED_IDS", 50),
}
ALLOWED_MODELS_ENV = "HOPGRAPH_ALLOWED_MODELS"
UNISOLATED_RUN_PYTHON_ENV = "HOPGRAPH_UNISOLATED_RUN_PYTHON"


class RunFailed(RunFailedError, RuntimeError):
    """A served run that could not do its work. A RuntimeError, so the server passes its message to the client
    (it hides the message of exception types it does not know)."""


class SettingError(AccessError):
    """A run setting whose value is malformed for any caller (the server answers 422, naming the field)."""


# Keys LangGraph itself may carry in a run's configurable (and so in its context); they are not settings.
_LANGGRAPH_KEYS = frozenset({"thread_id", "checkpoint_id", "checkpoint_ns", "checkpoint_map", "run_id",
                             "assistant_id", "graph_id", "user_id", "cron_id"})


def _ignored(key: str) -> bool:
    return key in _LANGGRAPH_KEYS or key.startswith(("langgraph_", "__", "x-"))


def ceiling(name: str) -> int:
    env, default = CEILINGS[name]
    raw = os.environ.get(env)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw)
    except ValueError:
        raise AccessError(f"the server's {env} is not a whole number ({raw!r}); ask the operator to fix it") from None
    return max(1, value)


def _server_model() -> str:
    return os.environ.get("HOPGRAPH_MODEL") or "builtin"


def allowed_models() -> tuple[str, ...]:
    raw = os.environ.get(ALLOWED_MODELS_ENV)
    if raw and raw.strip():
        return tuple(spec.strip() for spec in raw.split(",") if spec.strip())
    return (_server_model(),)


def run_python_offered() -> bool:
    """Whether served answer runs get ``run_python``: where the sandbox isolates the code, or on opt-in."""
    from hopgraph.sandbox import current_isolation  # the first call probes the sandbox once

    if current_isolation().isolated:
        return True
    raw = os.environ.get(UNISOLATED_RUN_PYTHON_ENV, "").strip().lower()
    if raw in ("", "0", "false", "no"):
        return False
    if raw in ("1", "true", "yes"):
        return True
    raise AccessError(f"the server's {UNISOLATED_RUN_PYTHON_ENV} must be 1 or 0, not {raw!r}; ask the operator to "
                      "fix it")


def _names(key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or any(not isinstance(v, str) or not v.strip() for v in value):
        raise SettingError(f"'{key}' must be a list of non-empty names")
    return list(value)


def check_client_settings(requested: Mapping[str, Any] | None) -> dict[str, Any]:
    """The settings a served run asked for, checked; raises AccessError (SettingError for a malformed value)
    naming the first offending field."""
    if requested is None:
        return {}
    if not isinstance(requested, Mapping):
        raise SettingError("the run's context must be a JSON object")
    keys = [key for key in requested if not _ignored(key)]
    # Operator fields first: a refusal names the endpoint or path a run tried to set, whatever else it set.
    for key in sorted(keys, key=lambda k: k not in OPERATOR_FIELDS):
        if key in OPERATOR_FIELDS:
            raise AccessError(f"'{key}' is set by the server's operator, not by a run; "
                              f"a run may set: {', '.join(CLIENT_FIELDS)}")
        if key not in CLIENT_FIELDS:
            raise SettingError(f"unknown setting '{key}'; a run may set: {', '.join(CLIENT_FIELDS)}")
    checked: dict[str, Any] = {}
    for key in keys:
        value = requested[key]
        if value is None:
            continue
        if key in CEILINGS:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SettingError(f"'{key}' must be a whole number of at least 1, not {value!r}")
            top = ceiling(key)
            if value > top:
                raise AccessError(f"'{key}' {value} is above this server's ceiling of {top} ({CEILINGS[key][0]})")
        elif key == "model":
            if not isinstance(value, str):
                raise SettingError(f"'model' must be a model spec (a string), not {value!r}")
            allowed = allowed_models()
            if value not in allowed:
                raise AccessError(f"model '{value}' is not offered by this server; choose one of: {', '.join(allowed)}")
        elif key == "mode" and (not isinstance(value, str) or value not in MODES):
            raise SettingError(f"'mode': unknown mode {value!r}; use one of: {', '.join(MODES)}")
        elif key == "profile" and (not isinstance(value, str) or value not in PROFILES):
            raise SettingError(f"'profile': unknown profile {value!r}; use one of: {', '.join(PROFILES)}")
        elif key in ("containers", "tags"):
            value = _names(key, value)
        checked[key] = value
    return checked


def user_field(user: Any, name: str) -> Any:
    """A field of the authenticated user LangGraph hands a run (a dict, or its proxy object)."""
    if user is None:
        return None
    if isinstance(user, Mapping) or hasattr(user, "get"):
        return user.get(name)
    return getattr(user, name, None)


def access_control_configured() -> bool:
    return auth_file_path() is not None or bool(os.environ.get(SECRET_ENV) or os.environ.get(PUBLIC_KEY_ENV))


def permitted_containers(user: Any) -> list[str] | None:
    """The containers the authenticated caller may search; None when the server runs without an access file.

    With an access file every request is authenticated, so a run without an identity never happens; if it
    does anyway (a run started by something other than a request), it gets nothing rather than everything.
    """
    containers = user_field(user, "containers")
    if containers is None:
        if access_control_configured():
            raise AccessError("this run has no authenticated identity, and the server requires one")
        return None
    return [str(c) for c in containers]


def served_context(requested: Mapping[str, Any] | ServedContext | None, user: Any) -> Context:
    """The full run Context of a served run: the caller's checked settings over the operator's defaults."""
    if isinstance(requested, ServedContext):
        requested = {f.name: getattr(requested, f.name) for f in fields(ServedContext)}
    settings = check_client_settings(requested)
    defaults = Context()
    for name in CEILINGS:
        settings.setdefault(name, min(getattr(defaults, name), ceiling(name)))
    if "model" not in settings:
        allowed = allowed_models()
        settings["model"] = _server_model() if _server_model() in allowed else allowed[0]
    settings["containers"] = run_containers(settings.get("containers"), permitted_containers(user))
    if settings.get("mode") == "answer":
        settings["run_python"] = run_python_offered()
    return Context(**settings)


def with_served_context(node: Callable[[Any, Runtime[Context]], Any]) -> Callable[..., Any]:
    """Wrap a node so that, on the served graph, it sees the run's full Context.

    The identity comes from what LangGraph's auth put in the run's config, not from anything the caller sent.
    """

    # Not functools.wraps: LangGraph reads the wrapper's own signature to know it wants the config.
    def served(state: Any, runtime: Runtime[Any], config: RunnableConfig) -> Any:
        user = (config.get("configurable") or {}).get("langgraph_auth_user")
        update = node(state, runtime.override(context=served_context(runtime.context, user)))
        exit_reason = update.get("exit_reason") if isinstance(update, Mapping) else None
        if exit_reason in FAILED_EXITS:
            # The run ends as failed (status "error"), so a client cannot take it for a finished one.
            error = update.get("error") or (state.get("error") if isinstance(state, Mapping) else None)
            raise RunFailed(f"{exit_reason}: {error or 'the run could not do its work'}", exit_reason=str(exit_reason))
        return update

    served.__name__ = served.__qualname__ = getattr(node, "__name__", "node")
    served.__doc__ = node.__doc__
    return served
