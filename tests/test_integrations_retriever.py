"""HopgraphRetriever as LangChain uses it: invoke/ainvoke/batch, inside an LCEL chain, with callbacks, and failing."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from hopgraph import Context, HopgraphRetriever, run
from hopgraph.errors import RunFailedError
from hopgraph.index.backend import BackendError
from tests.support.callbacks import Recorder
from tests.support.contracts import (
    PAGES,
    PENALTY,
    QUESTION,
    contract_context,
    contract_index,  # noqa: F401 (the index fixture)
    whole_text,
)
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text


def context(index: str, **overrides: Any) -> Context:
    return contract_context(index, ("legal", "default"), **overrides)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_invoke_returns_the_reported_documents_with_their_best_chunks(index: str) -> None:
    retriever = HopgraphRetriever(context=context(index))
    docs = retriever.invoke(QUESTION)
    # One Document per reported id, in the reported order.
    assert [d.metadata["id"] for d in docs] == run(QUESTION, context=context(index))["reported_ids"]
    first = docs[0]
    assert first.id == "nordlicht"
    assert first.metadata == {
        "id": "nordlicht",
        "title": "Supply Agreement - Nordlicht Components",
        "source": "/contracts/nordlicht-supply-agreement.pdf",
        "container": "legal",
        "page": 2,
        "rank": 1,
    }
    # The chunk the search found, not the four-page file.
    assert PENALTY in first.page_content
    assert first.page_content != whole_text("legal", "nordlicht")
    assert "Aggregate liability" not in first.page_content
    assert [d.metadata["rank"] for d in docs] == list(range(1, len(docs) + 1))
    # A document without pages has no page key; the hr container stays out of sight.
    canteen = next(d for d in docs if d.metadata["id"] == "canteen")
    assert "page" not in canteen.metadata and canteen.metadata["container"] == "default"
    assert all(d.metadata["container"] in ("legal", "default") for d in docs)


def test_max_chunks_bounds_the_page_content(index: str) -> None:
    docs = HopgraphRetriever(context=context(index), max_chunks=1).invoke(QUESTION)
    for doc in docs:
        texts = [t for (c, d), (_, _, pages) in PAGES.items() if d == doc.metadata["id"] for t in pages]
        assert doc.page_content in texts  # exactly one stored chunk


async def test_ainvoke_and_batch_give_what_invoke_gives(index: str) -> None:
    retriever = HopgraphRetriever(context=context(index))
    expected = retriever.invoke(QUESTION)
    assert await retriever.ainvoke(QUESTION) == expected
    other = "Which supplier can terminate with 90 days notice?"
    batched = retriever.batch([QUESTION, other])
    assert batched[0] == expected
    assert batched[1] == retriever.invoke(other)
    assert batched[1][0].metadata["id"] == "carrow"
    assert await retriever.abatch([QUESTION]) == [expected]


def format_docs(docs: list[Document]) -> str:
    lines = []
    for doc in docs:
        page = f", page {doc.metadata['page']}" if "page" in doc.metadata else ""
        lines.append(f"[{doc.metadata['rank']}] {doc.metadata['title']}{page}\n{doc.page_content}")
    return "\n\n".join(lines)


def test_lcel_chain_with_callbacks_and_a_model_behind_http(index: str) -> None:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Answer from these documents only.\n\n{documents}"), ("human", "{question}")]
    )
    retriever = HopgraphRetriever(context=context(index))
    recorder = Recorder()
    with ScriptedOpenAI() as srv:
        srv.chat(chat_text("Nordlicht pays 1.5 percent per week of delay, at most 10 percent [1]."))
        llm = ChatOpenAI(model="scripted", base_url=srv.base_url, api_key=SecretStr("k"), max_retries=0)
        chain = (
            {"documents": retriever | RunnableLambda(format_docs), "question": RunnablePassthrough()}
            | prompt
            | llm
            | StrOutputParser()
        )
        answer = chain.invoke(QUESTION, config={"callbacks": [recorder]})
        sent = srv.chat_requests()
    assert answer == "Nordlicht pays 1.5 percent per week of delay, at most 10 percent [1]."
    assert len(sent) == 1
    system = sent[0]["messages"][0]["content"]
    assert "[1] Supply Agreement - Nordlicht Components, page 2\n" + PENALTY in system
    assert sent[0]["messages"][1]["content"] == QUESTION
    # The retriever's run is a child of the chain's; the graph's run a child of the retriever's.
    [retriever_run] = recorder.runs("retriever")
    assert recorder.parent_of(retriever_run[3]) is not None
    graph_runs = recorder.runs("chain", "hopgraph")
    assert len(graph_runs) == 1 and graph_runs[0][3] == retriever_run[2]
    # The graph's own nodes hang below it.
    nodes = {s[1] for s in recorder.starts if s[3] == graph_runs[0][2]}
    assert {"prepare", "generate", "tools", "finalize"} <= nodes


def test_callbacks_reach_the_graph_run_from_invoke_and_ainvoke(index: str) -> None:
    import asyncio

    retriever = HopgraphRetriever(context=context(index))
    for call in ("invoke", "ainvoke"):
        recorder = Recorder()
        if call == "invoke":
            retriever.invoke(QUESTION, config={"callbacks": [recorder]})
        else:
            asyncio.run(retriever.ainvoke(QUESTION, config={"callbacks": [recorder]}))
        [retriever_run] = recorder.runs("retriever")
        assert retriever_run[3] is None
        assert [s[3] for s in recorder.runs("chain", "hopgraph")] == [retriever_run[2]], call


def test_a_missing_index_raises_and_creates_nothing(tmp_path: Any) -> None:
    missing = tmp_path / "nowhere"
    retriever = HopgraphRetriever(context=context(str(missing)))
    with pytest.raises(BackendError, match=f"no index at {missing}"):
        retriever.invoke(QUESTION)
    assert not missing.exists()


def test_an_unreachable_model_raises(index: str) -> None:
    url = f"http://127.0.0.1:{_free_port()}/v1"
    ctx = context(index, model="openai:m", base_url=url, model_max_retries=0, model_timeout_s=2)
    with pytest.raises(RunFailedError, match="could not be reached") as info:
        HopgraphRetriever(context=ctx).invoke(QUESTION)
    assert info.value.exit_reason == "model_error"


def test_an_unreachable_qdrant_server_raises(index: str) -> None:
    url = f"http://127.0.0.1:{_free_port()}"
    with pytest.raises(RunFailedError, match=f"cannot reach Qdrant at {url}") as info:
        HopgraphRetriever(context=context(index, qdrant_url=url)).invoke(QUESTION)
    assert info.value.exit_reason == "backend_error"


def test_a_model_that_calls_tools_over_http_feeds_the_same_documents(index: str) -> None:
    from tests.support.openai_steps import chat_tool_calls

    with ScriptedOpenAI() as srv:
        srv.chat(
            chat_tool_calls(("search", {"query": "Nordlicht delay penalty", "limit": None})),
            chat_tool_calls(("report_helpful_ids", {"ids": ["d1"]})),
        )
        ctx = context(index, model="openai:scripted", base_url=srv.base_url, model_max_retries=0)
        docs = HopgraphRetriever(context=ctx).invoke(QUESTION)
    assert [d.metadata["id"] for d in docs] == ["nordlicht"]
    assert docs[0].page_content == PENALTY and docs[0].metadata["page"] == 2
