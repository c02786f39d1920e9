"""Models derived from the shipped MiniLM file: its fused float graph, and an int8 copy for queries.

The shipped model stores int8 weights but computes in float32 (onnxruntime folds the
weights back to float at load time). ``fused_model`` rebuilds it from onnxruntime's fused
transformer operators (``hopgraph.index.fused``): the same vectors in less time, used for
documents and float queries. ``int8_query_model`` quantizes that graph dynamically: queries
are short, so their embedding time is almost all matrix products, and int8 products take
under half the time. Documents keep float unless asked otherwise, so existing indexes stay valid:
only the query side changes. With full 8-bit weights the int8 and float query vectors agree to a
cosine of 0.99 and retrieve the same (docs/benchmarks-index.md); x86 CPUs without VNNI need 7-bit
weights, which cost about a point of recall. Used when the query precision resolves to
``int8`` (see ``hopgraph.index.embed.query_precision``), and for documents when the document
precision does (``hopgraph.index.embed.doc_precision_setting``).

Both are derived from the verified shipped file on first use and cached with their own
sha256, so a damaged cache file is rebuilt, not loaded.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import platform
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from hopgraph.config import user_cache_dir
from hopgraph.index.common import file_sha256
from hopgraph.index.fused import EMBED_NODE, FusedGraphError, build_fused, check_matches

# Bump when a recipe below changes, so older cached copies are not reused.
FUSED_RECIPE = "fused-attention-v1"
RECIPE = f"dyn-s8-perchannel-{FUSED_RECIPE}"
# CPU features whose int8 dot products accumulate u8 x s8 without a saturating 16-bit step.
_VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni", "amx_int8"})

_build_lock = threading.Lock()


class QuantizeError(RuntimeError):
    """The int8 query model could not be built."""


def cache_dir() -> Path:
    return user_cache_dir() / "models"


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The CPU feature flags Linux reports (empty where there is no /proc/cpuinfo)."""
    try:
        with cpuinfo.open() as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("flags", "Features"):
                    return frozenset(value.split())
    except OSError:
        pass
    return frozenset()


def needs_reduced_range(machine: str | None = None, flags: frozenset[str] | None = None) -> bool:
    """Whether int8 weights must keep to 7 bits on this CPU.

    x86 without VNNI multiplies u8 by s8 into saturating 16-bit sums, so full-range weights
    can overflow; VNNI (and ARM) accumulate in 32 bits, where the eighth bit buys accuracy.
    An x86 CPU whose flags cannot be read is treated as one without VNNI.
    """
    machine = (machine or platform.machine()).lower()
    if machine not in ("x86_64", "amd64", "i386", "i686", "x86"):
        return False
    return not (_VNNI_FLAGS & (cpu_flags() if flags is None else flags))


def _build_fused(source: Path, target: Path) -> None:
    try:
        import onnx
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:
        raise QuantizeError(f"building the fused MiniLM graph needs the package onnx: {exc}") from exc
    with tempfile.TemporaryDirectory(prefix="hopgraph-fuse-", dir=target.parent) as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        # onnxruntime's own pre-processing folds the stored int8 weights to float. Symbolic shape
        # inference (it needs sympy) adds nothing for this model.
        quant_pre_process(source, prepared, skip_symbolic_shape=True)
        staged = Path(tmp) / "fused.onnx"
        onnx.save(build_fused(onnx.load(str(prepared))), str(staged))
        check_matches(source, staged)
        os.replace(staged, target)


class _DropMessage(logging.Filter):
    """Drops log records that contain ``text``."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        return self.text not in record.getMessage()


def _build_int8(fused: Path, target: Path, reduce_range: bool) -> None:
    try:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise QuantizeError(f"building the int8 query model needs the package onnx: {exc}") from exc
    with tempfile.TemporaryDirectory(prefix="hopgraph-quant-", dir=target.parent) as tmp:
        # onnxruntime writes a shape-inferred scratch copy beside its input and deletes it after: quantize
        # a private link to the fused graph, so two processes building at once never share that file.
        private = Path(tmp) / "fused.onnx"
        try:
            os.link(fused, private)
        except OSError:
            shutil.copyfile(fused, private)  # another file system, or no hard links there
        staged = Path(tmp) / "query.onnx"
        # Signed weights with a scale per output channel; the attention products of two activations
        # stay in float inside the quantized Attention operator. The embedding lookup stays float.
        # Its advice to pre-process is already followed: the weights come from a pre-processed model,
        # and shape inference does not know the fused operators (hence the default tensor type).
        advice = _DropMessage("pre-processing before quantization")
        logging.getLogger().addFilter(advice)
        try:
            quantize_dynamic(
                private,
                staged,
                weight_type=QuantType.QInt8,
                per_channel=True,
                reduce_range=reduce_range,
                nodes_to_exclude=[EMBED_NODE],
                extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
            )
        finally:
            logging.getLogger().removeFilter(advice)
        os.replace(staged, target)


def _cached(target: Path, record: Path) -> bool:
    """Whether ``target`` is a complete earlier build: its hash matches the one recorded beside it."""
    try:
        expected = json.loads(record.read_text()).get("sha256")
        return bool(expected) and file_sha256(target) == expected
    except (OSError, ValueError, AttributeError):
        return False  # missing, unreadable or damaged: build again


def _derived(stem: str, what: str, recipe: str, source_sha256: str, build: Callable[[Path], None]) -> Path:
    """A model derived from a verified source, built by ``build(target)`` on first use and cached.

    Cached under ~/.cache/hopgraph/models with its sha256 recorded beside it; where that is not
    writable, built in a temporary folder for this process.
    """
    import onnxruntime as ort

    key = hashlib.sha256(f"{source_sha256}|{recipe}|{ort.__version__}".encode()).hexdigest()[:16]
    problems = []
    with _build_lock:
        for folder in (cache_dir(), Path(tempfile.gettempdir()) / f"hopgraph-models-{os.getuid()}"):
            target = folder / f"{stem}-{key}.onnx"
            record = target.with_suffix(".json")
            if _cached(target, record):
                return target
            try:
                folder.mkdir(parents=True, exist_ok=True)
                build(target)
                staged_record = record.with_suffix(f".{os.getpid()}.tmp")
                staged_record.write_text(
                    json.dumps({"sha256": file_sha256(target), "source_sha256": source_sha256, "recipe": recipe,
                                "onnxruntime": ort.__version__})
                )
                os.replace(staged_record, record)
                return target
            except OSError as exc:
                problems.append(f"{folder}: {exc}")  # unwritable: try the next folder
            except FusedGraphError as exc:
                raise QuantizeError(f"cannot rebuild the MiniLM graph: {exc}") from exc
    raise QuantizeError(f"cannot write the {what}: " + "; ".join(problems))


def fused_model(source: Path, source_sha256: str) -> Path:
    """Path of the fused float graph of ``source`` (already verified), building it on first use."""
    return _derived("minilm-fused", "fused MiniLM model", FUSED_RECIPE, source_sha256,
                    lambda target: _build_fused(source, target))


def int8_query_model(source: Path, source_sha256: str) -> Path:
    """Path of the int8 copy of the fused graph of ``source`` (already verified), building both on first use.

    Named for queries, its first use; documents embedded in int8 go through the same file."""
    fused = fused_model(source, source_sha256)
    reduce_range = needs_reduced_range()
    recipe = f"{RECIPE}-{'7bit' if reduce_range else '8bit'}"
    return _derived("minilm-query-int8", "int8 query model", recipe, source_sha256,
                    lambda target: _build_int8(fused, target, reduce_range))
