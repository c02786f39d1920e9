"""A deterministic chat model whose replies come from a strategy instead of a network model."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from hopgraph.policies.transcript import Transcript, read_transcript


@dataclass
class Decision:
    """Either tool calls for the next round, or a final text (answer mode)."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    text: str = ""


def _call_id(turn: int, index: int, name: str, args: dict[str, Any]) -> str:
    # Stable ids: the same conversation always yields the same messages.
    digest = hashlib.sha1(json.dumps([turn, index, name, args], sort_keys=True).encode()).hexdigest()[:12]
    return f"call_{turn}_{index}_{digest}"


class ScriptedPolicy(BaseChatModel):
    """Subclasses implement :meth:`decide`; tools are fixed, so ``bind_tools`` returns self."""

    @property
    def _llm_type(self) -> str:
        return "hopgraph-policy"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedPolicy:  # type: ignore[override]
        return self

    def decide(self, transcript: Transcript) -> Decision:
        raise NotImplementedError

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        transcript = read_transcript(messages)
        decision = self.decide(transcript)
        turn = transcript.turns + 1
        tool_calls = [
            {"name": name, "args": args, "id": _call_id(turn, i, name, args), "type": "tool_call"}
            for i, (name, args) in enumerate(decision.calls)
        ]
        message = AIMessage(content=decision.text, tool_calls=tool_calls)
        return ChatResult(generations=[ChatGeneration(message=message)])
