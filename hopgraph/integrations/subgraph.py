"""as_node: the compiled hopgraph graph as a node of a parent LangGraph graph whose state has ``messages``.

Owns the hand-over between the two states. The parent's latest user message goes in as the question; one AI
message comes back, with the result's text (the cited answer, or the ranked documents) as content and the result's
fields under ``response_metadata["hopgraph"]``. Nothing else crosses: hopgraph's own messages, tool calls and run
fields stay in its state, which the parent's checkpointer keeps under the node's name, so a follow-up on the
parent's thread continues hopgraph's conversation too.

    from langgraph.graph import START, MessagesState, StateGraph
    from hopgraph import Context, as_node

    builder = StateGraph(MessagesState)
    builder.add_node("documents", as_node(Context(containers=["legal"]), mode="answer"))
    builder.add_edge(START, "documents")
    graph = builder.compile(checkpointer=saver)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable, RunnableLambda

from hopgraph import api
from hopgraph.config import MODES, Context
from hopgraph.errors import InputError
from hopgraph.graph import build_graph
from hopgraph.integrations.runs import Collector, Outcome, require_index, result_text
from hopgraph.state import is_question

# The result fields the parent gets (in response_metadata), beside the text.
SHARED_FIELDS = {"ids": ("reported_ids", "titles", "exit_reason"), "answer": ("answer", "citations", "exit_reason")}


def _question(state: Mapping[str, Any]) -> str:
    for message in reversed(list(state.get("messages") or [])):
        if isinstance(message, BaseMessage) and is_question(message):
            content = message.content
            return content if isinstance(content, str) else str(content)
    raise InputError("the parent state has no user message to take the question from")


def _reply(outcome: Outcome, mode: str) -> dict[str, Any]:
    shared = {k: outcome.result[k] for k in SHARED_FIELDS[mode] if k in outcome.result}
    message = AIMessage(content=result_text(outcome, mode), name="hopgraph", response_metadata={"hopgraph": shared})
    return {"messages": [message]}


def as_node(context: Context | None = None, *, mode: str | None = None) -> Runnable[Any, dict[str, Any]]:
    """A node for a parent graph with ``messages`` state that runs hopgraph as its subgraph.

    ``context`` holds the run settings (model, index, containers, tags); ``mode`` overrides its mode. The subgraph
    uses the parent's checkpointer; with none, each call starts a fresh conversation.
    """
    ctx = replace(context or Context(), mode=mode) if mode is not None else (context or Context())
    if ctx.mode not in MODES:
        raise ValueError(f"unknown mode '{ctx.mode}'; use one of: {', '.join(MODES)}")
    # checkpointer=True: the subgraph keeps its own conversation in the parent's checkpointer.
    graph = build_graph(checkpointer=True)
    # The turn cap, not the parent's recursion limit (25 by default), bounds a run.
    config: dict[str, Any] = {"recursion_limit": api.RECURSION_LIMIT}

    def invoke(state: Mapping[str, Any]) -> dict[str, Any]:
        require_index(ctx)
        collector = Collector()
        for update in graph.stream({"question": _question(state)}, config, context=ctx, stream_mode="updates"):
            collector.add(update)
        return _reply(collector.outcome(), ctx.mode)

    async def ainvoke(state: Mapping[str, Any]) -> dict[str, Any]:
        require_index(ctx)
        collector = Collector()
        async for update in graph.astream({"question": _question(state)}, config, context=ctx, stream_mode="updates"):
            collector.add(update)
        return _reply(collector.outcome(), ctx.mode)

    return RunnableLambda(invoke, afunc=ainvoke, name="hopgraph")
