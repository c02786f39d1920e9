"""as_tool: hopgraph as a LangChain tool another agent can call.

Owns the tool's one-argument schema (``question``), its default names and descriptions, and what the calling agent
reads back: the cited answer with its sources (``answer`` mode) or the ranked documents, titled, with a snippet each
(``ids`` mode). A run that fails comes back to the agent as a tool error it can read, not as an exception that ends
the agent's run.

    from hopgraph import Context, as_tool

    tool = as_tool(context=Context(containers=["legal"]), mode="answer")
    agent = create_react_agent(model, [tool])
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.tools import BaseTool, ToolException
from pydantic import BaseModel, ConfigDict, Field

from hopgraph.config import MODES, Context
from hopgraph.errors import HopgraphError
from hopgraph.index.backend import BackendError
from hopgraph.integrations.runs import Outcome, arun_question, result_text, run_question

DEFAULT_NAME = "search_documents"
DESCRIPTIONS = {
    "ids": (
        "Find the documents that answer a question in the document collection. Searches in several rounds and "
        "returns the most relevant documents, best first, each with its title, id and a snippet. Input: the full "
        "question in natural language."
    ),
    "answer": (
        "Answer a question from the document collection. Searches in several rounds and returns an answer in "
        "which every claim cites its source as [1], [2], with the list of sources (title, page, file). Input: "
        "the full question in natural language."
    ),
}
# What OpenAI-compatible APIs accept as a function name.
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Failures a caller can act on; anything else is a bug and propagates.
_RUN_ERRORS = (HopgraphError, BackendError, ValueError)


class QuestionInput(BaseModel):
    question: str = Field(description="The question to answer from the documents, in natural language.")


class HopgraphTool(BaseTool):
    """One question in, the result of one hopgraph run out (see :func:`as_tool`)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = DEFAULT_NAME
    description: str = DESCRIPTIONS["ids"]
    args_schema: type[BaseModel] = QuestionInput
    handle_tool_error: bool = True
    context: Context = Field(default_factory=Context)

    def _run(self, question: str, run_manager: CallbackManagerForToolRun | None = None) -> str:
        callbacks = run_manager.get_child() if run_manager else None
        try:
            outcome = run_question(question, self.context, callbacks=callbacks)
        except _RUN_ERRORS as exc:
            raise _tool_error(exc) from exc
        return self._text(outcome)

    async def _arun(self, question: str, run_manager: AsyncCallbackManagerForToolRun | None = None) -> str:
        callbacks = run_manager.get_child() if run_manager else None
        try:
            outcome = await arun_question(question, self.context, callbacks=callbacks)
        except _RUN_ERRORS as exc:
            raise _tool_error(exc) from exc
        return self._text(outcome)

    def _text(self, outcome: Outcome) -> str:
        return result_text(outcome, self.context.mode)


def _tool_error(exc: Exception) -> ToolException:
    return ToolException(f"The document search failed: {exc}")


def as_tool(
    context: Context | None = None,
    mode: str | None = None,
    name: str = DEFAULT_NAME,
    description: str | None = None,
) -> BaseTool:
    """A LangChain tool that runs hopgraph on the ``question`` it is called with.

    ``context`` holds the run settings (model, index, containers, tags); ``mode`` (``ids`` or ``answer``) overrides
    its mode. The calling model never chooses containers or any other setting: only the question.
    """
    ctx = context or Context()
    if mode is not None:
        ctx = replace(ctx, mode=mode)
    if ctx.mode not in MODES:
        raise ValueError(f"unknown mode '{ctx.mode}'; use one of: {', '.join(MODES)}")
    if not _NAME.match(name):
        raise ValueError(f"tool name '{name}' must be 1 to 64 letters, digits, '_' or '-'")
    fields: dict[str, Any] = {"name": name, "description": description or DESCRIPTIONS[ctx.mode], "context": ctx}
    return HopgraphTool(**fields)
