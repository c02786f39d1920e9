"""finalize: turn what the run found into the result.

ids mode: the reported short ids mapped back to document ids, in the model's order, without
duplicates or ids this run never showed. answer mode: the answer with its citations: the model's
(or the built-in policy's) answer, else one the built-in policy composes from this turn's passages,
except after a model, index or token-budget error (``NO_ANSWER_EXITS``), which leaves the answer
empty and the error in ``error``: an error is never passed off as an answer.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, is_dataclass
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from hopgraph.config import Context
from hopgraph.state import NO_ANSWER_EXITS, State, latest_question

log = logging.getLogger("hopgraph")

# Exits that report what was gathered instead of an empty list.
GATHERED_EXITS = ("thrash", "budget")


def _gathered(state: State) -> list[str]:
    shown = state.get("shown") or []
    order = {short: i for i, short in enumerate(shown)}
    scores = state.get("run_scores") or {}
    ranked = sorted(scores, key=lambda s: (-scores[s], order.get(s, len(order)), s))
    return [s for s in ranked if s in order]


def ids_result(state: State, reason: str) -> list[str]:
    short_to_doc = {short: doc for doc, short in (state.get("doc_to_short") or {}).items()}
    shown = set(state.get("shown") or [])
    if reason == "reported":
        shorts = state.get("report") or []
    elif reason in GATHERED_EXITS:
        shorts = _gathered(state)
    else:
        return []
    result: list[str] = []
    for short in shorts:
        doc = short_to_doc.get(short)
        if short in shown and doc is not None and doc not in result:
            result.append(doc)
    return result


def _answer_result(state: State, reason: str, containers: list[str]) -> dict[str, Any]:
    if reason in NO_ANSWER_EXITS:
        return {"answer": "", "citations": [], "markers": [], "error": state.get("error") or f"the run ended: {reason}"}
    from hopgraph.citations import resolve_citations
    from hopgraph.policies.answer.builtin import compose_extractive_answer
    from hopgraph.tools.search_documents import turn_refs

    memory = state.get("turn_memory") or {}
    refs = memory.get("refs", {})
    messages = state.get("messages") or []
    text = ""
    if reason == "answered" and messages and isinstance(messages[-1], AIMessage):
        content = messages[-1].content
        text = content if isinstance(content, str) else str(content)
    if not text.strip():
        if reason == "max_turns":
            log.warning("round cap hit: answering from the evidence gathered so far")
        # Only this turn's passages: the registry also holds earlier turns' refs.
        text = compose_extractive_answer(latest_question(state), turn_refs(memory), containers, messages)
    cited = resolve_citations(text, refs)
    citations = [asdict(c) if is_dataclass(c) else c for c in cited.citations]  # type: ignore[arg-type]
    markers = [asdict(m) if is_dataclass(m) else m for m in cited.markers]  # type: ignore[arg-type]
    update: dict[str, Any] = {"answer": cited.text, "citations": citations, "markers": markers}
    if reason != "answered":
        update["messages"] = [AIMessage(content=cited.text)]
    return update


def finalize(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    reason = state.get("exit_reason") or "max_turns"
    update: dict[str, Any] = {"exit_reason": reason}
    if context.mode == "answer":
        update.update(_answer_result(state, reason, list(context.containers or ())))
    else:
        # Whatever the model listed, the caller asked for at most this many.
        reported = ids_result(state, reason)[: max(context.max_reported_ids, 1)]
        titles = state.get("doc_titles") or {}
        update["reported_ids"] = reported
        update["titles"] = {doc: titles.get(doc, "") for doc in reported}
    log.info("run finished: %s after %d turns", reason, state.get("turns", 0))
    return update
