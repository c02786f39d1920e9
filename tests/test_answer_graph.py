"""Answer mode through the whole graph (hopgraph.api): builtin policy, scripted models, threads."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.api import delete_thread
from hopgraph.api import run as api_run
from hopgraph.config import Context
from hopgraph.demo import files, questions
from hopgraph.index.backend import Scope
from hopgraph.index.memory import MemoryBackend
from tests.scripted import ScriptedChatModel, call, calls
from tests.test_answer_harness import call as tool_call
from tests.test_answer_harness import demo_backend, new_ledger, run_batch


@pytest.fixture(scope="module")
def backend() -> MemoryBackend:
    return demo_backend()


def _q(qid: str) -> dict[str, Any]:
    return next(q for q in questions() if q["id"] == qid)


def run(question: str, **kw: Any) -> dict[str, Any]:
    kw.setdefault("checkpointer", InMemorySaver())
    return api_run(question, **kw)


def _ctx(backend: MemoryBackend, **kw: Any) -> Context:
    return Context(mode="answer", backend=backend, model="builtin", **kw)


def test_builtin_answer_through_the_graph(backend: MemoryBackend) -> None:
    q = _q("late-supplier-penalty")
    result = run(q["question"], context=_ctx(backend, containers=q["containers"]))
    assert result["exit_reason"] == "answered"
    answer = result["answer"]
    assert "Nordlicht Components GmbH" in answer and "1.5 percent" in answer
    assert "[S" not in answer
    pages = {(c["doc_id"], c["page"]) for c in result["citations"]}
    assert ("nordlicht-supply-agreement.pdf", 2) in pages
    for marker in result["markers"]:
        assert answer[marker["start"]:marker["end"]] == marker["label"]
        assert marker["label"] == f"[{result['citations'][marker['citation']]['number']}]"


def test_container_filter_holds_in_the_graph(backend: MemoryBackend) -> None:
    # Only operations documents are visible: the contract cannot be found or cited.
    result = run(_q("late-supplier-penalty")["question"], context=_ctx(backend, containers=["default"]))
    assert all(c["container"] == "default" for c in result["citations"])
    assert "nordlicht-supply-agreement.pdf" not in {c["doc_id"] for c in result["citations"]}


def test_follow_up_on_a_thread_and_deletion(backend: MemoryBackend) -> None:
    saver = InMemorySaver()
    context = _ctx(backend, containers=["default", "legal"])
    first = run(_q("late-supplier-penalty")["question"], context=context, thread_id="t-answer", checkpointer=saver)
    second = run("How long is the warranty on the TS-40 sensor?", context=context, thread_id="t-answer",
                 checkpointer=saver)
    assert first["exit_reason"] == second["exit_reason"] == "answered"
    assert "three years" in second["answer"]
    assert {c["doc_id"] for c in second["citations"]} == {"ts-40-datasheet.pdf"}
    state = saver.get_tuple({"configurable": {"thread_id": "t-answer"}})
    assert state is not None
    messages: list[BaseMessage] = state.checkpoint["channel_values"]["messages"]
    humans = [m.content for m in messages if m.type == "human"]
    assert humans == [_q("late-supplier-penalty")["question"], "How long is the warranty on the TS-40 sensor?"]
    delete_thread("t-answer", checkpointer=saver)
    assert saver.get_tuple({"configurable": {"thread_id": "t-answer"}}) is None


def test_scripted_model_rewrite_safety_net_and_run_python(backend: MemoryBackend) -> None:
    messy = "wat penalty did nordlicht components agre for late delivry?"
    rewritten = "What penalty did Nordlicht Components agree to for late delivery?"

    def answer(messages: list[BaseMessage]) -> AIMessage:
        tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
        search = next(m for m in tool_messages if m.name == "search_documents")
        python = next(m for m in tool_messages if m.name == "run_python")
        refs = search.artifact["refs"]
        penalty = next(r["ref"] for r in refs if "1.5 percent" in r["text"])
        assert str(python.content).startswith("Output:\n2169.0")
        return AIMessage(content=f"The penalty is 1.5 percent per week [{penalty}], capped at 10 percent "
                                 f"[{penalty}, S99]; three weeks on EUR 48,200 come to EUR 2,169.")

    model = ScriptedChatModel(replies=[
        calls(call("rewrite_query", {"query": rewritten}), call("search_documents", {"query": messy}),
              call("run_python", {"code": "print(48200 * 0.015 * 3)"})),
        answer,
    ])
    result = run(messy, context=Context(mode="answer", backend=backend, chat_model=model,
                                        containers=["legal"]))
    assert result["exit_reason"] == "answered"
    # The search ran on the rewritten question.
    second_prompt = model.prompts[1]
    search_call = next(c for m in second_prompt if isinstance(m, AIMessage) for c in m.tool_calls
                       if c["name"] == "search_documents")
    assert search_call["args"]["query"] == messy  # the model's own message is kept as sent
    search_result = next(m for m in second_prompt if isinstance(m, ToolMessage) and m.name == "search_documents")
    assert search_result.artifact["query"] == rewritten
    # Markers: the known ref becomes [1], the unknown one disappears.
    assert result["answer"] == ("The penalty is 1.5 percent per week [1], capped at 10 percent [1]; three weeks "
                                "on EUR 48,200 come to EUR 2,169.")
    assert [c["doc_id"] for c in result["citations"]] == ["nordlicht-supply-agreement.pdf"]
    assert result["citations"][0]["page"] == 2


def test_scripted_decomposition_is_not_rewritten(backend: MemoryBackend) -> None:
    question = "which supplier was late and what penalty applies"
    model = ScriptedChatModel(replies=[
        calls(call("rewrite_query", {"query": "Which supplier was late, and what penalty applies?"}),
              call("search_documents", {"query": question}),
              call("search_documents", {"query": "supplier missed delivery deadline"}),
              call("search_documents", {"query": "delay penalty clause"})),
        AIMessage(content="Done."),
    ])
    run(question, context=Context(mode="answer", backend=backend, chat_model=model,
                                  containers=["default", "legal"]))
    queries = [m.artifact["query"] for m in model.prompts[1] if isinstance(m, ToolMessage)
               and m.name == "search_documents"]
    assert queries == [question, "supplier missed delivery deadline", "delay penalty clause"]
    refs = [r["ref"] for m in model.prompts[1] if isinstance(m, ToolMessage) and m.name == "search_documents"
            for r in m.artifact["refs"]]
    assert refs == [f"S{i}" for i in range(1, len(refs) + 1)]  # counted up across the batch, no repeats


@pytest.mark.slow
def test_demo_question_on_the_embedded_index(tmp_path: Any) -> None:
    """The real hybrid backend (qdrant-edge, dense + BM25) with the demo corpus ingested."""
    from hopgraph.demo import ingest_demo
    from hopgraph.index.factory import close_backend, open_backend

    index_dir = str(tmp_path / "index")
    backend = open_backend(index_dir=index_dir)
    try:
        report = ingest_demo(backend)
        assert report["documents"] == len(files()) and report["skipped"] == []
        q = _q("late-supplier-penalty")
        result = run(q["question"], context=Context(mode="answer", backend=backend, model="builtin",
                                                    containers=q["containers"]))
        misspelled = _q("misspelled-penalty")
        sloppy = run(misspelled["question"], context=Context(mode="answer", backend=backend, model="builtin",
                                                            containers=misspelled["containers"]))
        # The answer tool's score band is a rule on RRF ranks, whatever the backend's own fusion.
        blocks = run_batch([tool_call("search_documents", query=q["question"], limit=3)], backend,
                           Context(mode="answer", containers=q["containers"]), new_ledger())[0]
        scope = Scope(tuple(q["containers"]))
        rrf = {h.chunk.chunk_id: h.score for h in backend.search(q["question"], scope, 60, fusion="rrf")}
        dbsf = {h.chunk.chunk_id: h.score for h in backend.search(q["question"], scope, 60)}
    finally:
        close_backend(index_dir=index_dir)
    refs = blocks.artifact["refs"]
    assert refs and all(r["score"] == pytest.approx(rrf[r["chunk_id"]]) for r in refs)
    assert any(rrf[r["chunk_id"]] != pytest.approx(dbsf[r["chunk_id"]]) for r in refs)
    assert result["exit_reason"] == "answered"
    assert "Nordlicht Components GmbH" in result["answer"] and "1.5 percent" in result["answer"]
    pages = {(c["doc_id"], c["page"]) for c in result["citations"]}
    assert ("nordlicht-supply-agreement.pdf", 2) in pages
    # "nordlict" names Nordlicht's contract by its title; Carrow Plastics' 2 percent clause must not answer it.
    assert sloppy["exit_reason"] == "answered"
    assert "1.5 percent" in sloppy["answer"] and "2 percent" not in sloppy["answer"], sloppy["answer"]
    assert {(c["doc_id"], c["page"]) for c in sloppy["citations"]} == {("nordlicht-supply-agreement.pdf", 2)}


def test_a_search_that_finds_nothing_new_ends_with_an_answer_from_the_sources(backend: MemoryBackend) -> None:
    question = "Who was the on-call engineer during the telemetry gateway outage?"
    model = ScriptedChatModel(replies=[
        calls(call("search_documents", {"query": "Priya Raman", "limit": 10})),
        calls(call("search_documents", {"query": "Priya Raman", "limit": 10})),  # nothing new: the loop stops
    ])
    result = run(question, context=Context(mode="answer", backend=backend, chat_model=model, containers=["default"]))
    assert len(model.prompts) == 2
    assert result["exit_reason"] == "thrash"
    # The answer is composed from the passages gathered, with citations.
    assert "Priya Raman" in result["answer"] and result["citations"]
    assert "[S" not in result["answer"] and "[1]" in result["answer"]


def test_profile_is_remembered_for_the_thread(backend: MemoryBackend) -> None:
    saver = InMemorySaver()
    context = _ctx(backend, containers=["default"], profile="fast")
    run("How long is the warranty on the TS-40 sensor?", context=context, thread_id="t-prof", checkpointer=saver)
    run("Who was the on-call engineer during the telemetry gateway outage?", context=_ctx(backend,
        containers=["default"]), thread_id="t-prof", checkpointer=saver)
    state = saver.get_tuple({"configurable": {"thread_id": "t-prof"}})
    assert state is not None and state.checkpoint["channel_values"]["profile"] == "fast"


def test_readme_follow_up_answers_with_the_threads_supplier(backend: MemoryBackend) -> None:
    saver = InMemorySaver()
    context = _ctx(backend, containers=["default", "legal"])
    run(_q("late-supplier-penalty")["question"], context=context, thread_id="t-renewal", checkpointer=saver)
    result = run("And the renewal clause?", context=context, thread_id="t-renewal", checkpointer=saver)
    first_round = result["trace"][0]["tool_calls"]
    assert [c["name"] for c in first_round] == ["rewrite_query", "search_documents"]
    assert "Nordlicht Components GmbH" in first_round[1]["args"]["query"]
    # Nordlicht's renewal terms, cited to its contract's page 3, not Meridian's clause.
    assert "31 January 2027" in result["answer"] and "Meridian" not in result["answer"]
    assert [(c["doc_id"], c["page"]) for c in result["citations"]] == [("nordlicht-supply-agreement.pdf", 3)]


def test_a_models_literal_follow_up_search_gets_the_threads_subject(backend: MemoryBackend) -> None:
    saver = InMemorySaver()
    context = _ctx(backend, containers=["default", "legal"])
    run(_q("late-supplier-penalty")["question"], context=context, thread_id="t-literal", checkpointer=saver)
    # A model that searches the follow-up word for word, with nothing of the conversation in it.
    model = ScriptedChatModel(replies=[calls(call("search_documents", {"query": "And the renewal clause?"})),
                                       AIMessage(content="The renewal terms are in the contract [S1].")])
    queries: list[str] = []
    backend.before_query = lambda kind, query: queries.append(query)
    try:
        run("And the renewal clause?", context=_ctx(backend, containers=["default", "legal"], chat_model=model),
            thread_id="t-literal", checkpointer=saver)
    finally:
        backend.before_query = None
    assert queries and all("Nordlicht Components GmbH" in q for q in queries), queries
