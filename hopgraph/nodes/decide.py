"""decide: after each round, stop (and why) or go on.

It is also where the run decides the evidence is sufficient: a policy that can tell from the round just run
that nothing more needs searching reports here, without another model call. When the run goes on, the next
``generate`` appends the turn-budget notice to the round's last tool message (see ``with_budget_notice`` there).
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from hopgraph.config import Context
from hopgraph.errors import ModelSpecError
from hopgraph.models import make_chat_model, parse_spec
from hopgraph.profiles import effective_limits
from hopgraph.prompts import NUDGE
from hopgraph.state import FINALIZE, NEXT_ROUND, NUDGE_FLAG, RETRY, RouteState, State, last_ai_message

log = logging.getLogger("hopgraph")


def decide(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    limits = effective_limits(context, state.get("profile"))
    turns = state.get("turns", 0)

    def stop(reason: str) -> dict[str, Any]:
        if reason in ("max_turns", "budget"):
            log.info("run stopped: %s after %d turns", reason, turns)
        return {"route": FINALIZE, "exit_reason": reason}

    pending = state.get("pending_exit")
    if pending:
        return stop(pending)
    if state.get("report") is not None:
        return stop("reported")
    ai = last_ai_message(state.get("messages") or [])
    has_calls = bool(ai and (ai.tool_calls or ai.invalid_tool_calls))
    if not has_calls:
        text = ai.content if ai is not None and isinstance(ai.content, str) else ""
        if context.mode == "answer" and text.strip():
            return stop("answered")
        if state.get("nudged"):
            return stop("no_tool_call")
        if turns >= limits.max_turns:
            return stop("max_turns")
        nudge = HumanMessage(content=NUDGE, additional_kwargs={NUDGE_FLAG: True})
        return {"route": RETRY, "nudged": True, "messages": [nudge]}
    update: dict[str, Any] = {"nudged": False}
    concluded = _concluded(state, context)
    if concluded is not None:
        return {**update, "report": concluded, **stop("reported")}
    if state.get("round_searched") and not state.get("round_new"):
        # The searches of this round found nothing the run had not seen: this line of search is exhausted.
        return {**update, **stop("thrash")}
    if turns >= limits.max_turns:
        return {**update, **stop("max_turns")}
    return {**update, "route": NEXT_ROUND}


def _concluded(state: State, context: Context) -> list[str] | None:
    """The report of an ids-mode policy that can tell, from the round just run, that searching is done.

    Such a policy (the built-in one) would spend its next turn only on reporting; asking it here saves that
    model call. Models without ``conclude`` (every network model) are never asked.
    """
    if context.mode != "ids":
        return None
    model = context.chat_model
    if model is None:
        try:
            if parse_spec(context.model).family != "builtin":
                return None
            model, _ = make_chat_model(context)
        except ModelSpecError:
            return None
    conclude = getattr(model, "conclude", None)
    if not callable(conclude):
        return None
    report = conclude(state.get("messages") or [])
    return list(report) if report is not None else None


def route_after_decide(state: RouteState) -> str:
    return state.get("route") or FINALIZE
