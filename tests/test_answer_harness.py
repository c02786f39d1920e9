"""Helpers for the answer-mode tests: a tool-level loop and the demo corpus in a MemoryBackend.

The loop mirrors the tools node (check_args, run, render in call order) without the graph.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage

from hopgraph.config import Context
from hopgraph.demo import ingest_demo
from hopgraph.index.backend import Scope
from hopgraph.index.memory import MemoryBackend
from hopgraph.tools import tools_for_mode
from hopgraph.tools.base import Ledger, Rendered, ToolArgError, ToolEnv, ToolOutcome
from hopgraph.tools.rewrite_query import apply_rewrite_safety_net


def demo_backend() -> MemoryBackend:
    """The demo corpus ingested (real loaders and chunker) into a MemoryBackend."""
    backend = MemoryBackend()
    report = ingest_demo(backend)
    assert not report["skipped"], report["skipped"]
    return backend


def make_env(backend: Any, context: Context, ledger: Ledger, scope: Scope | None = None) -> ToolEnv:
    return ToolEnv(
        backend=backend,
        scope=scope if scope is not None else Scope(tuple(context.containers), tuple(context.tags)),
        context=context, short_to_doc={}, shown_this_run=frozenset(), turn_memory=dict(ledger.turn_memory),
    )


def new_ledger(turn_memory: dict[str, Any] | None = None) -> Ledger:
    return Ledger(doc_to_short={}, shown_this_run=[], turn_memory=dict(turn_memory or {}))


def run_batch(calls: list[dict[str, Any]], backend: Any, context: Context, ledger: Ledger,
              question: str = "") -> list[ToolMessage]:
    """Runs one reply's tool calls like the tools node does; returns the tool messages."""
    tools = {t.name: t for t in tools_for_mode("answer")}
    calls = apply_rewrite_safety_net(calls, question)
    env = make_env(backend, context, ledger)
    outcomes: list[tuple[dict[str, Any], Any, ToolOutcome | None, str | None]] = []
    for call in calls:
        tool = tools[call["name"]]
        try:
            args = tool.check_args(call["args"], context)
            outcomes.append((call, tool, tool.run(args, env), None))
        except ToolArgError as exc:
            outcomes.append((call, tool, None, str(exc)))
    messages = []
    for call, tool, outcome, error in outcomes:
        if error is not None or outcome is None or outcome.error is not None:
            err = error or (outcome.error if outcome is not None else "no outcome")
            rendered = Rendered(f"Error: {err}", {"tool": call["name"], "error": err})
        else:
            rendered = tool.render(outcome, ledger, env)
        messages.append(ToolMessage(content=rendered.content, artifact=rendered.artifact, name=call["name"],
                                    tool_call_id=call["id"]))
    return messages


def call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:8]}", "type": "tool_call"}


@dataclass
class Conversation:
    """A policy driven through the tools until it answers (at most ``max_rounds`` tool rounds)."""

    messages: list[BaseMessage] = field(default_factory=list)
    ledger: Ledger = field(default_factory=new_ledger)
    batches: list[list[dict[str, Any]]] = field(default_factory=list)
    answer: str = ""


def converse(policy: Any, backend: Any, context: Context, question: str, max_rounds: int = 6,
             conversation: Conversation | None = None) -> Conversation:
    conv = conversation or Conversation()
    conv.ledger.turn_memory = {}
    conv.messages.append(HumanMessage(content=question))
    for _ in range(max_rounds + 1):
        ai = policy.invoke(conv.messages)
        conv.messages.append(ai)
        if not ai.tool_calls:
            conv.answer = ai.content if isinstance(ai.content, str) else str(ai.content)
            return conv
        conv.batches.append(list(ai.tool_calls))
        conv.messages.extend(run_batch(list(ai.tool_calls), backend, context, conv.ledger, question))
    raise AssertionError("the policy never answered")
