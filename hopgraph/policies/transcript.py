"""Reads a conversation back into what a policy needs: the question and its own rounds.

Only structured data is trusted: tool artifacts and the policy's own AIMessages. Tool
message text (where documents could forge notices) is never parsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from hopgraph.state import question_position


@dataclass(frozen=True)
class DocHit:
    id: str
    title: str
    text: str
    rank: int
    score: float = 0.0


@dataclass(frozen=True)
class CallResult:
    name: str
    args: dict[str, Any]
    docs: tuple[DocHit, ...] = ()
    error: str | None = None


@dataclass
class Transcript:
    question: str
    rounds: list[list[CallResult]] = field(default_factory=list)

    @property
    def turns(self) -> int:
        return len(self.rounds)


def message_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
    return "".join(parts)


def tool_results(messages: Sequence[BaseMessage]) -> dict[str, ToolMessage]:
    """Tool messages by the id of the call they answer."""
    return {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}


def _docs(artifact: Any) -> tuple[tuple[DocHit, ...], str | None]:
    if not isinstance(artifact, dict):
        return (), "no artifact"
    docs = []
    for i, d in enumerate(artifact.get("docs") or [], start=1):
        if not isinstance(d, dict) or not isinstance(d.get("id"), str):
            continue
        docs.append(DocHit(
            id=d["id"], title=str(d.get("title") or ""), text=str(d.get("text") or ""),
            rank=int(d.get("rank") or i), score=float(d.get("score") or 0.0),
        ))
    error = artifact.get("error")
    return tuple(docs), (str(error) if error else None)


def read_transcript(messages: Sequence[BaseMessage]) -> Transcript:
    """The question is the last human message that is not a nudge; rounds are our replies after it."""
    start = question_position(messages)
    if start < 0:
        return Transcript(question="")
    transcript = Transcript(question=message_text(messages[start]).strip())
    results = tool_results(messages[start + 1:])
    for m in messages[start + 1:]:
        if not isinstance(m, AIMessage):
            continue
        round_: list[CallResult] = []
        for call in m.tool_calls:
            tm = results.get(call.get("id") or "")
            if tm is None:
                round_.append(CallResult(call["name"], dict(call["args"]), error="no result"))
                continue
            docs, error = _docs(tm.artifact)
            round_.append(CallResult(call["name"], dict(call["args"]), docs, error))
        transcript.rounds.append(round_)
    return transcript
