"""HopgraphRetriever: hopgraph as a LangChain retriever.

Owns the mapping from a run to LangChain ``Document``s: one per reported document, in the reported order, with the
chunks the run's searches showed for it as ``page_content`` and the document's id, title, source, container, page
and rank as metadata; and ``k``, the most documents a call returns (set on the retriever, or per call).

    from hopgraph import Context, HopgraphRetriever

    retriever = HopgraphRetriever(context=Context(containers=["legal"]), k=5)
    docs = retriever.invoke("Which supplier pays a delay penalty, and how much?")
    best = retriever.invoke("Which supplier pays a delay penalty, and how much?", k=1)
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from hopgraph.config import Context
from hopgraph.index.backend import Chunk
from hopgraph.integrations.runs import Outcome, arun_question, run_question
from hopgraph.runtime import get_backend, get_scope

# Chunks per document when the run's searches showed none (say, a document only read): its opening chunks.
FALLBACK_CHUNKS = 1


class HopgraphRetriever(BaseRetriever):
    """Runs the agentic search loop for each query and returns the documents it reported, best first.

    ``context`` holds every setting of the run (model, index, containers, tags, turn cap); the mode is always
    ``ids``. ``k`` bounds the documents returned (the run may report fewer, none when nothing supports the query);
    ``invoke(query, k=...)`` overrides it for one call. Unknown arguments are refused. A run that fails (no index,
    model unreachable, index down) raises instead of returning ``[]``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    context: Context = Field(default_factory=Context)
    k: int | None = Field(default=None, ge=1)
    """At most this many documents per call; ``None``: as many as the run reports (``context.max_reported_ids``)."""
    max_chunks: int = Field(default=3, ge=1)
    """At most this many chunks per document in ``page_content``, in the order the run's searches showed them."""

    def _run_context(self, k: int | None) -> Context:
        bound = self.k if k is None else _checked_k(k)
        reported = self.context.max_reported_ids if bound is None else min(self.context.max_reported_ids, bound)
        # The bound reaches the run itself: the report is cut there, so the best k come back.
        return replace(self.context, mode="ids", max_reported_ids=reported)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, k: int | None = None
    ) -> list[Document]:
        context = self._run_context(k)
        outcome = run_question(query, context, callbacks=run_manager.get_child())
        return self._documents(outcome, context)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, k: int | None = None
    ) -> list[Document]:
        context = self._run_context(k)
        outcome = await arun_question(query, context, callbacks=run_manager.get_child())
        return await asyncio.to_thread(self._documents, outcome, context)

    def _documents(self, outcome: Outcome, context: Context) -> list[Document]:
        backend = get_backend(context)
        scope = get_scope(context)
        documents = []
        for rank, doc_id in enumerate(outcome.reported_ids[: context.max_reported_ids], start=1):
            stored = backend.read(doc_id, scope)
            chunks = list(stored.chunks) if stored is not None else []
            texts = outcome.passages.get(doc_id, [])[: self.max_chunks]
            if not texts:
                texts = [c.text for c in chunks[:FALLBACK_CHUNKS]]
            first = _chunk_with_text(chunks, texts[0]) if texts else None
            metadata: dict[str, Any] = {
                "id": doc_id,
                "title": (stored.title if stored is not None else "") or outcome.title(doc_id),
                "source": stored.source if stored is not None else "",
                "container": stored.container if stored is not None else "",
                "rank": rank,
            }
            if first is not None and first.page is not None:
                metadata["page"] = first.page
            documents.append(Document(id=doc_id, page_content="\n\n".join(texts), metadata=metadata))
        return documents


def _checked_k(k: Any) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a whole number of documents, at least 1, not {k!r}")
    return k


def _chunk_with_text(chunks: list[Chunk], text: str) -> Chunk | None:
    return next((c for c in chunks if c.text == text), None)
