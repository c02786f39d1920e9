"""What every tool shares: argument checking, the per-round environment, rendering.

A tool call runs in two phases. ``run`` does the I/O and may run concurrently with
the other calls of the round; it sees a read-only view of the conversation. ``render``
runs afterwards, one call at a time in call order, and turns the outcome into the
tool message; it is the only place that may change the ledger (id assignment and the
like), so the ids a model sees do not depend on which call finished first.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hopgraph.config import Context
from hopgraph.index.backend import Document, Hit, Scope, SearchBackend


class ToolArgError(ValueError):
    """The model called a tool with arguments that do not fit its schema."""


@dataclass(frozen=True)
class ToolEnv:
    """Read-only view given to ``Tool.run``."""

    backend: SearchBackend
    scope: Scope
    context: Context
    # short id -> real doc id, for every document shown on this thread so far
    short_to_doc: Mapping[str, str]
    # short ids shown during the current run (user turn)
    shown_this_run: frozenset[str]
    # answer-mode memory of the current user turn (chunk ids returned, refs)
    turn_memory: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class ToolOutcome:
    text: str = ""
    hits: list[Hit] | None = None
    document: Document | None = None
    report: list[str] | None = None
    error: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ledger:
    """Mutable record of what the conversation has shown; changed only while rendering."""

    doc_to_short: dict[str, str]
    shown_this_run: list[str]
    new_this_round: list[str] = field(default_factory=list)
    searched_this_round: bool = False
    # short id -> best fused score across rounds (for ranking gathered docs)
    run_scores: dict[str, float] = field(default_factory=dict)
    turn_memory: dict[str, Any] = field(default_factory=dict)

    def short_id(self, doc_id: str) -> str:
        short = self.doc_to_short.get(doc_id)
        if short is None:
            short = f"d{len(self.doc_to_short) + 1}"
            self.doc_to_short[doc_id] = short
        return short

    def mark_shown(self, short: str) -> bool:
        """Record a document as shown in this run; True if it is new to the run."""
        if short in self.shown_this_run:
            return False
        self.shown_this_run.append(short)
        self.new_this_round.append(short)
        return True


@dataclass
class Rendered:
    content: str
    artifact: dict[str, Any]


class Tool(ABC):
    name: str
    description: str
    parameters: dict[str, Any]
    terminal: bool = False
    # Searches count for thrash detection; reads do not.
    is_search: bool = False

    def openai_schema(self, strict: bool = True) -> dict[str, Any]:
        params = dict(self.parameters)
        if strict:
            # Strict mode wants every property required; optional ones become nullable.
            props = {}
            for key, spec in params.get("properties", {}).items():
                spec = dict(spec)
                if key not in params.get("required", []):
                    spec["type"] = [spec["type"], "null"] if isinstance(spec.get("type"), str) else spec.get("type")
                    spec.pop("default", None)
                    spec.pop("minimum", None)
                    spec.pop("maximum", None)
                props[key] = spec
            params = {**params, "properties": props, "required": list(props), "additionalProperties": False}
            for spec in props.values():
                spec.pop("minimum", None)
                spec.pop("maximum", None)
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params, "strict": strict},
        }

    @abstractmethod
    def check_args(self, args: Mapping[str, Any], context: Context) -> dict[str, Any]:
        """Validated arguments; raises ToolArgError with a sentence the model can act on."""

    @abstractmethod
    def run(self, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
        ...

    @abstractmethod
    def render(self, outcome: ToolOutcome, ledger: Ledger, env: ToolEnv) -> Rendered:
        ...


def require_str(args: Mapping[str, Any], key: str, *, max_chars: int = 4000) -> str:
    if key not in args or args[key] is None:
        raise ToolArgError(f"Missing required argument '{key}' (a string).")
    value = args[key]
    if not isinstance(value, str):
        raise ToolArgError(f"Argument '{key}' must be a string, got {type(value).__name__}.")
    # Lone surrogates (JSON "\ud800" escapes) cannot be encoded for the index; they become "?".
    value = value.encode("utf-8", "replace").decode("utf-8").strip()
    if not value:
        raise ToolArgError(f"Argument '{key}' must not be empty.")
    if len(value) > max_chars:
        raise ToolArgError(f"Argument '{key}' is too long ({len(value)} characters; at most {max_chars}).")
    return value


def optional_limit(args: Mapping[str, Any], context: Context) -> int:
    value = args.get("limit")
    if value is None:
        return context.search_limit
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolArgError(f"Argument 'limit' must be an integer from 1 to {context.max_search_limit}.")
    if isinstance(value, float) and (not math.isfinite(value) or value != int(value)):
        raise ToolArgError(f"Argument 'limit' must be an integer from 1 to {context.max_search_limit}.")
    if value < 1:
        raise ToolArgError(f"Argument 'limit' must be at least 1 (at most {context.max_search_limit}).")
    return context.clamp_limit(int(value))


def search_parameters(limit_default: int = 5, limit_max: int = 15) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for."},
            "limit": {
                "type": "integer",
                "description": f"How many documents to return (default {limit_default}, at most {limit_max}).",
                "default": limit_default,
                "minimum": 1,
                "maximum": limit_max,
            },
        },
        "required": ["query"],
    }


class QueryTool(Tool):
    """A search tool: takes a query and an optional limit, and counts for thrash detection."""

    parameters = search_parameters()
    is_search = True

    def check_args(self, args: Mapping[str, Any], context: Context) -> dict[str, Any]:
        return {"query": require_str(args, "query"), "limit": optional_limit(args, context)}
