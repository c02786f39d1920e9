"""generate: one model call with the conversation so far and the tools."""

from __future__ import annotations

import logging
import time
from typing import Any

from langchain_core.messages import AIMessage, SystemMessage
from langgraph.runtime import Runtime

from hopgraph.config import Context
from hopgraph.conversation import prompt_history
from hopgraph.models import bind_tools, invoke_model, make_chat_model
from hopgraph.models.retry import ModelTimeoutError
from hopgraph.profiles import effective_limits
from hopgraph.prompts import system_prompt
from hopgraph.state import State
from hopgraph.tokens import count_messages
from hopgraph.tools import tools_for_mode

log = logging.getLogger("hopgraph")


def _describe_model_error(exc: Exception, context: Context) -> str:
    name = type(exc).__name__
    where = f" at {context.base_url}" if context.base_url else ""
    if isinstance(exc, ModelTimeoutError) or isinstance(exc.__cause__, ModelTimeoutError):
        # The server was reached (a failed connect is the branch below): slow, overloaded or stuck.
        return (f"the model{where} did not answer within {context.model_timeout_s:g} s ({exc}); allow more time"
                f" (--model-timeout, HOPGRAPH_MODEL_TIMEOUT) or check the server")
    if "Connection" in name or "Timeout" in name:
        return (f"the model{where} could not be reached ({name}: {exc}); check the URL and that the server runs"
                f" (time allowed per model call: {context.model_timeout_s:g} s, --model-timeout)")
    return f"the model call failed ({name}: {exc})"


def generate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    limits = effective_limits(context, state.get("profile"))
    started = time.perf_counter()
    tools = tools_for_mode(context.mode, run_python=context.run_python)
    model, kind = make_chat_model(context, limits.reasoning_effort)
    history = state.get("messages", [])
    prompt = [
        SystemMessage(system_prompt(context.mode, context.corpus_description, tools, kind.tools_in_prompt,
                                    limits.max_turns)),
        *prompt_history(history, limits.token_budget),
    ]
    prompt_tokens = count_messages(prompt)
    turn = state.get("turns", 0) + 1
    trace = list(state.get("trace", []))
    entry: dict[str, Any] = {"turn": turn, "tool_calls": [], "new_docs": [], "prompt_tokens": prompt_tokens}
    if prompt_tokens > limits.token_budget:
        log.warning("token budget spent: prompt of %d tokens exceeds %d", prompt_tokens, limits.token_budget)
        entry["ms"] = round((time.perf_counter() - started) * 1000, 2)
        return {"pending_exit": "budget", "trace": [*trace, entry],
                "error": f"token budget spent: the prompt has {prompt_tokens} tokens, the budget is "
                         f"{limits.token_budget}"}
    bound = bind_tools(model, kind, tools)
    try:
        reply = invoke_model(bound, prompt, model, kind, context)
    except Exception as exc:  # already retried with backoff within the call's deadline
        # The error travels in the result; callers print it once.
        log.info("model call failed: %s", exc)
        entry["ms"] = round((time.perf_counter() - started) * 1000, 2)
        return {"pending_exit": "model_error", "turns": turn, "trace": [*trace, entry],
                "error": _describe_model_error(exc, context)}
    if not isinstance(reply, AIMessage):
        reply = AIMessage(content=str(getattr(reply, "content", reply)))
    entry["ms"] = round((time.perf_counter() - started) * 1000, 2)
    return {"messages": [reply], "turns": turn, "trace": [*trace, entry]}
