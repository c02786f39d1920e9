"""Turn a model spec into a LangChain chat model.

Specs: ``builtin`` (offline policy), ``sid-1``, ``openai:<model>``, ``openai-responses:<model>``.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

from hopgraph.config import Context
from hopgraph.errors import ModelSpecError
from hopgraph.models.retry import attempt_share, call_with_deadline, request_timeout
from hopgraph.tools.base import Tool

SID_DEFAULT_BASE_URL = "https://api.sid-1.com/v1"
KNOWN_SPECS = "builtin, sid-1, openai:<model>, openai-responses:<model>"
# What a model read from the environment when it was built; a model is kept only while these stay the same.
MODEL_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SID_API_KEY", "SID_BASE_URL", "AZURE_OPENAI_ENDPOINT",
             "AZURE_OPENAI_API_KEY", "OPENAI_API_VERSION", "HOPGRAPH_RESPONSES_OPTIONS")
KEPT_MODELS = 16


@dataclass(frozen=True)
class ModelKind:
    family: str  # builtin | sid | openai | responses | custom
    name: str

    @property
    def tools_in_prompt(self) -> bool:
        # SID-1 reads tool definitions from the system prompt.
        return self.family == "sid"


def parse_spec(spec: str) -> ModelKind:
    spec = (spec or "").strip()
    if spec == "builtin":
        return ModelKind("builtin", "builtin")
    if spec in ("sid-1", "sid1") or spec.startswith("sid-1:"):
        return ModelKind("sid", spec.split(":", 1)[1] if ":" in spec else "sid-1")
    for prefix, family in (("openai-responses:", "responses"), ("openai:", "openai")):
        if spec.startswith(prefix) and spec[len(prefix):].strip():
            return ModelKind(family, spec[len(prefix):].strip())
    raise ModelSpecError(f"unknown model '{spec}'; use one of: {KNOWN_SPECS}")


def _openai_key(env_name: str, base_url: str | None) -> str:
    key = os.environ.get(env_name)
    if key:
        return key
    if base_url:
        # Local OpenAI-compatible servers (vLLM, Ollama, llama.cpp) accept any key.
        return "not-needed"
    raise ModelSpecError(f"{env_name} is not set; set it or point the model at a local server with a base URL")


def make_chat_model(context: Context, reasoning_effort: str | None = None) -> tuple[BaseChatModel, ModelKind]:
    """The chat model for a run; ``reasoning_effort`` (from the answer profile) goes to Responses models."""
    if context.chat_model is not None:
        return context.chat_model, ModelKind("custom", type(context.chat_model).__name__)
    kind = parse_spec(context.model)
    if kind.family == "builtin":
        if context.mode == "answer":
            from hopgraph.policies.answer.builtin import BuiltinAnswerPolicy

            # The containers are named in a "not found" answer.
            return BuiltinAnswerPolicy(containers=list(context.containers or ()), run_python=context.run_python), kind
        from hopgraph.policies.ids.builtin import BuiltinPolicy

        return BuiltinPolicy(max_turns=context.max_turns, token_budget=context.token_budget,
                             max_reported=max(context.max_reported_ids, 1)), kind
    # A model behind an HTTP API is built once per process and setting, and kept: building one costs tens of
    # milliseconds (its HTTP client's TLS setup), and a kept one reuses its open connections turn after turn.
    env = tuple(os.environ.get(name) for name in MODEL_ENV)
    model = _kept_model(kind, context.base_url, context.model_timeout_s, context.model_max_retries, reasoning_effort,
                        env)
    return model, kind


@functools.lru_cache(maxsize=KEPT_MODELS)
def _kept_model(kind: ModelKind, base_url: str | None, timeout_s: float, max_retries: int,
                reasoning_effort: str | None, env: tuple[str | None, ...]) -> BaseChatModel:
    """The model for these settings, built the first time they are asked for (a failed build keeps nothing).
    ``env`` is what MODEL_ENV held: the model reads it when built, so a change builds a new one."""
    return new_api_model(kind, base_url, timeout_s, max_retries, reasoning_effort)


def new_api_model(kind: ModelKind, base_url: str | None, timeout_s: float, max_retries: int,
                  reasoning_effort: str | None = None) -> BaseChatModel:
    """A new chat model for an HTTP API spec (sid, openai, responses); ``base_url`` overrides the environment's."""
    from langchain_openai import ChatOpenAI

    # Each call passes its attempt's own timeout (see invoke_model); this covers any other use of the client.
    first_attempt_timeout = request_timeout(attempt_share(timeout_s, max_retries))

    if kind.family == "sid":
        base_url = base_url or os.environ.get("SID_BASE_URL") or SID_DEFAULT_BASE_URL
        key = os.environ.get("SID_API_KEY")
        if not key:
            raise ModelSpecError("SID_API_KEY is not set; the sid-1 model needs it")
        model: BaseChatModel = ChatOpenAI(
            model=kind.name, base_url=base_url, api_key=key,  # type: ignore[arg-type]
            timeout=first_attempt_timeout, max_retries=0,
        )
        return model
    if kind.family == "openai":
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        model = ChatOpenAI(
            model=kind.name, base_url=base_url, api_key=_openai_key("OPENAI_API_KEY", base_url),  # type: ignore[arg-type]
            timeout=first_attempt_timeout, max_retries=0,
        )
        return model
    from hopgraph.models.responses import make_responses_model

    base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
    # Only the Responses path takes a reasoning effort: chat.completions servers reject it for most models.
    extra = {"reasoning_effort": reasoning_effort} if reasoning_effort else {}
    model = make_responses_model(
        kind.name, base_url=base_url, timeout=attempt_share(timeout_s, max_retries),
        max_retries=max_retries, total_timeout_s=timeout_s, **extra,
    )
    return model


def model_endpoint(model: Any, context: Context) -> str:
    """Where a chat model sends its requests, for messages."""
    return str(getattr(model, "openai_api_base", None) or getattr(model, "base_url", None) or context.base_url
               or "the default endpoint")


def invoke_model(bound: Any, prompt: list[Any], model: BaseChatModel, kind: ModelKind, context: Context) -> Any:
    """One model call within ``context.model_timeout_s``, retries included (see hopgraph.models.retry).

    OpenAI-compatible chat models get each attempt's timeout per request; the Responses model keeps
    its own retries (one Idempotency-Key for all of them) under the same deadline; the built-in
    policies and caller-supplied models are called as they are.
    """
    if kind.family not in ("sid", "openai"):
        return bound.invoke(prompt)
    return call_with_deadline(
        lambda timeout: bound.invoke(prompt, timeout=timeout),
        total_s=context.model_timeout_s, max_retries=context.model_max_retries,
        where=model_endpoint(model, context),
    )


def bind_tools(model: BaseChatModel, kind: ModelKind, tools: tuple[Tool, ...]) -> Any:
    if kind.family == "builtin":
        return model
    if kind.tools_in_prompt:
        # Stub entries only switch on the server's tool-call parsing; the real definitions are in the prompt.
        stubs = [
            {"type": "function", "function": {"name": t.name, "parameters": {"type": "object", "properties": {}}}}
            for t in tools
        ]
        return model.bind_tools(stubs)
    strict = kind.family in ("openai", "responses")
    return model.bind_tools([t.openai_schema(strict=strict) for t in tools])
