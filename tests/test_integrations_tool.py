"""as_tool inside a LangGraph prebuilt agent driven by a scripted OpenAI-compatible model over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent
from pydantic import SecretStr

from hopgraph import Context, as_tool, run
from tests.support.callbacks import Recorder
from tests.support.contracts import (
    PENALTY,
    QUESTION,
    contract_context,
    contract_index,  # noqa: F401 (the index fixture)
    )
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text, chat_tool_calls

FINAL = "Nordlicht pays 1.5 percent of the order value per week of delay."

# create_react_agent is the agent langgraph itself ships; langchain's create_agent (its successor) is not a dependency.
pytestmark = pytest.mark.filterwarnings("ignore:create_react_agent has been moved")


def context(index: str, **overrides: Any) -> Context:
    return contract_context(index, **overrides)


def agent_model(srv: ScriptedOpenAI) -> ChatOpenAI:
    return ChatOpenAI(model="scripted", base_url=srv.base_url, api_key=SecretStr("k"), max_retries=0)


def tool_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in request["messages"] if m["role"] == "tool"]


def test_ids_mode_in_a_react_agent(index: str) -> None:
    tool = as_tool(context=context(index), mode="ids")
    recorder = Recorder()
    with ScriptedOpenAI() as srv:
        srv.chat(chat_tool_calls(("search_documents", {"question": QUESTION})), chat_text(FINAL))
        agent = create_react_agent(agent_model(srv), [tool])
        out = agent.invoke({"messages": [("user", QUESTION)]}, config={"callbacks": [recorder]})
        sent = srv.chat_requests()
    # The agent's model sees one tool with one argument: the question (no containers, no settings).
    [spec] = sent[0]["tools"]
    assert spec["function"]["name"] == "search_documents"
    assert spec["function"]["parameters"]["properties"].keys() == {"question"}
    assert spec["function"]["parameters"]["required"] == ["question"]
    # What the agent's model reads back: the reported documents, titled, with ids and snippets, best first.
    [tool_message] = tool_messages(sent[1])
    expected_ids = run(QUESTION, context=context(index))["reported_ids"]
    lines = tool_message["content"].splitlines()
    assert lines[0] == "1. Supply Agreement - Nordlicht Components (id: nordlicht)"
    assert lines[1] == "   " + PENALTY
    assert [line.rsplit("(id: ", 1)[1].rstrip(")") for line in lines if "(id: " in line] == expected_ids
    assert out["messages"][-1].content == FINAL
    # The hopgraph graph runs as a child of the tool's run.
    [tool_run] = recorder.runs("tool", "search_documents")
    [graph_run] = recorder.runs("chain", "hopgraph")
    assert graph_run[3] == tool_run[2]


async def test_answer_mode_in_a_react_agent_async(index: str) -> None:
    tool = as_tool(context=context(index), mode="answer", name="ask_contracts", description="Ask the contracts.")
    with ScriptedOpenAI() as srv:
        srv.chat(chat_tool_calls(("ask_contracts", {"question": QUESTION})), chat_text(FINAL))
        agent = create_react_agent(agent_model(srv), [tool])
        out = await agent.ainvoke({"messages": [("user", QUESTION)]})
        sent = srv.chat_requests()
    [spec] = sent[0]["tools"]
    assert spec["function"]["name"] == "ask_contracts"
    assert spec["function"]["description"] == "Ask the contracts."
    [tool_message] = tool_messages(sent[1])
    answer, sources = tool_message["content"].split("\n\nSources:\n")
    assert "1.5 percent" in answer and "[1]" in answer
    assert sources.splitlines()[0] == (
        "[1] Supply Agreement - Nordlicht Components, page 2 (legal: /contracts/nordlicht-supply-agreement.pdf)"
    )
    assert out["messages"][-1].content == FINAL


def test_a_failed_run_is_a_tool_error_the_agent_reads(tmp_path: Any) -> None:
    missing = tmp_path / "nowhere"
    tool = as_tool(context=context(str(missing)))
    with ScriptedOpenAI() as srv:
        srv.chat(chat_tool_calls(("search_documents", {"question": QUESTION})), chat_text("The search is down."))
        agent = create_react_agent(agent_model(srv), [tool])
        out = agent.invoke({"messages": [("user", QUESTION)]})
        sent = srv.chat_requests()
    [message] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert message.status == "error"
    assert str(message.content).startswith(f"The document search failed: no index at {missing}")
    assert tool_messages(sent[1])[0]["content"] == message.content
    assert out["messages"][-1].content == "The search is down."
    assert not missing.exists()


def test_bad_settings_are_refused_when_the_tool_is_made(index: str) -> None:
    with pytest.raises(ValueError, match="unknown mode 'fast'"):
        as_tool(context=context(index), mode="fast")
    with pytest.raises(ValueError, match="tool name 'search docs'"):
        as_tool(context=context(index), name="search docs")
