"""Counting what a backend embeds: the real embedder does the work, the count says whether it was asked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class CountingEmbeds:
    """Wraps a backend's embedder so that ``texts`` counts the documents it embeds from now on."""

    def __init__(self, backend: Any) -> None:
        self.texts = 0
        real = backend.embedder.embed_documents

        def embed_documents(texts: Sequence[str], *args: Any, **kw: Any) -> Any:
            self.texts += len(texts)
            return real(texts, *args, **kw)

        backend.embedder.embed_documents = embed_documents
