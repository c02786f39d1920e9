"""One run of a question for the adapters, and what they all make of it.

Owns what the retriever, the agent tool, the subgraph node and the MCP server share: running a question through
``hopgraph.api`` with the caller's LangChain callbacks as parent of the graph's run, keeping the chunks the run's
searches showed for each document (the "best chunks"), turning a failed run into an exception, and the plain-text
form of a result that another model reads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.runnables.config import RunnableConfig, set_config_context

from hopgraph import api
from hopgraph.config import Context
from hopgraph.errors import RunFailedError
from hopgraph.index.backend import BackendError
from hopgraph.state import run_failed

# A read shows a whole document, not a chunk a search ranked for the question.
WHOLE_DOCUMENT_TOOLS = frozenset({"read"})
SNIPPET_CHARS = 300


@dataclass
class Outcome:
    """What one run gives the adapters."""

    result: dict[str, Any]
    """The same fields ``hopgraph.api.run`` returns: reported_ids, titles, exit_reason, answer, citations..."""
    passages: dict[str, list[str]] = field(default_factory=dict)
    """Document id -> the chunk texts this run's searches showed for it, in the order they were first shown."""

    @property
    def reported_ids(self) -> list[str]:
        return list(self.result.get("reported_ids") or [])

    def title(self, doc_id: str) -> str:
        return str((self.result.get("titles") or {}).get(doc_id, ""))


class Collector:
    """Folds the ``{node: update}`` items of a streamed run into an Outcome."""

    def __init__(self) -> None:
        self.result: dict[str, Any] = {}
        self.passages: dict[str, list[str]] = {}
        self._short_to_doc: dict[str, str] = {}

    def add(self, update: Mapping[str, Any]) -> None:
        for values in update.values():
            if not isinstance(values, Mapping):
                continue
            # The result fields have no reducer, so the run's last write is their final value.
            for key in api.RESULT_KEYS:
                if key in values:
                    self.result[key] = values[key]
            for doc, short in (values.get("doc_to_short") or {}).items():
                self._short_to_doc[short] = doc
            for message in values.get("messages") or []:
                self._add_shown(getattr(message, "artifact", None))

    def _add_shown(self, artifact: Any) -> None:
        if not isinstance(artifact, Mapping) or artifact.get("tool") in WHOLE_DOCUMENT_TOOLS:
            return
        for shown in artifact.get("docs") or []:
            doc = self._short_to_doc.get(str(shown.get("id")))
            text = shown.get("text")
            if doc is None or not isinstance(text, str) or not text.strip():
                continue
            texts = self.passages.setdefault(doc, [])
            if text not in texts:
                texts.append(text)

    def outcome(self) -> Outcome:
        raise_for_failure(self.result)
        return Outcome(result=self.result, passages=self.passages)


def collect(updates: Iterable[Mapping[str, Any]]) -> Outcome:
    collector = Collector()
    for update in updates:
        collector.add(update)
    return collector.outcome()


def raise_for_failure(result: Mapping[str, Any]) -> None:
    """A failed run (model or index down) raises instead of looking like a search that found nothing."""
    if run_failed(result):
        reason = str(result.get("exit_reason") or "")
        error = str(result.get("error") or "")
        raise RunFailedError(f"hopgraph could not finish the run ({reason or 'error'}): {error or reason}", reason)


def require_index(context: Context) -> None:
    """An embedded index that is not there is an error, before a run would create an empty one."""
    if context.backend is not None or context.qdrant_url:
        return
    path = Path(context.index_dir()).expanduser()
    if not (path / "hopgraph.json").is_file():
        raise BackendError(
            f"no index at {path}: build it with `hopgraph ingest PATH --index {path}` (or run `hopgraph demo`), "
            "or point HOPGRAPH_INDEX / the context's index at an existing one"
        )


def _isolated(callbacks: Any) -> RunnableConfig:
    # Only the callbacks carry over: the graph's run is a child run of the caller's, never part of an
    # enclosing LangGraph run (its checkpointer, thread or recursion limit).
    return {"callbacks": callbacks}


def run_question(question: str, context: Context, *, callbacks: Any = None) -> Outcome:
    require_index(context)
    collector = Collector()

    def consume() -> None:
        for update in api.stream(question, context=context):
            collector.add(update)

    with set_config_context(_isolated(callbacks)) as ctx:
        ctx.run(consume)
    return collector.outcome()


async def arun_question(question: str, context: Context, *, callbacks: Any = None) -> Outcome:
    require_index(context)
    collector = Collector()

    async def consume() -> None:
        async for update in api.astream(question, context=context):
            collector.add(update)

    with set_config_context(_isolated(callbacks)) as ctx:
        await asyncio.create_task(consume(), context=ctx)
    return collector.outcome()


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def citation_line(number: int, citation: Mapping[str, Any]) -> str:
    page = f", page {citation['page']}" if citation.get("page") is not None else ""
    where = ": ".join(str(p) for p in (citation.get("container"), citation.get("source")) if p)
    return f"[{number}] {citation.get('title', '')}{page}" + (f" ({where})" if where else "")


def result_text(outcome: Outcome, mode: str) -> str:
    """What a model reads: the cited answer with its sources, or the ranked documents with a snippet each."""
    result = outcome.result
    if mode == "answer":
        lines = [str(result.get("answer") or "").strip() or "No answer was found in the documents."]
        citations = result.get("citations") or []
        if citations:
            lines += ["", "Sources:"]
            lines += [citation_line(int(c.get("number") or i), c) for i, c in enumerate(citations, start=1)]
        return "\n".join(lines)
    ids = outcome.reported_ids
    if not ids:
        return "No relevant documents were found."
    lines = []
    for rank, doc in enumerate(ids, start=1):
        lines.append(f"{rank}. {outcome.title(doc) or doc} (id: {doc})")
        shown = outcome.passages.get(doc)
        if shown:
            lines.append(f"   {snippet(shown[0])}")
    return "\n".join(lines)
