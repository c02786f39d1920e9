"""A LangChain chat model that speaks the OpenAI Responses API.

Each model call is one logical request: one ``Idempotency-Key`` shared by all its retries, so
a retry after a lost reply replays the provider's answer instead of running the model again.
The model's output items (reasoning, messages, function calls) are kept verbatim on the
AIMessage and sent back as they came on the next call; alternatively (``chain=True``) the
provider keeps the history and we send only ``previous_response_id`` plus the new items.

Provider options pass through: ``service_tier``, ``reasoning_effort`` (or ``reasoning``),
``max_output_tokens``, ``background`` and anything else the endpoint accepts.

When the run's tokens are watched (Studio, ``stream_mode="messages"``) or with ``streaming=True``, a call
streams and passes its text on as it arrives; the message it ends with is the same
(:mod:`hopgraph.models.responses_stream`).

Messages, tools and tool choice are turned into their Responses shapes in :mod:`hopgraph.models.responses_items`.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import os
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    SystemMessage,
)
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import ConfigDict, Field, PrivateAttr

from hopgraph.models.responses_items import (
    ResponsesContentFilterError,
    ResponsesError,
    ResponsesStateExpiredError,
    ResponsesTimeoutError,
    content_text,
    dump_response,
    error_body,
    last_stored_index,
    to_input_items,
    to_message,
    to_responses_tool,
    to_tool_choice,
)
from hopgraph.models.responses_stream import (
    StreamCut,
    StreamReportedError,
    message_id,
    read_stream,
    show_tool_calls,
    standalone_id,
    wants_tokens,
)
from hopgraph.models.retry import ModelTimeoutError, call_with_deadline, request_timeout

__all__ = [
    "ResponsesChatModel",
    "ResponsesContentFilterError",
    "ResponsesError",
    "ResponsesStateExpiredError",
    "ResponsesTimeoutError",
    "delete_thread_responses",
    "make_responses_model",
    "stored_response_ids",
]

TERMINAL = ("completed", "incomplete", "failed", "cancelled")
OPTIONS_ENV = "HOPGRAPH_RESPONSES_OPTIONS"


class ResponsesChatModel(BaseChatModel):
    """Chat model over ``POST /responses`` (OpenAI, Azure OpenAI, or a compatible server)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_name: str = Field(alias="model")
    base_url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    timeout: float = 120.0
    """Seconds per HTTP request (connecting gets at most hopgraph.models.retry.CONNECT_TIMEOUT_S of them)."""
    max_retries: int = 4
    """Retries of one request on 429, 5xx, timeouts and connection errors."""
    total_timeout_s: float | None = None
    """The longest one request may take, retries included; default: every attempt's full timeout."""
    retry_base_s: float = 0.5
    retry_max_s: float = 20.0
    background: bool = False
    """Run as a background response and poll until it ends."""
    poll_interval_s: float = 1.0
    background_timeout_s: float = 900.0
    """Longest wait for a background response before it is cancelled."""
    chain: bool = False
    """Send ``previous_response_id`` (provider-stored history) instead of the whole history."""
    store: bool | None = None
    """Defaults to True when ``chain`` or ``background`` need it, else False."""
    options: dict[str, Any] = Field(default_factory=dict)
    """Extra request fields passed through (``service_tier``, ``reasoning``, ``max_output_tokens`` ...)."""
    azure_endpoint: str | None = None
    api_version: str | None = None
    default_headers: dict[str, str] | None = None
    streaming: bool = False
    """Stream every call; without it a call streams only when the run's tokens are watched (Studio)."""

    _client: Any = PrivateAttr(default=None)
    _create_params: frozenset[str] = PrivateAttr(default=frozenset())

    @property
    def _llm_type(self) -> str:
        return "openai-responses"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "base_url": self.base_url, "chain": self.chain}

    # --- client -----------------------------------------------------------------------

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = self._make_client()
        return self._client

    def _make_client(self) -> Any:
        import openai

        # Our own retry loop owns retries so every attempt carries the same Idempotency-Key.
        common: dict[str, Any] = {
            "timeout": request_timeout(self.timeout),
            "max_retries": 0,
            "default_headers": self.default_headers,
        }
        if self.azure_endpoint:
            return openai.AzureOpenAI(
                azure_endpoint=self.azure_endpoint,
                api_version=self.api_version or os.environ.get("OPENAI_API_VERSION") or "2025-04-01-preview",
                api_key=self.api_key or os.environ.get("AZURE_OPENAI_API_KEY"),
                **common,
            )
        key = self.api_key or os.environ.get("OPENAI_API_KEY") or ("not-needed" if self.base_url else None)
        if not key:
            raise ResponsesError("OPENAI_API_KEY is not set; set it or point the model at a server with a base URL")
        return openai.OpenAI(base_url=self.base_url, api_key=key, **common)

    def _known_params(self) -> frozenset[str]:
        if not self._create_params:
            from openai.resources.responses.responses import Responses

            self._create_params = frozenset(inspect.signature(Responses.create).parameters) - {"self"}
        return self._create_params

    # --- tools ------------------------------------------------------------------------

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable | Any],
        *,
        tool_choice: str | dict | None = None,
        strict: bool | None = None,
        parallel_tool_calls: bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools as Responses-API function tools (``strict`` schemas when asked)."""
        converted = [to_responses_tool(t, strict) for t in tools]
        if tool_choice is not None:
            kwargs["tool_choice"] = to_tool_choice(tool_choice)
        if parallel_tool_calls is not None:
            kwargs["parallel_tool_calls"] = parallel_tool_calls
        return super().bind(tools=converted, **kwargs)

    # --- generation -------------------------------------------------------------------

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        body = self._request_body(messages, **kwargs)
        streamed = not body.get("background") and wants_tokens(self.streaming, run_manager)
        cut = False
        if streamed:
            resp, cut = self._streamed(body, run_manager)
        else:
            resp = self._create(body)
            if resp.get("status") not in TERMINAL:
                resp = self._wait(resp)
        message = to_message(resp, body, self.model_name)
        if cut:
            message.id = standalone_id()
        elif streamed:
            # The deltas' id: watchers join them and this message into one.
            message.id = message_id(run_manager)
            show_tool_calls(message, run_manager)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _streamed(
        self, body: dict[str, Any], run_manager: CallbackManagerForLLMRun | None
    ) -> tuple[dict[str, Any], bool]:
        """The response, its text deltas passed on as they come; and whether the stream was cut (and the
        response asked for again without streaming)."""
        deadline = time.monotonic() + self._total_s()
        events = self._send(body, stream=True)
        try:
            return read_stream(events, run_manager, deadline), False
        except StreamCut:
            return self._create(body), True
        except StreamReportedError as exc:
            raise ResponsesError(str(exc)) from exc
        except TimeoutError as exc:
            raise ResponsesTimeoutError(f"the Responses API did not finish in time ({exc})") from exc

    def _request_body(self, messages: list[BaseMessage], **kwargs: Any) -> dict[str, Any]:
        opts = {**self.options, **kwargs}
        background = bool(opts.pop("background", self.background))
        chain = bool(opts.pop("chain", self.chain))
        store = opts.pop("store", self.store)
        if store is None:
            store = chain or background
        if (chain or background) and not store:
            raise ResponsesError("chain and background need store=True")
        effort = opts.pop("reasoning_effort", None)
        if effort:
            opts["reasoning"] = {**opts.get("reasoning", {}), "effort": effort}
        if opts.get("reasoning") and not store:
            # Stateless reasoning carries over between turns only as encrypted content.
            include = list(opts.get("include") or [])
            if "reasoning.encrypted_content" not in include:
                opts["include"] = [*include, "reasoning.encrypted_content"]

        instructions = "\n\n".join(content_text(m.content) for m in messages if isinstance(m, SystemMessage)) or None
        rest = [m for m in messages if not isinstance(m, SystemMessage)]
        previous_id = None
        if chain:
            idx = last_stored_index(rest)
            if idx is not None:
                previous_id = rest[idx].response_metadata["response_id"]
                rest = rest[idx + 1 :]
        body: dict[str, Any] = {
            "model": self.model_name,
            "input": to_input_items(rest, keep_ids=bool(store)),
            "store": bool(store),
            **opts,
        }
        if instructions:
            body["instructions"] = instructions
        if previous_id:
            body["previous_response_id"] = previous_id
        if background:
            body["background"] = True
        return body

    def _create(self, body: dict[str, Any]) -> dict[str, Any]:
        return dump_response(self._send(body))

    def _send(self, body: dict[str, Any], stream: bool = False) -> Any:
        """The SDK's answer to one create request (an event stream when ``stream``), retried as one request."""
        known = self._known_params()
        direct = {k: v for k, v in body.items() if k in known}
        extra = {k: v for k, v in body.items() if k not in known}
        if stream:
            direct["stream"] = True
        # One key per logical request, reused by every retry of it.
        headers = {"Idempotency-Key": f"hopgraph-{uuid.uuid4().hex}"}
        try:
            return self._retrying(
                lambda timeout: self.client.responses.create(
                    **direct, extra_body=extra or None, extra_headers=headers, timeout=timeout
                )
            )
        except Exception as exc:
            raise self._translate(exc, body) from exc

    def _wait(self, resp: dict[str, Any]) -> dict[str, Any]:
        deadline = time.monotonic() + self.background_timeout_s
        rid = resp["id"]
        while resp.get("status") not in TERMINAL:
            if time.monotonic() > deadline:
                # Best effort; the timeout is the error to report.
                with contextlib.suppress(Exception):
                    self.client.responses.cancel(rid)
                raise ResponsesTimeoutError(
                    f"background response {rid} still '{resp.get('status')}' after {self.background_timeout_s:.0f}s;"
                    " cancelled"
                )
            time.sleep(self.poll_interval_s)
            resp = dump_response(self._retrying(lambda timeout: self.client.responses.retrieve(rid, timeout=timeout)))
        return resp

    def _retrying(self, call: Callable[[Any], Any]) -> Any:
        """``call(timeout)`` with retries, each attempt at most ``timeout``, all within ``total_timeout_s``."""
        return call_with_deadline(
            call, total_s=self._total_s(), max_retries=self.max_retries, attempt_s=self.timeout,
            where=self.base_url or self.azure_endpoint or "the OpenAI API",
            base_s=self.retry_base_s, max_wait_s=self.retry_max_s,
        )

    def _total_s(self) -> float:
        """The longest one request may take, retries included."""
        if self.total_timeout_s is not None:
            return self.total_timeout_s
        return (self.max_retries + 1) * self.timeout + self.max_retries * self.retry_max_s

    def _delete_one(self, rid: str, timeout: Any) -> Any:
        return self.client.responses.delete(rid, timeout=timeout)

    def _translate(self, exc: Exception, body: dict[str, Any]) -> Exception:
        import openai

        if isinstance(exc, openai.APIStatusError) and body.get("previous_response_id"):
            err = error_body(exc)
            text = f"{err.get('code', '')} {err.get('param', '')} {err.get('message', '')}".lower()
            mentions = "previous_response" in text or body["previous_response_id"].lower() in text
            if exc.status_code in (400, 404) and mentions:
                return ResponsesStateExpiredError(
                    f"the provider no longer has response {body['previous_response_id']} that this conversation"
                    " continues from (expired or deleted); start a new conversation"
                )
        if isinstance(exc, ModelTimeoutError | openai.APITimeoutError):
            return ResponsesTimeoutError(f"the Responses API did not answer ({exc})")
        return exc

    # --- stored responses -------------------------------------------------------------

    def delete_responses(self, messages: Iterable[BaseMessage]) -> list[str]:
        """Delete the provider-stored responses of a thread; returns the ids deleted (missing ones skipped)."""
        import openai

        deleted = []
        for rid in stored_response_ids(messages):
            try:
                self._retrying(functools.partial(self._delete_one, rid))
            except openai.NotFoundError:
                continue
            deleted.append(rid)
        return deleted


def stored_response_ids(messages: Iterable[BaseMessage]) -> list[str]:
    """Ids of every provider-stored response recorded on a thread's AI messages, in order."""
    ids: list[str] = []
    for m in messages:
        md = getattr(m, "response_metadata", None) or {}
        rid = md.get("response_id")
        if isinstance(m, AIMessage) and rid and md.get("stored") and rid not in ids:
            ids.append(rid)
    return ids


def delete_thread_responses(model: ResponsesChatModel, messages: Iterable[BaseMessage]) -> list[str]:
    """Delete a thread's stored responses (``DELETE /responses/{id}``)."""
    return model.delete_responses(messages)


def make_responses_model(
    model_name: str,
    *,
    base_url: str | None = None,
    timeout: float = 120.0,
    max_retries: int = 4,
    **options: Any,
) -> ResponsesChatModel:
    """Build the model. Options not named here go into every request body.

    ``HOPGRAPH_RESPONSES_OPTIONS`` (a JSON object) supplies defaults, e.g.
    ``{"background": true, "service_tier": "flex", "reasoning_effort": "high"}``.
    Azure OpenAI: pass ``azure_endpoint`` (or set ``AZURE_OPENAI_ENDPOINT``) and the deployment
    name as ``model_name``; ``api_version`` defaults to ``OPENAI_API_VERSION``.
    """
    env = os.environ.get(OPTIONS_ENV)
    merged: dict[str, Any] = {}
    if env:
        try:
            merged = json.loads(env)
        except json.JSONDecodeError as exc:
            raise ResponsesError(f"{OPTIONS_ENV} is not valid JSON: {exc}") from exc
        if not isinstance(merged, dict):
            raise ResponsesError(f"{OPTIONS_ENV} must be a JSON object")
    merged.update(options)
    fields = set(ResponsesChatModel.model_fields) - {"model_name", "options", "base_url", "timeout", "max_retries"}
    settings = {k: merged.pop(k) for k in list(merged) if k in fields}
    if "azure_endpoint" not in settings and os.environ.get("AZURE_OPENAI_ENDPOINT") and not base_url:
        settings["azure_endpoint"] = os.environ["AZURE_OPENAI_ENDPOINT"]
    return ResponsesChatModel(
        model=model_name, base_url=base_url, timeout=timeout, max_retries=max_retries, options=merged, **settings
    )
