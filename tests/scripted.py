"""A scripted chat model for driving the graph in tests: it replays replies and records prompts."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field

Reply = AIMessage | Callable[[list[BaseMessage]], AIMessage]


def call(name: str, args: dict[str, Any] | None = None, call_id: str | None = None) -> dict[str, Any]:
    return {"name": name, "args": args or {}, "id": call_id or f"call_{name}_{abs(hash(str(args))) % 10**8}",
            "type": "tool_call"}


def calls(*items: dict[str, Any]) -> AIMessage:
    # Give each call of one reply a distinct id.
    fixed = [dict(c, id=f"{c['id']}_{i}") for i, c in enumerate(items)]
    return AIMessage(content="", tool_calls=fixed)


class ScriptedChatModel(BaseChatModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    replies: list[Any]
    repeat_last: bool = False
    prompts: list[list[BaseMessage]] = Field(default_factory=list)
    lock: Any = Field(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        with self.lock:
            self.prompts.append(list(messages))
            index = len(self.prompts) - 1
        if index >= len(self.replies):
            if not self.repeat_last:
                raise AssertionError(f"scripted model called {index + 1} times, only {len(self.replies)} replies")
            index = len(self.replies) - 1
        reply = self.replies[index]
        message = reply(messages) if callable(reply) else reply
        # A fresh message every call: a reused object would carry the id the graph gave it last time.
        message = message.model_copy(update={"id": None}, deep=True)
        return ChatResult(generations=[ChatGeneration(message=message)])


def search_then_report_context() -> Any:
    """A Context over a one-document index whose model searches once and then reports."""
    from hopgraph import Context
    from hopgraph.index.memory import MemoryBackend

    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts. Late delivery penalty 2%.")
    model = ScriptedChatModel(replies=[calls(call("search", {"query": "Acme steel"})),
                                       calls(call("report_helpful_ids", {"ids": ["d1"]}))], repeat_last=True)
    return Context(chat_model=model, backend=backend)  # type: ignore[arg-type]
