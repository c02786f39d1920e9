"""tools: run every tool call of the turn concurrently; one tool message per call, in call order."""

from __future__ import annotations

import logging
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from langchain_core.messages import ToolMessage
from langgraph.runtime import Runtime

from hopgraph.config import Context
from hopgraph.errors import AccessError
from hopgraph.index.backend import BackendError, NothingToSearchError, ScopeError
from hopgraph.runtime import get_backend, get_scope
from hopgraph.state import State, last_ai_message, latest_question
from hopgraph.tools import tools_for_mode
from hopgraph.tools.base import Ledger, Rendered, Tool, ToolArgError, ToolEnv, ToolOutcome

log = logging.getLogger("hopgraph")

# Shared by all runs of the process; a slow call past its timeout keeps a worker, not the run.
_POOL = ThreadPoolExecutor(max_workers=32, thread_name_prefix="hopgraph-tool")


def _run_safely(tool: Tool, args: dict[str, Any], env: ToolEnv) -> ToolOutcome:
    try:
        return tool.run(args, env)
    except ToolArgError as exc:
        return ToolOutcome(error=str(exc))
    except ScopeError as exc:
        return ToolOutcome(error=f"Refused: {exc}.")
    except BackendError as exc:
        log.warning("backend error in %s: %s", tool.name, exc)
        return ToolOutcome(error=f"The search backend failed ({exc}). Try again.")
    except Exception as exc:  # a tool must never take the run down
        log.exception("tool %s failed", tool.name)
        return ToolOutcome(error=f"The tool '{tool.name}' failed unexpectedly ({type(exc).__name__}). Try again.")


def tools_node(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    ai = last_ai_message(state.get("messages") or [])
    calls: list[dict[str, Any]] = [dict(c) for c in ai.tool_calls] if ai else []
    invalid = list(ai.invalid_tool_calls) if ai else []
    if not calls and not invalid:
        return {"round_searched": False, "round_new": []}
    started = time.perf_counter()
    tools = {t.name: t for t in tools_for_mode(context.mode, run_python=context.run_python)}
    if context.mode == "answer":
        from hopgraph.policies.answer.thread import follow_up_subject
        from hopgraph.tools.rewrite_query import apply_rewrite_safety_net

        calls = apply_rewrite_safety_net(calls, latest_question(state), follow_up_subject(state.get("messages") or []))

    doc_to_short = dict(state.get("doc_to_short") or {})
    ledger = Ledger(
        doc_to_short=doc_to_short,
        shown_this_run=list(state.get("shown") or []),
        run_scores=dict(state.get("run_scores") or {}),
        turn_memory=dict(state.get("turn_memory") or {}),
    )
    scope_error = None
    backend = None
    try:
        scope = get_scope(context)
    except (ScopeError, AccessError) as exc:
        scope_error = f"Refused: {exc}."
    if scope_error is None:
        try:
            backend = get_backend(context, scope)
        except BackendError as exc:
            # No index or nothing in scope, no search: end the run with a clear reason instead of looping.
            error = str(exc) if isinstance(exc, NothingToSearchError) else f"cannot open the index: {exc}"
            log.info("%s", error)  # the error travels in the result; callers print it once
            return {"pending_exit": "backend_error", "error": error, "round_searched": False, "round_new": []}
    env = ToolEnv(
        backend=backend,  # type: ignore[arg-type]
        scope=scope if scope_error is None else None,  # type: ignore[arg-type]
        context=context,
        short_to_doc={short: doc for doc, short in doc_to_short.items()},
        shown_this_run=frozenset(ledger.shown_this_run),
        turn_memory=dict(ledger.turn_memory),
    )

    # Phase 1: check arguments, then start every valid call at once.
    planned: list[tuple[str, str, Tool | None, dict[str, Any], ToolOutcome | None, Future[ToolOutcome] | None]] = []
    for call in calls:
        name = str(call.get("name") or "")[:64]  # a junk name is never echoed at length
        call_id = call.get("id") or f"call_{uuid.uuid4().hex[:12]}"
        tool = tools.get(name)
        raw_args = call.get("args")
        if tool is None:
            unknown = ToolOutcome(error=f"Unknown tool '{name}'. Available tools: {', '.join(tools)}.")
            planned.append((name, call_id, None, {}, unknown, None))
            continue
        if not isinstance(raw_args, dict):
            planned.append((name, call_id, tool, {}, ToolOutcome(error="Arguments must be a JSON object."), None))
            continue
        try:
            args = tool.check_args(raw_args, context)
        except ToolArgError as exc:
            planned.append((name, call_id, tool, {}, ToolOutcome(error=str(exc)), None))
            continue
        if scope_error is not None:
            planned.append((name, call_id, tool, args, ToolOutcome(error=scope_error), None))
            continue
        planned.append((name, call_id, tool, args, None, _POOL.submit(_run_safely, tool, args, env)))
    for bad in invalid:
        name = str(bad.get("name") or "")[:64]
        detail = str(bad.get("error") or "the arguments are not valid JSON")[:200]
        invalid_outcome = ToolOutcome(error=f"Invalid arguments for '{name}': {detail}. Send a JSON object.")
        planned.append((name, bad.get("id") or f"call_{uuid.uuid4().hex[:12]}", None, {}, invalid_outcome, None))

    # Phase 2: collect in call order, then render one at a time so ids never depend on timing.
    deadline = time.monotonic() + context.tool_timeout_s
    messages: list[ToolMessage] = []
    report: list[str] | None = state.get("report")
    calls_trace = []
    for name, call_id, tool, args, planned_outcome, future in planned:
        outcome: ToolOutcome | None = planned_outcome
        if future is not None:
            try:
                outcome = future.result(timeout=max(0.0, deadline - time.monotonic()))
            except FutureTimeout:
                future.cancel()
                outcome = ToolOutcome(
                    error=f"The search backend timed out after {context.tool_timeout_s:g} seconds. Try again."
                )
        assert outcome is not None
        if outcome.error is not None or tool is None:
            rendered = Rendered(f"Error: {outcome.error}", {"tool": name, "error": outcome.error})
        else:
            rendered = tool.render(outcome, ledger, env)
            if tool.terminal and report is None and outcome.report is not None:
                report = outcome.report
        raw = next((c.get("args") for c in calls if c.get("id") == call_id), None)
        calls_trace.append({"name": name, "args": args or raw, "error": outcome.error})
        messages.append(ToolMessage(
            content=rendered.content, tool_call_id=call_id, name=name or "unknown",
            artifact=rendered.artifact, id=str(uuid.uuid4()),
            status="error" if outcome.error is not None else "success",
        ))

    short_to_doc = {short: doc for doc, short in ledger.doc_to_short.items()}
    titles = dict(state.get("doc_titles") or {})
    for message in messages:
        for doc in (message.artifact or {}).get("docs", []) if isinstance(message.artifact, dict) else []:
            titles.setdefault(short_to_doc.get(doc["id"], doc["id"]), doc.get("title", ""))
    trace = list(state.get("trace") or [])
    if trace:
        entry = dict(trace[-1])
        entry["tool_calls"] = calls_trace
        entry["new_docs"] = [short_to_doc[s] for s in ledger.new_this_round]
        entry["ms"] = round(entry.get("ms", 0.0) + (time.perf_counter() - started) * 1000, 2)
        trace[-1] = entry
    return {
        "messages": messages,
        "doc_to_short": ledger.doc_to_short,
        "doc_titles": titles,
        "shown": ledger.shown_this_run,
        "run_scores": ledger.run_scores,
        "turn_memory": ledger.turn_memory,
        "report": report,
        "round_searched": ledger.searched_this_round,
        "round_new": ledger.new_this_round,
        "trace": trace,
    }
