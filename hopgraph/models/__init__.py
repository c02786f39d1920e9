"""Turn a model spec into a LangChain chat model.

Specs: ``builtin`` (offline policy), ``sid-1``, ``openai:<model>``, ``openai-responses:<model>``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

from hopgraph.config import Context
from hopgraph.errors import ModelSpecError
from hopgraph.tools.base import Tool

SID_DEFAULT_BASE_URL = "https://api.sid-1.com/v1"
KNOWN_SPECS = "builtin, sid-1, openai:<model>, openai-responses:<model>"


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
            from hopgraph.policies.builtin_answer import BuiltinAnswerPolicy

            return BuiltinAnswerPolicy(), kind
        from hopgraph.policies.builtin import BuiltinPolicy

        return BuiltinPolicy(max_turns=context.max_turns, token_budget=context.token_budget), kind
    from langchain_openai import ChatOpenAI

    base_url: str | None
    if kind.family == "sid":
        base_url = context.base_url or os.environ.get("SID_BASE_URL") or SID_DEFAULT_BASE_URL
        key = os.environ.get("SID_API_KEY")
        if not key:
            raise ModelSpecError("SID_API_KEY is not set; the sid-1 model needs it")
        model: BaseChatModel = ChatOpenAI(
            model=kind.name, base_url=base_url, api_key=key,  # type: ignore[arg-type]
            timeout=context.model_timeout_s, max_retries=context.model_max_retries,
        )
        return model, kind
    if kind.family == "openai":
        base_url = context.base_url or os.environ.get("OPENAI_BASE_URL") or None
        model = ChatOpenAI(
            model=kind.name, base_url=base_url, api_key=_openai_key("OPENAI_API_KEY", base_url),  # type: ignore[arg-type]
            timeout=context.model_timeout_s, max_retries=context.model_max_retries,
        )
        return model, kind
    from hopgraph.models.responses import make_responses_model

    base_url = context.base_url or os.environ.get("OPENAI_BASE_URL") or None
    # Only the Responses path takes a reasoning effort: chat.completions servers reject it for most models.
    extra = {"reasoning_effort": reasoning_effort} if reasoning_effort else {}
    model = make_responses_model(
        kind.name, base_url=base_url, timeout=context.model_timeout_s, max_retries=context.model_max_retries, **extra
    )
    return model, kind


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
