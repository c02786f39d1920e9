"""The optional embedders: fastembed models (``fastembed:<model>``) and OpenAI-compatible ``/embeddings``
endpoints (``openai:<model>``). :func:`hopgraph.index.embed.get_embedder` makes them by name."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.index.embed_base import DEFAULT_BATCH, Embedder, EmbedderError, embed_threads, normalize_rows

# --- fastembed ------------------------------------------------------------------


class FastembedEmbedder(Embedder):
    """A fastembed model by name: downloaded from the hub, or read from ``model_path``.

    ``model_path`` (or HOPGRAPH_FASTEMBED_PATH) is a local folder with model.onnx,
    tokenizer.json and tokenizer_config.json, for machines without internet.
    """

    def __init__(
        self,
        model: str,
        threads: int | None = None,
        batch_size: int = DEFAULT_BATCH,
        model_path: str | Path | None = None,
    ) -> None:
        try:
            from fastembed import TextEmbedding
        except ImportError as exc:
            raise EmbedderError(
                f"embedder 'fastembed:{model}' needs the optional package fastembed: pip install 'hopgraph[fastembed]'"
            ) from exc
        self.name = f"fastembed:{model}"
        self.batch_size = batch_size
        folder = model_path or os.environ.get("HOPGRAPH_FASTEMBED_PATH") or None
        if folder is not None and not Path(folder).is_dir():
            raise EmbedderError(f"fastembed model folder {folder} does not exist")
        try:
            self._model = TextEmbedding(
                model_name=model,
                threads=threads or embed_threads(),
                specific_model_path=str(folder) if folder else None,
            )
        except Exception as exc:
            raise EmbedderError(f"cannot load fastembed model {model!r}: {exc}") from exc
        self._dim = int(self._embed_batch(["dimension probe"]).shape[1])

    @property
    def dim(self) -> int:
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return np.asarray(list(self._model.embed(texts, batch_size=self.batch_size)), dtype=np.float32)

    def _embed_query_uncached(self, text: str) -> np.ndarray:
        vecs = list(self._model.query_embed([text]))
        return normalize_rows(np.asarray(vecs, dtype=np.float32))[0]


# --- openai-compatible ----------------------------------------------------------


class OpenAIEmbedder(Embedder):
    """Any OpenAI-compatible ``/embeddings`` endpoint (OPENAI_BASE_URL, OPENAI_API_KEY)."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        batch_size: int = DEFAULT_BATCH,
        timeout_s: float = 60.0,
        max_retries: int = 4,
        dim: int | None = None,
    ) -> None:
        import httpx

        self.name = f"openai:{model}"
        self.model = model
        self.batch_size = batch_size
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        key = api_key or os.environ.get("OPENAI_API_KEY") or ""
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.max_retries = max_retries
        self._client = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout_s)
        self._dim = dim

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self._embed_batch(["dimension probe"]).shape[1])
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        import httpx
        from tenacity import retry, retry_if_exception, stop_after_attempt, wait_exponential

        def retryable(exc: BaseException) -> bool:
            if isinstance(exc, httpx.HTTPStatusError):
                return exc.response.status_code == 429 or exc.response.status_code >= 500
            return isinstance(exc, httpx.TransportError)

        @retry(
            retry=retry_if_exception(retryable),
            stop=stop_after_attempt(self.max_retries + 1),
            wait=wait_exponential(multiplier=0.2, max=8),
            reraise=True,
        )
        def call() -> dict[str, Any]:
            resp = self._client.post("/embeddings", json={"model": self.model, "input": texts})
            resp.raise_for_status()
            data: dict[str, Any] = resp.json()
            return data

        try:
            data = call()
        except httpx.HTTPStatusError as exc:
            body = exc.response.text[:200]
            raise EmbedderError(
                f"embedding endpoint {self.base_url} answered {exc.response.status_code}: {body}"
            ) from exc
        except httpx.HTTPError as exc:
            raise EmbedderError(f"cannot reach embedding endpoint {self.base_url}: {exc}") from exc
        try:
            rows = sorted(data["data"], key=lambda r: r.get("index", 0))
            mat = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbedderError(f"unexpected answer from embedding endpoint {self.base_url}") from exc
        if mat.ndim != 2 or mat.shape[0] != len(texts):
            raise EmbedderError(
                f"embedding endpoint {self.base_url} returned {mat.shape[0]} vectors for {len(texts)} texts"
            )
        if self._dim is None:
            self._dim = int(mat.shape[1])
        return mat

    def close(self) -> None:
        self._client.close()
