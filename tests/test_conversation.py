"""A thread's earlier questions in the prompt: the newest whole, older ones compacted, the oldest left out."""

from __future__ import annotations

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph import Context, run
from hopgraph.conversation import HISTORY_SHARE, prompt_history
from hopgraph.index.memory import MemoryBackend
from hopgraph.tokens import count_messages
from tests.scripted import ScriptedChatModel, call, calls
from tests.test_policy import QUESTION, multi_hop_backend

PASSAGE = "The supplier delivered the housings three weeks late because a casting machine broke down. " * 8


def _exchange(n: int, answer: bool = True) -> list[BaseMessage]:
    """One earlier question: a search round with a long result, then a final answer (or a report)."""
    search = AIMessage(content="", tool_calls=[{"name": "search", "args": {"query": f"q{n}"}, "id": f"s{n}",
                                                "type": "tool_call"}])
    found = ToolMessage(content=PASSAGE, tool_call_id=f"s{n}", name="search")
    if answer:
        last: list[BaseMessage] = [AIMessage(content=f"Answer {n} [S1].")]
    else:
        last = [AIMessage(content="", tool_calls=[{"name": "report_helpful_ids", "args": {"ids": [f"d{n}"]},
                                                   "id": f"r{n}", "type": "tool_call"}]),
                ToolMessage(content="Reported 1 id.", tool_call_id=f"r{n}", name="report_helpful_ids")]
    return [HumanMessage(content=f"Question {n}?"), search, found, *last]


def _tokens(messages: list[BaseMessage]) -> int:
    return count_messages(messages) - count_messages([])


def _check_pairing(messages: list[BaseMessage]) -> None:
    """Every tool call has its result and every result its call, as the chat APIs require."""
    asked = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    assert asked == answered


def test_earlier_questions_that_fit_their_share_are_sent_whole() -> None:
    history = [*_exchange(1), *_exchange(2), HumanMessage(content="Question 3?")]
    assert prompt_history(history, token_budget=10_000) == history


def test_the_newest_stay_whole_older_ones_are_compacted_the_oldest_left_out() -> None:
    earlier = [m for n in range(1, 7) for m in _exchange(n, answer=n % 2 == 0)]
    current = [HumanMessage(content="Question 7?"), *_exchange(70)[1:3]]
    budget = int(_tokens(earlier) * 0.8 / HISTORY_SHARE)  # earlier questions take more than their share
    sent = prompt_history([*earlier, *current], budget)
    assert sent[-len(current):] == current
    kept = sent[: -len(current)]
    assert _tokens(kept) <= budget * HISTORY_SHARE
    _check_pairing(sent)
    # The newest earlier question is whole; the oldest lost its search round but kept question and last reply.
    assert kept[-len(_exchange(6)):] == _exchange(6)
    reported = _exchange(1, answer=False)
    assert kept[:3] == [reported[0], *reported[-2:]]  # a report keeps its call and result together
    assert kept[3:5] == [_exchange(2)[0], _exchange(2)[-1]]
    # Far over, even compacted: the oldest are left out altogether, the newest kept (compacted).
    report = _exchange(5, answer=False)
    newest = [report[0], *report[-2:], _exchange(6)[0], _exchange(6)[-1]]
    tight = prompt_history([*earlier, *current], int(_tokens(newest) / HISTORY_SHARE) + 1)
    assert tight == [*newest, *current]


def test_a_last_reply_whose_calls_have_no_results_is_left_out_when_compacted() -> None:
    cut = _exchange(1)[:2]  # the run stopped after asking for a search
    earlier = [*cut, *_exchange(2)]
    room = _tokens([*_exchange(2), cut[0]])  # the newest whole, and the question alone of the cut one
    sent = prompt_history([*earlier, HumanMessage(content="Question 3?")], int(room / HISTORY_SHARE))
    assert sent[0] == HumanMessage(content="Question 1?") and sent[1] == _exchange(2)[0]
    _check_pairing(sent)


def test_a_long_thread_keeps_answering_within_the_token_budget() -> None:
    saver, backend = InMemorySaver(), multi_hop_backend()
    context = Context(model="builtin", backend=backend, token_budget=8_000)
    for n in range(12):
        result = run(f"{QUESTION} ({n})", context=context, thread_id="long", checkpointer=saver)
        assert result["exit_reason"] == "reported", (n, result.get("error"))
        assert result["turns"] >= 1 and all(t["prompt_tokens"] <= 8_000 for t in result["trace"])


def test_what_a_model_is_sent_on_a_long_thread() -> None:
    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", PASSAGE)
    model = ScriptedChatModel(replies=[calls(call("search_documents", {"query": "casting machine"})),
                                       AIMessage(content="The casting machine broke down [S1].")])
    saver = InMemorySaver()
    for n in range(19):
        model.replies.extend([calls(call("search_documents", {"query": f"casting machine {n}"})),
                              AIMessage(content="The casting machine broke down [S1].")])
    context = Context(chat_model=model, backend=backend, mode="answer", token_budget=4_000)
    for n in range(20):
        run(f"Why was delivery {n} late?", context=context, thread_id="t", checkpointer=saver)
    for prompt in model.prompts:
        _check_pairing(prompt)
        assert count_messages(prompt) <= 4_000
    last = model.prompts[-1]
    assert last[-3].content == "Why was delivery 19 late?"  # the current question, whole
    earlier = last[1:-3]
    assert count_messages(earlier) <= 4_000 * HISTORY_SHARE
    # The most recent stretch of the thread: the newest questions with their search rounds, older ones without,
    # the oldest left out.
    asked = [m.content for m in earlier if isinstance(m, HumanMessage)]
    assert asked == [f"Why was delivery {n} late?" for n in range(19 - len(asked), 19)] and len(asked) < 19
    searched = [m for m in earlier if isinstance(m, ToolMessage)]
    assert 0 < len(searched) < len(asked) and earlier[-2].type == "tool"
