"""Every knob of a run lives in one ``Context`` dataclass (the graph's context_schema)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_CONTAINER = "default"
MODES = ("ids", "answer")


def user_cache_dir() -> Path:
    """hopgraph's folder under XDG_CACHE_HOME (default ~/.cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hopgraph"


def env_choice(name: str, choices: Sequence[str], default: str, error: type[Exception] = ValueError) -> str:
    """The environment variable ``name``, trimmed and in lower case, or ``default`` when unset or empty; a value
    that is none of ``choices`` raises ``error`` naming the variable and its choices."""
    raw = os.environ.get(name, "").strip().lower() or default
    if raw not in choices:
        raise error(f"{name} must be {', '.join(choices[:-1])} or {choices[-1]}, got {raw!r}")
    return raw


def default_index_dir() -> str:
    """HOPGRAPH_INDEX, else a per-user data directory."""
    env = os.environ.get("HOPGRAPH_INDEX")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "hopgraph" / "index")


def _env_model() -> str:
    return os.environ.get("HOPGRAPH_MODEL", "builtin")


def _env_url() -> str | None:
    return os.environ.get("QDRANT_URL") or None


def _env_reranker() -> str | None:
    return os.environ.get("HOPGRAPH_RERANKER") or None


DEFAULT_MODEL_TIMEOUT_S = 240.0


def _env_model_timeout() -> float:
    raw = os.environ.get("HOPGRAPH_MODEL_TIMEOUT")
    if not raw:
        return DEFAULT_MODEL_TIMEOUT_S
    try:
        seconds = float(raw)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise ValueError(f"HOPGRAPH_MODEL_TIMEOUT must be a number of seconds above 0, not {raw!r}")
    return seconds


@dataclass
class Context:
    """Run settings. The model never sees or chooses any of these."""

    model: str = field(default_factory=_env_model)
    """Model spec: ``builtin``, ``sid-1``, ``openai:<model>``, ``openai-responses:<model>``."""
    base_url: str | None = None
    """Overrides the model endpoint (otherwise SID_BASE_URL / OPENAI_BASE_URL)."""
    corpus_description: str = "a collection of documents"
    """One line about the corpus, shown to the model."""
    mode: str = "ids"
    """``ids``: report ranked document ids. ``answer``: a cited answer."""
    max_turns: int = 10
    search_limit: int = 5
    max_search_limit: int = 15
    token_budget: int = 48_000
    """Prompt tokens (tiktoken) one model call may carry before the run stops."""
    max_reported_ids: int = 10
    """ids mode: the most document ids a run reports (the best first); the built-in policy may report fewer."""
    containers: list[str] = field(default_factory=lambda: [DEFAULT_CONTAINER])
    tags: list[str] = field(default_factory=list)
    index: str | None = None
    """Embedded index directory; default HOPGRAPH_INDEX or the per-user data dir."""
    qdrant_url: str | None = field(default_factory=_env_url)
    """A Qdrant server or cluster; wins over ``index`` when set."""
    reranker: str | None = field(default_factory=_env_reranker)
    """Optional rerank stage for ``search``: ``fastembed:<model>`` or ``http:<url>``; off when unset."""
    rerank_candidates: int = 30
    """Chunk candidates the reranker sees per search."""
    tool_timeout_s: float = 30.0
    """Seconds the tool calls of one round may take together."""
    model_timeout_s: float = field(default_factory=_env_model_timeout)
    """The longest one model call may take, all retries included (default HOPGRAPH_MODEL_TIMEOUT or 240);
    one attempt gets at most half of it."""
    model_max_retries: int = 4
    """Retries of a model call on timeouts, connection errors, 429 and 5xx (a refused connection: one)."""
    profile: str | None = None
    """Answer mode: ``fast`` or ``thorough``; remembered for the thread once chosen."""
    chunk_budget: int = 12
    """Answer mode: chunks all searches of one user turn may add."""
    run_python: bool = True
    """Answer mode: offer the ``run_python`` tool. The served graph offers it only where the sandbox isolates
    the code, or where the operator opts in (``HOPGRAPH_UNISOLATED_RUN_PYTHON``)."""
    # Objects a Python caller may hand in directly (tests, embedding in an app).
    chat_model: Any = field(default=None, repr=False)
    backend: Any = field(default=None, repr=False)

    def index_dir(self) -> str:
        return self.index or default_index_dir()

    def clamp_limit(self, limit: int) -> int:
        return max(1, min(int(limit), self.max_search_limit))
