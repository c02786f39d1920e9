"""The tools the model may call. Which set is offered depends on the Context mode."""

from __future__ import annotations

import functools

from hopgraph.tools.base import Tool, ToolArgError, ToolEnv, ToolOutcome
from hopgraph.tools.read import ReadTool
from hopgraph.tools.report_helpful_ids import ReportHelpfulIdsTool
from hopgraph.tools.search import SearchTool
from hopgraph.tools.text_search import TextSearchTool

IDS_TOOLS: tuple[Tool, ...] = (SearchTool(), TextSearchTool(), ReadTool(), ReportHelpfulIdsTool())


@functools.cache
def _answer_tools() -> tuple[Tool, ...]:
    # Imported lazily: the sandbox and citation machinery are only needed in answer mode.
    from hopgraph.tools.rewrite_query import RewriteQueryTool
    from hopgraph.tools.run_python import RunPythonTool
    from hopgraph.tools.search_documents import SearchDocumentsTool

    return (RewriteQueryTool(), SearchDocumentsTool(), RunPythonTool())


def tools_for_mode(mode: str, *, run_python: bool = True) -> tuple[Tool, ...]:
    # Tools hold no state, so one set per mode serves every run.
    if mode != "answer":
        return IDS_TOOLS
    tools = _answer_tools()
    return tools if run_python else tuple(t for t in tools if t.name != "run_python")


__all__ = ["IDS_TOOLS", "Tool", "ToolArgError", "ToolEnv", "ToolOutcome", "tools_for_mode"]
