"""Streaming one Responses API call to whoever watches the run's tokens.

When a run is watched token by token (LangGraph's ``stream_mode="messages"``, which Studio uses, or a model
built with ``streaming=True``), the request asks for server-sent events and each text delta goes to the run's
callbacks as it arrives. The call still ends with the complete response, which becomes the message exactly as
an unstreamed call's does: the deltas are for watching, never parsed into the result.

A server that answers a streamed request with the whole response in JSON is read as such. A stream cut short
(a dropped connection, or an end without the response's last event) is asked again without streaming, so the
run loses nothing; what was shown of the cut stream is then superseded by the final message, which gets an id
of its own so that watchers see it whole.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk
from langchain_core.tracers._streaming import _StreamingCallbackHandler
from langchain_core.utils.utils import LC_ID_PREFIX

from hopgraph.models.responses_items import dump_response

# Events that end a response and carry it whole.
FINAL_EVENTS = ("response.completed", "response.incomplete", "response.failed")
# Events whose delta is text the model writes (its answer, or a refusal).
TEXT_DELTAS = ("response.output_text.delta", "response.refusal.delta")


class StreamCut(Exception):
    """The stream ended before the response did."""


class StreamReportedError(RuntimeError):
    """The provider sent an error event instead of the rest of the response."""


def wants_tokens(streaming: bool, run_manager: CallbackManagerForLLMRun | None) -> bool:
    """Whether this call should stream: asked for, or someone watches the run's tokens."""
    if streaming:
        return True
    handlers = run_manager.handlers if run_manager else []
    # The mark LangChain's own models check before they stream (LangGraph's message watcher carries it).
    return any(isinstance(h, _StreamingCallbackHandler) for h in handlers)


def message_id(run_manager: CallbackManagerForLLMRun | None) -> str | None:
    """The id LangChain gives a streamed run's message: the deltas carry it so watchers join them into one."""
    return f"{LC_ID_PREFIX}-{run_manager.run_id}" if run_manager else None


def read_stream(events: Any, run_manager: CallbackManagerForLLMRun | None, deadline: float) -> dict[str, Any]:
    """Passes the stream's text deltas to ``run_manager`` and returns the response its last event carries.

    Raises StreamCut when the stream breaks or ends without that event, StreamReportedError for an error
    event, and TimeoutError past ``deadline`` (a ``time.monotonic()`` value).
    """
    import openai

    msg_id = message_id(run_manager)
    try:
        with contextlib.closing(events):
            http = getattr(events, "response", None)
            if http is not None and "json" in http.headers.get("content-type", ""):
                # A server that does not stream answers with the whole response.
                http.read()
                return dump_response(http.json())
            for event in events:
                kind = getattr(event, "type", "")
                if kind in TEXT_DELTAS and run_manager is not None:
                    delta = str(getattr(event, "delta", "") or "")
                    run_manager.on_llm_new_token(
                        delta, chunk=ChatGenerationChunk(message=AIMessageChunk(content=delta, id=msg_id))
                    )
                elif kind in FINAL_EVENTS:
                    return dump_response(event.response)
                elif kind == "error":
                    code = getattr(event, "code", None) or "error"
                    raise StreamReportedError(f"the stream reported {code}: {getattr(event, 'message', '')}")
                if time.monotonic() > deadline:
                    raise TimeoutError("the streamed response did not end in time")
    except openai.APIConnectionError as exc:  # the SDK's form of a dropped connection or a read timeout
        raise StreamCut(f"the stream broke: {exc}") from exc
    raise StreamCut("the stream ended before the response did")


def show_tool_calls(message: AIMessage, run_manager: CallbackManagerForLLMRun | None) -> None:
    """Sends the message's tool calls as one last delta, so a watcher's joined message shows them too."""
    if run_manager is None or not (message.tool_calls or message.invalid_tool_calls):
        return
    chunk = AIMessageChunk(content="", id=message_id(run_manager), tool_calls=message.tool_calls,
                           invalid_tool_calls=message.invalid_tool_calls)
    run_manager.on_llm_new_token("", chunk=ChatGenerationChunk(message=chunk))


def standalone_id() -> str:
    """An id for a final message whose stream was cut: it must not join the cut stream's deltas."""
    return f"{LC_ID_PREFIX}-{uuid.uuid4()}"
