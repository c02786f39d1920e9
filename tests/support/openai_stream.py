"""Server-sent events of the scripted OpenAI server: a finished chat completion or response told as the chunks
or events a streaming server sends, and how they go on the wire."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass
class SSE:
    """A streamed answer: ``api`` is "chat" or "responses"; ``cut_after`` events, if set, are all that is sent
    before the connection drops; ``delay_s`` passes before each event after the first."""

    events: list[dict[str, Any]]
    api: str
    cut_after: int | None = None
    delay_s: float = 0.0

    def schema(self) -> str:
        return "CreateChatCompletionStreamResponse" if self.api == "chat" else "ResponseStreamEvent"

    def wire(self) -> tuple[list[bytes], int]:
        """The events as sent, and the length announced: a cut stream announces more than it sends."""
        if self.api == "chat":
            parts = [f"data: {json.dumps(c)}\n\n" for c in self.events] + ["data: [DONE]\n\n"]
        else:
            parts = [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in self.events]
        sent = [p.encode() for p in parts]
        announced = sum(len(p) for p in sent)
        return (sent if self.cut_after is None else sent[: self.cut_after]), announced


# The keys by which a scripted step shapes its stream (see tests.support.openai_steps).
STREAM_OPTIONS = ("_cut_after", "_stream_error", "_event_delay_s", "_no_stream")


def with_stream_options(events: list[dict[str, Any]], options: dict[str, Any]) -> SSE:
    """A Responses stream as a step's stream options (``_cut_after``, ``_stream_error``, ``_event_delay_s``)
    have it."""
    error = options.get("_stream_error")
    if error:
        events = events[: error["after"]] + [{"type": "error", "code": error["code"], "message": error["message"],
                                              "param": None, "sequence_number": error["after"]}]
    return SSE(events, "responses", options.get("_cut_after"), float(options.get("_event_delay_s", 0.0)))


def chat_chunks(body: dict[str, Any], request: dict[str, Any]) -> list[dict[str, Any]]:
    base = {k: body[k] for k in ("id", "created", "model")}
    base["object"] = "chat.completion.chunk"
    choice = body["choices"][0]
    msg = choice["message"]
    chunks: list[dict[str, Any]] = [
        {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": msg.get("content") or ""},
                              "finish_reason": None}]}
    ]
    for i, tc in enumerate(msg.get("tool_calls") or []):
        delta = {"tool_calls": [{"index": i, "id": tc["id"], "type": "function", "function": tc["function"]}]}
        chunks.append({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]})
    if (request.get("stream_options") or {}).get("include_usage") and body.get("usage"):
        chunks.append({**base, "choices": [], "usage": body["usage"]})
    return chunks


def response_events(final: dict[str, Any], pieces: int = 3) -> list[dict[str, Any]]:
    """The events of a Responses stream that ends in ``final``: each output item added and done, a message's
    text in ``pieces`` deltas, a function call's arguments in one, then the event of the final status."""
    events: list[dict[str, Any]] = []

    def emit(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    running = {**final, "status": "in_progress", "output": []}
    running.pop("usage", None)
    emit("response.created", response=running)
    for index, item in enumerate(final.get("output") or []):
        emit("response.output_item.added", output_index=index, item=_started(item))
        if item.get("type") == "message":
            for part_index, part in enumerate(item.get("content") or []):
                where = {"item_id": item["id"], "output_index": index, "content_index": part_index}
                emit("response.content_part.added", **where, part={**part, "text": ""})
                text = part.get("text", "")
                step = max(1, -(-len(text) // pieces))
                for start in range(0, len(text), step):
                    emit("response.output_text.delta", **where, delta=text[start:start + step], logprobs=[])
                emit("response.output_text.done", **where, text=text, logprobs=[])
                emit("response.content_part.done", **where, part=part)
        elif item.get("type") == "function_call":
            where = {"item_id": item["id"], "output_index": index}
            emit("response.function_call_arguments.delta", **where, delta=item["arguments"])
            emit("response.function_call_arguments.done", **where, name=item["name"], arguments=item["arguments"])
        emit("response.output_item.done", output_index=index, item=item)
    ending = {"completed": "response.completed", "incomplete": "response.incomplete"}.get(final["status"],
                                                                                        "response.failed")
    emit(ending, response=final)
    return events


def _started(item: dict[str, Any]) -> dict[str, Any]:
    """An output item as it is announced, before its content streams."""
    if item.get("type") == "message":
        return {**item, "status": "in_progress", "content": []}
    if item.get("type") == "function_call":
        return {**item, "status": "in_progress", "arguments": ""}
    return item
