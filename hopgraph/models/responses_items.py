"""Conversions between LangChain and the OpenAI Responses API: messages to input items (the model's own
output items replayed as they came), tools and tool choice to their Responses shapes, output items and usage
back to LangChain's text, tool calls and usage (a finished response to its AIMessage, with the errors a
response that did not finish raises), and the small readers of response and error bodies the chat model uses."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, InvalidToolCall, ToolCall, ToolMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.utils.function_calling import convert_to_openai_tool

RAW_KEY = "responses_output"  # AIMessage.additional_kwargs key holding the raw output items


class ResponsesError(RuntimeError):
    """A Responses API call that cannot succeed as asked."""


class ResponsesContentFilterError(ResponsesError):
    pass


class ResponsesStateExpiredError(ResponsesError):
    """The provider no longer has the stored response a chained conversation continues from."""


class ResponsesTimeoutError(ResponsesError, TimeoutError):
    pass


def dump_response(resp: Any) -> dict[str, Any]:
    if isinstance(resp, dict):
        return resp
    return resp.model_dump(mode="json", exclude_none=True)


def error_body(exc: Any) -> dict[str, Any]:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        return inner if isinstance(inner, dict) else {"message": str(inner)}
    return {"message": str(exc)}


def content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for block in content or []:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and "text" in block:
            parts.append(str(block["text"]))
    return "".join(parts)


def last_stored_index(messages: list[BaseMessage]) -> int | None:
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if isinstance(m, AIMessage) and m.response_metadata.get("response_id") and m.response_metadata.get("stored"):
            return i
    return None


_STRIP_WHEN_UNSTORED = ("message", "function_call")


def to_input_items(messages: list[BaseMessage], *, keep_ids: bool) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, ToolMessage):
            items.append({"type": "function_call_output", "call_id": m.tool_call_id, "output": content_text(m.content)})
        elif isinstance(m, AIMessage):
            raw = m.additional_kwargs.get(RAW_KEY)
            if raw is not None:
                for item in raw:
                    item = dict(item)
                    if not keep_ids:
                        # Unstored items cannot be referenced by id. A reasoning item can be
                        # replayed only with its encrypted content (include=reasoning.encrypted_content).
                        if item.get("type") == "reasoning" and not item.get("encrypted_content"):
                            continue
                        if item.get("type") == "message" and item.get("role") == "assistant":
                            # Without its id an output message is no item the API takes back: its text is.
                            text = read_output([item])[0]
                            if text:
                                items.append({"role": "assistant", "content": text})
                            continue
                        if item.get("type") in _STRIP_WHEN_UNSTORED:
                            item.pop("id", None)
                    items.append(item)
                continue
            text = content_text(m.content)
            if text:
                items.append({"role": "assistant", "content": text})
            for tc in m.tool_calls:
                items.append(
                    {
                        "type": "function_call",
                        "call_id": tc["id"],
                        "name": tc["name"],
                        "arguments": json.dumps(tc["args"]),
                    }
                )
        elif isinstance(m, HumanMessage):
            items.append({"role": "user", "content": content_text(m.content)})
        else:
            items.append({"role": "user", "content": content_text(m.content)})
    return items


def to_responses_tool(tool: Any, strict: bool | None) -> dict[str, Any]:
    if isinstance(tool, dict) and tool.get("type") == "function" and "name" in tool and "function" not in tool:
        out = dict(tool)  # already in Responses shape
        if strict is not None:
            out["strict"] = strict
        return out
    if isinstance(tool, dict) and tool.get("type") not in (None, "function"):
        return dict(tool)  # built-in tools (web_search, file_search ...) pass through
    fn = convert_to_openai_tool(tool, strict=strict)["function"]
    out = {"type": "function", "name": fn["name"], "parameters": fn.get("parameters", {"type": "object"})}
    if fn.get("description"):
        out["description"] = fn["description"]
    if fn.get("strict") is not None:
        out["strict"] = fn["strict"]
    return out


def to_tool_choice(choice: str | dict) -> str | dict:
    if isinstance(choice, dict):
        if choice.get("type") == "function" and "function" in choice:
            return {"type": "function", "name": choice["function"]["name"]}
        return choice
    if choice in ("auto", "none", "required"):
        return choice
    if choice == "any":
        return "required"
    return {"type": "function", "name": choice}


def read_output(output: list[dict[str, Any]]) -> tuple[str, list[ToolCall], list[InvalidToolCall]]:
    """The text (refusals included), the tool calls, and the calls whose arguments are not a JSON object."""
    texts: list[str] = []
    tool_calls: list[ToolCall] = []
    invalid: list[InvalidToolCall] = []
    for item in output:
        kind = item.get("type")
        if kind == "message":
            for part in item.get("content") or []:
                if part.get("type") in ("output_text", "text"):
                    texts.append(part.get("text", ""))
                elif part.get("type") == "refusal":
                    texts.append(part.get("refusal", ""))
        elif kind == "function_call":
            raw = item.get("arguments") or "{}"
            try:
                args = json.loads(raw)
                if not isinstance(args, dict):
                    raise ValueError("arguments are not an object")
                tool_calls.append(ToolCall(name=item["name"], args=args, id=item["call_id"], type="tool_call"))
            except ValueError as exc:
                invalid.append(
                    InvalidToolCall(
                        name=item.get("name"), args=raw, id=item.get("call_id"), error=str(exc),
                        type="invalid_tool_call",
                    )
                )
    return "".join(texts), tool_calls, invalid


def usage_metadata(usage: dict[str, Any] | None) -> UsageMetadata | None:
    if not usage:
        return None
    return UsageMetadata(
        input_tokens=int(usage.get("input_tokens") or 0),
        output_tokens=int(usage.get("output_tokens") or 0),
        total_tokens=int(usage.get("total_tokens") or 0),
    )


def to_message(resp: dict[str, Any], body: dict[str, Any], model_name: str) -> AIMessage:
    """A finished response as the AIMessage the graph keeps; raises for a failed, cancelled or filtered one."""
    rid = resp.get("id")
    status = resp.get("status")
    reason = (resp.get("incomplete_details") or {}).get("reason")
    if status == "failed":
        err = resp.get("error") or {}
        raise ResponsesError(f"response {rid} failed: {err.get('message') or err or 'no detail'}")
    if status == "cancelled":
        raise ResponsesError(f"response {rid} was cancelled")
    if status == "incomplete" and reason == "content_filter":
        raise ResponsesContentFilterError(
            f"response {rid} was stopped by the provider's content filter; rephrase the question"
        )
    output = list(resp.get("output") or [])
    text, tool_calls, invalid = read_output(output)
    metadata: dict[str, Any] = {
        "response_id": rid,
        "previous_response_id": body.get("previous_response_id"),
        "stored": bool(body.get("store")),
        "model_name": resp.get("model") or model_name,
        "status": status,
        "finish_reason": "length" if reason == "max_output_tokens" else ("tool_calls" if tool_calls else "stop"),
    }
    if reason:
        metadata["incomplete_reason"] = reason
    if resp.get("service_tier"):
        metadata["service_tier"] = resp["service_tier"]
    return AIMessage(
        content=text,
        tool_calls=tool_calls,
        invalid_tool_calls=invalid,
        additional_kwargs={RAW_KEY: output},
        response_metadata=metadata,
        usage_metadata=usage_metadata(resp.get("usage")),
    )
