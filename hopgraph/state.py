"""Graph state. Thread-level fields persist across user turns; run-level ones are reset by ``prepare``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from hopgraph.errors import InputError


class InputState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    question: str


class OutputState(TypedDict, total=False):
    reported_ids: list[str]
    exit_reason: str
    turns: int
    trace: list[dict[str, Any]]
    error: str
    titles: dict[str, str]
    answer: str
    citations: list[dict[str, Any]]
    markers: list[dict[str, Any]]


# Exits where the run could not do its work (the model or the index failed), as opposed to finding little.
FAILED_EXITS = ("model_error", "backend_error")
# Answer mode: exits that end without an answer, whatever was gathered. The token budget stops a run before the
# model could answer; the others are failures. (Reaching the turn cap, or a search that finds nothing new, still
# ends with the built-in policy's answer from the passages gathered.)
NO_ANSWER_EXITS = (*FAILED_EXITS, "budget")


def run_failed(result: Mapping[str, Any]) -> bool:
    """A result that must be read as an error: the model or the index failed, or the run stopped on an error with
    nothing to show (no answer, no document)."""
    if str(result.get("exit_reason") or "") in FAILED_EXITS:
        return True
    return bool(result.get("error")) and not (result.get("reported_ids") or result.get("answer"))


class RouteState(TypedDict, total=False):
    """What the router after ``decide`` reads: the exit it chose, if any, and whether it just nudged the model
    (only these two fields, so choosing an edge copies no messages)."""

    exit_reason: str
    nudged: bool


class State(InputState, OutputState, total=False):
    # thread level
    doc_to_short: dict[str, str]
    doc_titles: dict[str, str]
    profile: str
    # run level
    shown: list[str]
    run_scores: dict[str, float]
    nudged: bool
    report: list[str] | None
    pending_exit: str
    turn_memory: dict[str, Any]
    round_searched: bool
    round_new: list[str]


# Reset at the start of every user turn so counters never leak from the previous run.
RUN_DEFAULTS: dict[str, Any] = {
    "shown": [],
    "run_scores": {},
    "nudged": False,
    "report": None,
    "pending_exit": "",
    "turn_memory": {},
    "round_searched": False,
    "round_new": [],
    "reported_ids": [],
    "exit_reason": "",
    "turns": 0,
    "trace": [],
    "error": "",
    "titles": {},
    "answer": "",
    "citations": [],
    "markers": [],
}

NUDGE_FLAG = "hopgraph_nudge"


def is_question(message: BaseMessage) -> bool:
    """A user message that is not one of the loop's own nudges."""
    return message.type == "human" and not message.additional_kwargs.get(NUDGE_FLAG)


def question_position(messages: Sequence[BaseMessage]) -> int:
    """Index of the current user question (the last one), or -1 when there is none."""
    for i in range(len(messages) - 1, -1, -1):
        if is_question(messages[i]):
            return i
    return -1


# Questions beyond this are refused instead of being sent on and failing the token budget.
MAX_QUESTION_CHARS = 20_000


def check_question(question: Any, what: str = "question") -> str:
    """The rule every entry point applies to a question (``ask``, ``search``, the API, the graph): not empty,
    not too long. Returns the question as given; errors call it ``what`` (``search`` takes a query)."""
    if not isinstance(question, str) or not question.strip():
        raise InputError(f"the {what} is empty")
    if len(question.strip()) > MAX_QUESTION_CHARS:
        raise InputError(f"the {what} is too long ({len(question.strip())} characters; at most {MAX_QUESTION_CHARS})")
    return question


def latest_question(state: State) -> str:
    """The text of the current user question, or "" when there is none."""
    messages = state.get("messages") or []
    position = question_position(messages)
    if position < 0:
        return ""
    content = messages[position].content
    return content if isinstance(content, str) else str(content)


def last_ai_message(messages: Sequence[BaseMessage]) -> AIMessage | None:
    """The model's latest reply in the current user turn, or None if it has not replied yet."""
    for message in reversed(messages):
        if isinstance(message, AIMessage):
            return message
        if message.type == "human":
            return None
    return None

