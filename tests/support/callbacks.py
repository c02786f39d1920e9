"""A LangChain callback handler that records every run start (kind, name, run id, parent run id)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler


class Recorder(BaseCallbackHandler):
    """Every run start with its id, parent and name."""

    def __init__(self) -> None:
        self.starts: list[tuple[str, str, UUID, UUID | None]] = []

    def _record(self, kind: str, serialized: Any, run_id: UUID, parent_run_id: UUID | None, **kwargs: Any) -> None:
        name = kwargs.get("name") or (serialized or {}).get("name", "")
        self.starts.append((kind, str(name), run_id, parent_run_id))

    def on_retriever_start(
        self, serialized: Any, query: str, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        self._record("retriever", serialized, run_id, parent_run_id, **kwargs)

    def on_chain_start(
        self, serialized: Any, inputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        self._record("chain", serialized, run_id, parent_run_id, **kwargs)

    def on_chat_model_start(
        self, serialized: Any, messages: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        self._record("chat_model", serialized, run_id, parent_run_id, **kwargs)

    def on_tool_start(
        self, serialized: Any, input_str: str, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        self._record("tool", serialized, run_id, parent_run_id, **kwargs)

    def runs(self, kind: str, name: str | None = None) -> list[tuple[str, str, UUID, UUID | None]]:
        return [s for s in self.starts if s[0] == kind and (name is None or s[1] == name)]

    def parent_of(self, run_id: UUID | None) -> tuple[str, str, UUID, UUID | None] | None:
        return next((s for s in self.starts if s[2] == run_id), None)
