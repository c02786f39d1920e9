"""as_node: hopgraph as a node of a parent LangGraph graph with ``messages`` state and a shared checkpointer."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, MessagesState, StateGraph
from pydantic import SecretStr

from hopgraph import Context, as_node, run
from hopgraph.errors import InputError
from hopgraph.index.backend import BackendError
from tests.support.contracts import (
    PENALTY,
    QUESTION,
    contract_context,
    contract_index,  # noqa: F401 (the index fixture)
    )
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text

FOLLOW_UP = "Which supplier may terminate with 90 days notice?"


def context(index: str, **overrides: Any) -> Context:
    return contract_context(index, **overrides)


def parent_graph(node: Any, checkpointer: Any = None, respond: Any = None) -> Any:
    builder = StateGraph(MessagesState)
    builder.add_node("documents", node)
    builder.add_edge(START, "documents")
    if respond is not None:
        builder.add_node("respond", respond)
        builder.add_edge("documents", "respond")
        builder.add_edge("respond", END)
    else:
        builder.add_edge("documents", END)
    return builder.compile(checkpointer=checkpointer)


def subgraph_messages(saver: Any, thread_id: str) -> list[Any]:
    """The messages of hopgraph's own state, as the shared checkpointer holds them (namespace: the node's name)."""
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": "documents"}}
    latest = saver.get_tuple(config)
    assert latest is not None, "the subgraph's state is not in the parent's checkpointer"
    return list(latest.checkpoint["channel_values"]["messages"])


def test_question_in_result_out_shared_checkpointer_nothing_leaks(index: str) -> None:
    saver = InMemorySaver()
    graph = parent_graph(as_node(context(index)), checkpointer=saver)
    config = {"configurable": {"thread_id": "t1"}}
    out = graph.invoke({"messages": [HumanMessage(QUESTION)]}, config)

    # hopgraph's result reaches the parent: one AI message, its text and its fields.
    human, reply = out["messages"]
    assert isinstance(reply, AIMessage) and reply.name == "hopgraph"
    expected = run(QUESTION, context=context(index))
    shared = reply.response_metadata["hopgraph"]
    assert shared["reported_ids"] == expected["reported_ids"] and shared["reported_ids"][0] == "nordlicht"
    assert shared["titles"]["nordlicht"] == "Supply Agreement - Nordlicht Components"
    assert str(reply.content).splitlines()[:2] == [
        "1. Supply Agreement - Nordlicht Components (id: nordlicht)",
        "   " + PENALTY,
    ]
    # Nothing of hopgraph's state leaks into the parent's: no keys, no tool messages.
    assert set(graph.get_state(config).values) == {"messages"}
    assert not any(isinstance(m, ToolMessage) or getattr(m, "tool_calls", None) for m in out["messages"])

    # The parent's question reached hopgraph, whose state sits in the parent's checkpointer.
    inner = subgraph_messages(saver, "t1")
    assert [m.content for m in inner if m.type == "human"] == [QUESTION]
    assert any(isinstance(m, ToolMessage) for m in inner)

    # A follow-up on the parent's thread continues hopgraph's conversation.
    out = graph.invoke({"messages": [HumanMessage(FOLLOW_UP)]}, config)
    assert [m.type for m in out["messages"]] == ["human", "ai", "human", "ai"]
    assert out["messages"][-1].response_metadata["hopgraph"]["reported_ids"][0] == "carrow"
    inner = subgraph_messages(saver, "t1")
    assert [m.content for m in inner if m.type == "human"] == [QUESTION, FOLLOW_UP]
    assert set(graph.get_state(config).values) == {"messages"}
    # Another parent thread starts hopgraph afresh.
    graph.invoke({"messages": [HumanMessage(FOLLOW_UP)]}, {"configurable": {"thread_id": "t2"}})
    assert [m.content for m in subgraph_messages(saver, "t2") if m.type == "human"] == [FOLLOW_UP]


def test_the_parent_model_reads_the_cited_answer(index: str) -> None:
    with ScriptedOpenAI() as srv:
        srv.chat(chat_text("Nordlicht pays 1.5 percent per week [1]."))
        model = ChatOpenAI(model="scripted", base_url=srv.base_url, api_key=SecretStr("k"), max_retries=0)

        def respond(state: MessagesState) -> dict[str, Any]:
            return {"messages": [model.invoke(state["messages"])]}

        graph = parent_graph(as_node(context(index), mode="answer"), InMemorySaver(), respond)
        out = graph.invoke({"messages": [HumanMessage(QUESTION)]}, {"configurable": {"thread_id": "a"}})
        [sent] = srv.chat_requests()
    assert [m["role"] for m in sent["messages"]] == ["user", "assistant"]
    assert sent["messages"][0]["content"] == QUESTION
    handed_over = sent["messages"][1]["content"]
    assert "1.5 percent" in handed_over and "[1]" in handed_over
    assert "[1] Supply Agreement - Nordlicht Components, page 2 (legal: /contracts/" in handed_over
    shared = out["messages"][1].response_metadata["hopgraph"]
    assert shared["answer"] and handed_over.startswith(shared["answer"])
    assert shared["citations"][0]["title"] == "Supply Agreement - Nordlicht Components"
    assert out["messages"][-1].content == "Nordlicht pays 1.5 percent per week [1]."


async def test_async_parent_with_a_sqlite_checkpointer(index: str, tmp_path: Any) -> None:
    db = tmp_path / "checkpoints.sqlite"
    async with AsyncSqliteSaver.from_conn_string(str(db)) as saver:
        graph = parent_graph(as_node(context(index), mode="answer"), checkpointer=saver)
        config = {"configurable": {"thread_id": "s1"}}
        out = await graph.ainvoke({"messages": [HumanMessage(QUESTION)]}, config)
        assert "1.5 percent" in str(out["messages"][-1].content)
        state = await graph.aget_state(config)
        assert set(state.values) == {"messages"}
    with sqlite3.connect(db) as conn:
        namespaces = {row[0] for row in conn.execute("SELECT DISTINCT checkpoint_ns FROM checkpoints")}
    assert namespaces == {"", "documents"}


def test_without_a_parent_checkpointer_and_when_it_fails(index: str, tmp_path: Any) -> None:
    graph = parent_graph(as_node(context(index)))
    first = graph.invoke({"messages": [HumanMessage(QUESTION)]})
    assert first["messages"][-1].response_metadata["hopgraph"]["reported_ids"][0] == "nordlicht"
    missing = tmp_path / "nowhere"
    broken = parent_graph(as_node(context(str(missing))))
    with pytest.raises(BackendError, match=f"no index at {missing}"):
        broken.invoke({"messages": [HumanMessage(QUESTION)]})
    assert not missing.exists()
    with pytest.raises(ValueError, match="unknown mode"):
        as_node(context(index), mode="summary")
    # A parent state without a user message has no question to hand over.
    with pytest.raises(InputError, match="no user message"):
        graph.invoke({"messages": [AIMessage("Hello, how can I help?")]})
