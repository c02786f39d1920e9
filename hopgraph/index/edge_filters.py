"""Qdrant filter conditions spelt in qdrant-edge's classes: the embedded backend's half of the filter vocabulary
that :class:`hopgraph.index.vectors.VectorBackend` builds its scope and document filters from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class EdgeFilters:
    """Conditions and filters for a backend holding the ``qdrant_edge`` module as ``_qe``."""

    _qe: Any

    def _match(self, key: str, value: str | int) -> Any:
        return self._qe.FieldCondition(key, match=self._qe.MatchValue(value))

    def _match_any(self, key: str, values: list[str]) -> Any:
        return self._qe.FieldCondition(key, match=self._qe.MatchAny(values))

    def _phrase(self, key: str, phrase: str) -> Any:
        return self._qe.FieldCondition(key, match=self._qe.MatchPhrase(phrase))

    def _has_text(self, key: str, term: str) -> Any:
        return self._qe.FieldCondition(key, match=self._qe.MatchText(term))

    def _where(self, must: Sequence[Any] = (), should: Sequence[Any] = (), must_not: Sequence[Any] = ()) -> Any:
        return self._qe.Filter(must=list(must) or None, should=list(should) or None, must_not=list(must_not) or None)
