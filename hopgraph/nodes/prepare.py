"""prepare: start of a user turn. Takes the question in, resets the per-run fields."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from hopgraph.config import MODES, Context
from hopgraph.errors import InputError
from hopgraph.state import RUN_DEFAULTS, State, check_question, latest_question


def prepare(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    if context.mode not in MODES:
        raise InputError(f"unknown mode '{context.mode}'; use one of: {', '.join(MODES)}")
    update: dict[str, Any] = dict(RUN_DEFAULTS)
    new_messages = []
    question = (state.get("question") or "").strip()
    if question:
        new_messages.append(HumanMessage(content=question))
        update["question"] = ""
    else:
        question = latest_question(state).strip()
    check_question(question)
    if new_messages:
        update["messages"] = new_messages
    if context.profile:
        update["profile"] = context.profile
    if context.mode == "answer":
        from hopgraph.profiles import effective_limits
        from hopgraph.tools.search_documents import start_turn_memory

        # The ref registry carries over the thread (an [S3] in the history keeps its meaning);
        # the chunk budget and what was returned start afresh.
        limits = effective_limits(context, context.profile or state.get("profile"))
        update["turn_memory"] = start_turn_memory(state.get("turn_memory"), limits.chunk_budget)
    return update
