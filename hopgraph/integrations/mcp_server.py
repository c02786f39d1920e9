"""The MCP server behind ``hopgraph mcp``, built with the official ``mcp`` SDK (the ``mcp`` extra).

Owns the three tools an MCP client sees and their input and output schemas:

- ``search``: one retrieval (hybrid, text or dense), one best chunk per document, best first;
- ``ask``: the agentic loop; ranked ids with titles (``ids``), or the cited answer with its citations (``answer``),
  each mode with its own result schema and a ``found`` flag;
- ``read``: a document by id, in pages of characters.

What may be searched (index, containers, tags) and the model come from the server's own command line, in the
``Context`` given to :func:`build_server`; no tool takes a container, a tag or a setting, so a client cannot widen
them. Bad arguments and failures come back as MCP tool errors (``isError``) with a message, never as a crash.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, RootModel

from hopgraph import __version__
from hopgraph.config import Context
from hopgraph.errors import HopgraphError
from hopgraph.index.backend import BackendError, ScopeError
from hopgraph.integrations.runs import Outcome, result_text, run_question, snippet
from hopgraph.runtime import get_backend, get_scope
from hopgraph.tools._documents import CANDIDATES_PER_DOC, best_chunk_per_doc
from hopgraph.tools.base import ToolArgError, require_str
from hopgraph.tools.read import MAX_READ_CHARS

MAX_LIMIT = 50
INSTRUCTIONS = (
    "Search a private document collection. `ask` runs a multi-round search for a question and returns the "
    "relevant documents (mode 'ids') or an answer that cites its sources (mode 'answer'); `search` is a single "
    "quick retrieval; `read` returns a document's text by an id from an earlier result."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


class SearchHit(BaseModel):
    id: str
    title: str
    container: str
    page: int | None = None
    score: float
    snippet: str


class SearchResult(BaseModel):
    query: str
    mode: str
    results: list[SearchHit]


class FoundDocument(BaseModel):
    id: str
    title: str
    snippet: str = ""


class CitationOut(BaseModel):
    number: int
    title: str
    page: int | None = None
    container: str = ""
    source: str = ""
    doc_id: str = ""
    link: str = ""


class IdsAskResult(BaseModel):
    mode: Literal["ids"]
    found: bool = Field(description="whether any document was reported; false when nothing supports the question")
    exit_reason: str
    documents: list[FoundDocument] = Field(description="the documents, best first")


class AnswerAskResult(BaseModel):
    mode: Literal["answer"]
    found: bool = Field(description="whether the answer cites a document; false for 'Not found in the documents'")
    exit_reason: str
    answer: str = Field(description="the answer, citing sources as [1], [2]")
    citations: list[CitationOut] = Field(description="what [n] refers to")


class AskResult(RootModel[Annotated[IdsAskResult | AnswerAskResult, Field(discriminator="mode")]]):
    """One schema per mode, told apart by ``mode``. The root is declared an object, as MCP wants of an output schema
    (each of the two is one)."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})


class ReadResult(BaseModel):
    id: str
    title: str
    container: str
    source: str
    text: str
    offset: int
    total_chars: int
    next_offset: int | None = Field(description="where the next part starts, or null when this is the end")


def _failure(exc: Exception) -> ToolError:
    if isinstance(exc, ScopeError):
        return ToolError(f"Refused: {exc}")
    return ToolError(str(exc))


def _ask_result(outcome: Outcome, mode: str) -> dict[str, Any]:
    result = outcome.result
    exit_reason = str(result.get("exit_reason", ""))
    answer: IdsAskResult | AnswerAskResult
    if mode == "answer":
        citations = [
            CitationOut(**{k: c.get(k) for k in CitationOut.model_fields if c.get(k) is not None})
            for c in result.get("citations") or []
        ]
        answer = AnswerAskResult(mode="answer", found=bool(citations), exit_reason=exit_reason,
                                 answer=str(result.get("answer") or ""), citations=citations)
    else:
        documents = [
            FoundDocument(id=doc, title=outcome.title(doc), snippet=snippet(outcome.passages.get(doc, [""])[0]))
            for doc in outcome.reported_ids
        ]
        answer = IdsAskResult(mode="ids", found=bool(documents), exit_reason=exit_reason, documents=documents)
    return answer.model_dump(mode="json")


def build_server(context: Context) -> MCPServer:
    """An MCP server whose tools search what ``context`` allows, and nothing else."""
    server = MCPServer(
        "hopgraph",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
        warn_on_duplicate_tools=True,
    )

    @server.tool(annotations=READ_ONLY)
    def search(
        query: Annotated[str, Field(description="What to look for.")],
        mode: Annotated[
            Literal["hybrid", "text", "dense"],
            Field(description='hybrid (dense + BM25), text (BM25; "exact phrase" and -term work) or dense'),
        ] = "hybrid",
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="How many documents.")] = 10,
    ) -> SearchResult:
        """Search the documents once (no agent loop): the best chunk of each matching document, best first."""
        try:
            text = require_str({"query": query}, "query")
            backend = get_backend(context)
            scope = get_scope(context)
            find = {"hybrid": backend.search, "text": backend.text_search, "dense": backend.dense_search}[mode]
            hits = best_chunk_per_doc(find(text, scope, limit * CANDIDATES_PER_DOC), limit)
        except (ToolArgError, BackendError, HopgraphError, ScopeError) as exc:
            raise _failure(exc) from exc
        results = [
            SearchHit(
                id=h.doc_id,
                title=h.chunk.title,
                container=h.chunk.container,
                page=h.chunk.page,
                score=round(h.score, 6),
                snippet=snippet(h.chunk.text),
            )
            for h in hits
        ]
        return SearchResult(query=text, mode=mode, results=results)

    @server.tool(annotations=READ_ONLY)
    def ask(
        question: Annotated[str, Field(description="The question, in natural language.")],
        mode: Annotated[
            Literal["ids", "answer"],
            Field(description="ids: the relevant documents, best first; answer: an answer citing its sources"),
        ] = "ids",
    ) -> Annotated[CallToolResult, AskResult]:
        """Answer a question with a multi-round search: the relevant documents, or an answer with citations.

        The result's ``mode`` says which of the two it is; ``found`` is false when nothing in the documents
        supports the question (no document reported, or an answer without sources)."""
        try:
            text = require_str({"question": question}, "question", max_chars=20_000)
            outcome = run_question(text, replace(context, mode=mode))
        except (ToolArgError, BackendError, HopgraphError, ScopeError) as exc:
            raise _failure(exc) from exc
        return CallToolResult(
            content=[TextContent(type="text", text=result_text(outcome, mode))],
            structured_content=_ask_result(outcome, mode),
        )

    @server.tool(annotations=READ_ONLY)
    def read(
        id: Annotated[str, Field(description="A document id from a search or ask result.")],
        offset: Annotated[int, Field(ge=0, description="Start at this character (from next_offset).")] = 0,
    ) -> ReadResult:
        """Read a document's text by id, up to 12,000 characters at a time."""
        try:
            doc_id = require_str({"id": id}, "id", max_chars=512)
            document = get_backend(context).read(doc_id, get_scope(context))
        except (ToolArgError, BackendError, HopgraphError, ScopeError) as exc:
            raise _failure(exc) from exc
        if document is None:
            raise ToolError(f"No document with id '{doc_id}'. Use an id from a search or ask result.")
        whole = document.text
        if offset > len(whole):
            raise ToolError(f"offset {offset} is past the end of the document ({len(whole)} characters)")
        end = min(offset + MAX_READ_CHARS, len(whole))
        return ReadResult(
            id=document.doc_id,
            title=document.title,
            container=document.container,
            source=document.source,
            text=whole[offset:end],
            offset=offset,
            total_chars=len(whole),
            next_offset=end if end < len(whole) else None,
        )

    return server
