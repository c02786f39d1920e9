"""What of a thread's earlier questions goes into the prompt.

A thread keeps every message (the checkpointer stores them all). Sending them all would make each question on a
thread dearer than the last, until the earlier questions' searches and passages alone filled the token budget
and every new question ended before its first model call. So earlier questions take at most ``HISTORY_SHARE`` of
the budget: the most recent are sent whole, older ones compacted (the question and its last round: the answer,
or the report and what it said), and the oldest left out. The current question keeps the
rest of the budget for its own rounds, and its own messages are always sent whole. During one question's run
what is sent of the earlier ones stays the same from turn to turn, so a provider's prompt cache keeps working.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from hopgraph.state import is_question, question_position
from hopgraph.tokens import message_tokens

# The share of the token budget earlier questions may take; the current question's rounds get the rest.
HISTORY_SHARE = 0.5


def prompt_history(messages: Sequence[BaseMessage], token_budget: int) -> list[BaseMessage]:
    """The thread's messages as the prompt carries them (see the module docstring).

    Earlier questions are taken newest first: whole while they fit, then compacted while they fit; the first that
    does not fit even compacted ends the window, so what is sent is the most recent stretch of the thread, and
    only that stretch is counted (a thread of any length costs at most the allowance's worth of counting).
    """
    start = max(question_position(messages), 0)
    earlier, current = messages[:start], list(messages[start:])
    allowance = int(token_budget * HISTORY_SHARE)
    kept: list[list[int]] = []
    total, whole = 0, True
    for exchange in reversed(_exchanges(earlier)):
        if whole:
            size = sum(message_tokens(earlier[i]) for i in exchange)
            if total + size <= allowance:
                kept.append(exchange)
                total += size
                continue
            whole = False
        compact = _compacted(earlier, exchange)
        size = sum(message_tokens(earlier[i]) for i in compact)
        if total + size > allowance:
            break
        kept.append(compact)
        total += size
    return [earlier[i] for exchange in reversed(kept) for i in exchange] + current


def _exchanges(messages: Sequence[BaseMessage]) -> list[list[int]]:
    """Message positions cut before each question (anything before the first question is an exchange of its own)."""
    exchanges: list[list[int]] = []
    for i, message in enumerate(messages):
        if is_question(message) or not exchanges:
            exchanges.append([])
        exchanges[-1].append(i)
    return exchanges


def _compacted(messages: Sequence[BaseMessage], exchange: list[int]) -> list[int]:
    """The question and the exchange's last reply: its text, or its tool calls with their results (a call
    without its result makes no valid request, so such a reply is left out)."""
    head = [exchange[0]] if is_question(messages[exchange[0]]) else []
    replies = [i for i in exchange if isinstance(messages[i], AIMessage)]
    if not replies:
        return head
    last = messages[replies[-1]]
    if not isinstance(last, AIMessage) or not last.tool_calls:
        return [*head, replies[-1]]
    wanted = {c.get("id") for c in last.tool_calls}
    results = {i: m.tool_call_id for i in exchange if i > replies[-1]
               and isinstance(m := messages[i], ToolMessage) and m.tool_call_id in wanted}
    if set(results.values()) != wanted:
        return head
    return [*head, replies[-1], *results]
