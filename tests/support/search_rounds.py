"""A round of the built-in answer policy made by hand: its search call and the tool message carrying the refs found."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from langchain_core.messages import AIMessage, ToolMessage


def searched(query: str, call_id: str, refs: Sequence[Mapping[str, object]]) -> list[AIMessage | ToolMessage]:
    """A ``search_documents`` call for ``query`` and its result, whose artifact lists ``refs`` (the policy reads only
    the artifact, never the message text)."""
    call = {"name": "search_documents", "args": {"query": query}, "id": call_id, "type": "tool_call"}
    artifact = {"tool": "search_documents", "query": query, "note": None, "error": None, "refs": refs}
    return [AIMessage(content="", tool_calls=[call]),
            ToolMessage(content="", tool_call_id=call_id, name="search_documents", artifact=artifact)]
