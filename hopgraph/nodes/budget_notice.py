"""budget_notice: after a round that goes on, tell the model how many turns are left.

The notice is appended to the round's last tool message (the same message id, so ``add_messages`` replaces the
stored message rather than adding one): the next ``generate`` sends it with the results it belongs to.
"""

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
    messages = state.get("messages") or []
    if not messages or not isinstance(messages[-1], ToolMessage):
        return {}
    max_turns = effective_limits(context, state.get("profile")).max_turns
    last = messages[-1]
    left = max(max_turns - state.get("turns", 0), 0)
    content = last.content if isinstance(last.content, str) else str(last.content)
    return {"messages": [last.model_copy(update={"content": f"{content}\n\n{notice_text(left, max_turns)}"})]}
