"""What a test queues on a ``ScriptedOpenAI`` server: answers (chat.completions and Responses API bodies),
HTTP errors and hangs, and the record of a request that a callable step receives.

Bodies are partial: the server fills in ids, timestamps and the model before answering, and checks the result
against OpenAI's published API description.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    replayed: bool = False
    received: float = field(default_factory=time.monotonic)
    peer: tuple[str, int] = ("", 0)  # the client's address and port: one per TCP connection


@dataclass
class HTTPError:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Silent:
    """A step that takes the request and never answers (until the server stops)."""


def silent() -> Silent:
    return Silent()


def http_error(
    status: int,
    message: str = "scripted error",
    *,
    code: str | None = None,
    param: str | None = None,
    retry_after: float | None = None,
) -> HTTPError:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    body = error_body(message, "server_error" if status >= 500 else "invalid_request_error", code=code, param=param)
    return HTTPError(status, body, headers)


# --- chat.completions builders -------------------------------------------------------------


def chat_text(text: str, *, prompt_tokens: int = 10, completion_tokens: int = 5) -> dict[str, Any]:
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def chat_tool_calls(*calls: tuple[str, dict[str, Any] | str], content: str | None = None) -> dict[str, Any]:
    """One assistant message with parallel tool calls; call ids are assigned by the server. Arguments given as a
    string are sent as they are (a model's broken JSON)."""
    tcs = [
        {"id": None, "type": "function",
         "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
        for name, args in calls
    ]
    return {
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "tool_calls": tcs},
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


# --- Responses API builders -----------------------------------------------------------------


def resp_text(text: str) -> dict[str, Any]:
    return {"output": [_msg(text)]}


def resp_calls(
    *calls: tuple[str, dict[str, Any]], reasoning: bool = True, encrypted: bool = True, text: str | None = None
) -> dict[str, Any]:
    """Function calls, after a reasoning item (with ``encrypted_content`` unless ``encrypted=False``)."""
    out: list[dict[str, Any]] = []
    if reasoning:
        item: dict[str, Any] = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "thinking"}]}
        if encrypted:
            item["encrypted_content"] = "gAAAA-scripted"
        out.append(item)
    if text:
        out.append(_msg(text))
    for name, args in calls:
        out.append({"type": "function_call", "name": name, "arguments": json.dumps(args), "status": "completed"})
    return {"output": out}


def resp_incomplete(text: str, reason: str) -> dict[str, Any]:
    return {"status": "incomplete", "incomplete_details": {"reason": reason}, "output": [_msg(text, "incomplete")]}


def background(step: dict[str, Any], pending: list[str] | tuple[str, ...] = ("queued", "queued")) -> dict[str, Any]:
    return {**step, "_pending": list(pending)}


def cut_stream(step: dict[str, Any], after: int) -> dict[str, Any]:
    """``step``, but a streamed request gets only its first ``after`` events before the connection drops."""
    return {**step, "_cut_after": after}


def stream_error(step: dict[str, Any], after: int, message: str, code: str = "server_error") -> dict[str, Any]:
    """``step``, but a streamed request gets its first ``after`` events, then an ``error`` event."""
    return {**step, "_stream_error": {"after": after, "code": code, "message": message}}


def slow_stream(step: dict[str, Any], delay_s: float) -> dict[str, Any]:
    """``step``, but a streamed request's events come ``delay_s`` apart."""
    return {**step, "_event_delay_s": delay_s}


def ignores_stream(step: dict[str, Any]) -> dict[str, Any]:
    """``step``, answered in JSON even to a streamed request (as servers without streaming do)."""
    return {**step, "_no_stream": True}


def _msg(text: str, status: str = "completed") -> dict[str, Any]:
    return {
        "type": "message",
        "role": "assistant",
        "status": status,
        "content": [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}],
    }


def error_body(message: str, kind: str = "invalid_request_error", *, code: str | None = None,
           param: str | None = None) -> dict[str, Any]:
    """An error body as the API sends one: every field present, null when unused."""
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}
