"""decide: after each round, stop (and why) or go on; and the router that reads its choice.

It is also where the run decides the evidence is sufficient: a policy that can tell from the round just run
that nothing more needs searching reports here, without another model call. ``decide`` writes the exit it chose
as ``exit_reason`` (or nudges the model once when it answered without a tool call); ``route_after_decide``
turns that into one of the labelled edges out of ``decide``: an exit to ``finalize``, the next round through
``budget_notice``, or the retry after a nudge straight back to ``generate``.
"""

from __future__ import annotations

import logging
from typing import Any, Literal, get_args

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from hopgraph.config import Context
from hopgraph.errors import ModelSpecError
from hopgraph.models import make_chat_model, parse_spec
from hopgraph.profiles import effective_limits
from hopgraph.prompts import NUDGE
from hopgraph.state import NUDGE_FLAG, RouteState, State, last_ai_message

log = logging.getLogger("hopgraph")

# The ways out of the loop, by the ``exit_reason`` each leaves in the result: ``reported`` (report_helpful_ids,
# or the policy's own report), ``answered`` (answer mode's final answer), ``max_turns`` (the round cap: an empty
# list in ids mode), ``no_tool_call`` (still none after the nudge), ``thrash`` (a round found nothing new),
# ``budget`` (the next prompt would pass the token budget), ``model_error`` and ``backend_error``.
Exit = Literal["reported", "answered", "max_turns", "no_tool_call", "thrash", "budget", "model_error",
               "backend_error"]
EXITS: tuple[Exit, ...] = get_args(Exit)
# The edge each exit leaves by: named as its exit_reason, but for the report's, which the design card names after
# the tool that makes it.
ExitRoute = Literal["report_helpful_ids", "answered", "max_turns", "no_tool_call", "thrash", "budget", "model_error",
                    "backend_error"]
EXIT_ROUTES: dict[str, ExitRoute] = dict(zip(EXITS, get_args(ExitRoute), strict=True))
# Where a run goes after decide: out by one of the exits, on to the next round, or back after a nudge.
Route = Literal[ExitRoute, "next_round", "retry"]


def decide(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    limits = effective_limits(context, state.get("profile"))
    turns = state.get("turns", 0)

    def stop(reason: str) -> dict[str, Any]:
        if reason in ("max_turns", "budget"):
            log.info("run stopped: %s after %d turns", reason, turns)
        return {"exit_reason": reason}

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
        return {"nudged": True, "messages": [nudge]}
    update: dict[str, Any] = {"nudged": False}
    concluded = _concluded(state, context)
    if concluded is not None:
        return {**update, "report": concluded, **stop("reported")}
    if state.get("round_searched") and not state.get("round_new"):
        # The searches of this round found nothing the run had not seen: this line of search is exhausted.
        return {**update, **stop("thrash")}
    if turns >= limits.max_turns:
        return {**update, **stop("max_turns")}
    return update


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


def route_after_decide(state: RouteState) -> Route:
    """The edge out of ``decide``: the exit it wrote, else a retry when it nudged the model, else the next round."""
    reason = state.get("exit_reason") or ""
    if reason:
        if reason not in EXIT_ROUTES:
            raise ValueError(f"unknown exit '{reason}'")
        return EXIT_ROUTES[reason]
    return "retry" if state.get("nudged") else "next_round"
