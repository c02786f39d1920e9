"""Optional second-stage rerankers (off by default).

``fastembed:<model>``: a local cross-encoder through fastembed, only if installed and the
model is already on disk. ``http:<url>`` (or ``http(s)://...``): a rerank endpoint in the
Cohere / Jina / TEI style: POST {query, documents, top_n} and read
``results[].index`` and ``results[].relevance_score``.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hopgraph.index.backend import BackendError, Hit


class RerankError(BackendError):
    """The reranker is unavailable or answered something unusable."""


def _passage(hit: Hit) -> str:
    title = hit.chunk.title.strip()
    return f"{title}\n{hit.chunk.text}" if title else hit.chunk.text


class Reranker(ABC):
    @abstractmethod
    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        """One relevance score per passage (higher is better)."""

    def rerank(self, query: str, hits: Sequence[Hit], top_n: int | None = None) -> list[Hit]:
        """Hits reordered by the reranker's score (which replaces the search score)."""
        hits = list(hits)
        if not hits:
            return []
        scores = self.scores(query, [_passage(h) for h in hits])
        if len(scores) != len(hits):
            raise RerankError(f"reranker returned {len(scores)} scores for {len(hits)} passages")
        ranked = sorted(zip(hits, scores, strict=True), key=lambda p: (-p[1], p[0].chunk.chunk_id))
        out = [Hit(chunk=h.chunk, score=float(s)) for h, s in ranked]
        return out[:top_n] if top_n is not None else out


class FastembedReranker(Reranker):
    """A fastembed cross-encoder from its local cache, or from ``model_path`` (HOPGRAPH_RERANKER_PATH):
    a folder with the model's ONNX file where fastembed expects it, tokenizer.json and tokenizer_config.json."""

    def __init__(self, model: str, cache_dir: str | None = None, model_path: str | Path | None = None) -> None:
        try:
            from fastembed.rerank.cross_encoder import TextCrossEncoder
        except ImportError as exc:
            raise RerankError(
                f"reranker 'fastembed:{model}' needs the optional package fastembed: pip install 'hopgraph[fastembed]'"
            ) from exc
        folder = model_path or os.environ.get("HOPGRAPH_RERANKER_PATH") or None
        if folder is not None and not Path(folder).is_dir():
            raise RerankError(f"cross-encoder folder {folder} does not exist")
        try:
            # local_files_only: never download at query time.
            self._model = TextCrossEncoder(
                model_name=model, cache_dir=cache_dir, local_files_only=True,
                specific_model_path=str(folder) if folder else None,
            )
        except Exception as exc:
            where = f"in {folder}" if folder else "locally"
            raise RerankError(f"cross-encoder {model!r} is not available {where}: {exc}") from exc

    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        return [float(s) for s in self._model.rerank(query, list(passages))]


class HttpReranker(Reranker):
    """POSTs ``{"model"?, "query", "documents", "top_n"}``; Authorization from ``api_key`` or RERANK_API_KEY."""

    def __init__(self, url: str, model: str | None = None, api_key: str | None = None,
                 timeout_s: float = 30.0, max_retries: int = 2) -> None:
        import httpx

        self.url = url
        self.model = model
        self.max_retries = max_retries
        key = api_key or os.environ.get("RERANK_API_KEY") or ""
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = httpx.Client(headers=headers, timeout=timeout_s)

    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        import httpx
        from tenacity import retry, retry_if_exception, stop_after_attempt, wait_exponential

        body: dict[str, Any] = {"query": query, "documents": list(passages), "top_n": len(passages)}
        if self.model:
            body["model"] = self.model

        def retryable(exc: BaseException) -> bool:
            if isinstance(exc, httpx.HTTPStatusError):
                return exc.response.status_code == 429 or exc.response.status_code >= 500
            return isinstance(exc, httpx.TransportError)

        @retry(retry=retry_if_exception(retryable), stop=stop_after_attempt(self.max_retries + 1),
               wait=wait_exponential(multiplier=0.2, max=4), reraise=True)
        def call() -> Any:
            resp = self._client.post(self.url, json=body)
            resp.raise_for_status()
            return resp.json()

        try:
            data = call()
        except httpx.HTTPStatusError as exc:
            raise RerankError(f"reranker {self.url} answered {exc.response.status_code}: "
                              f"{exc.response.text[:200]}") from exc
        except httpx.HTTPError as exc:
            raise RerankError(f"cannot reach reranker {self.url}: {exc}") from exc
        except ValueError as exc:
            raise RerankError(f"reranker {self.url} did not answer JSON") from exc
        results = data.get("results") if isinstance(data, dict) else data  # TEI answers a bare list
        if not isinstance(results, list):
            raise RerankError(f"unexpected answer from reranker {self.url}")
        out = [float("-inf")] * len(passages)
        try:
            for r in results:
                score = r.get("relevance_score", r.get("score"))
                out[int(r["index"])] = float(score)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RerankError(f"unexpected answer from reranker {self.url}: {exc}") from exc
        return out

    def close(self) -> None:
        self._client.close()


def get_reranker(spec: str | None = None) -> Reranker | None:
    """None/"none" (default, HOPGRAPH_RERANKER unset) | ``fastembed:<model>`` | ``http:<url>`` | a URL."""
    spec = (spec if spec is not None else os.environ.get("HOPGRAPH_RERANKER") or "none").strip()
    if not spec or spec.lower() == "none":
        return None
    if spec.startswith("fastembed:") and spec[len("fastembed:"):]:
        return FastembedReranker(spec[len("fastembed:"):])
    if spec.startswith(("http://", "https://")):
        return HttpReranker(spec)
    if spec.startswith("http:") and spec[len("http:"):]:
        return HttpReranker(spec[len("http:"):])
    raise RerankError(f"unknown reranker {spec!r}: use none, fastembed:<model> or http:<url>")
