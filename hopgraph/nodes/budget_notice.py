"""budget_notice: tell the model how many turns are left, on the last tool message of the turn only."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import ToolMessage
from langgraph.runtime import Runtime

from hopgraph.config import Context
from hopgraph.formatting import budget_notice as notice_text
from hopgraph.profiles import effective_limits
from hopgraph.state import State


def budget_notice(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    limits = effective_limits(context, state.get("profile"))
    messages = state.get("messages") or []
    if not messages or not isinstance(messages[-1], ToolMessage):
        return {}
    last = messages[-1]
    left = max(limits.max_turns - state.get("turns", 0), 0)
    content = last.content if isinstance(last.content, str) else str(last.content)
    # Same message id: add_messages replaces the stored message instead of appending.
    updated = last.model_copy(update={"content": f"{content}\n\n{notice_text(left, limits.max_turns)}"})
    return {"messages": [updated]}
