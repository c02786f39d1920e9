"""An int8-compute copy of the MiniLM model, for embedding queries.

The shipped model stores int8 weights but computes in float32 (onnxruntime folds the
weights back to float at load time). Queries are short, so their embedding time is
almost all matrix products; dynamic int8 quantization of those products halves it.
Documents keep the float model, so existing indexes stay valid: only the query side
changes. With full 8-bit weights the int8 and float query vectors agree to a cosine of
0.99 and retrieve the same (docs/benchmarks-index.md); x86 CPUs without VNNI need 7-bit
weights, which cost about a point of recall. Used when the query precision resolves to
``int8`` (see ``hopgraph.index.embed.query_precision``).

The copy is derived from the verified shipped file on first use and cached with its own
sha256, so a damaged cache file is rebuilt, not loaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import tempfile
import threading
from pathlib import Path

from hopgraph.config import user_cache_dir
from hopgraph.index.common import file_sha256

# Bump when the recipe below changes, so older cached copies are not reused.
RECIPE = "dyn-s8-perchannel-weights-only-v2"
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


def _build(source: Path, target: Path, reduce_range: bool) -> None:
    try:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:
        raise QuantizeError(f"building the int8 query model needs the package onnx: {exc}") from exc
    with tempfile.TemporaryDirectory(prefix="hopgraph-quant-", dir=target.parent) as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        # onnxruntime's own preparation: folds the stored int8 weights to float and infers shapes.
        # Symbolic shape inference (it needs sympy) adds nothing for this model's MatMuls.
        quant_pre_process(source, prepared, skip_symbolic_shape=True)
        model = onnx.load(str(prepared))
        weights = {init.name for init in model.graph.initializer}
        # Products of two activations (attention scores) lose accuracy in int8 and cost little in float.
        activation_products = [
            node.name
            for node in model.graph.node
            if node.op_type == "MatMul" and not any(name in weights for name in node.input)
        ]
        staged = Path(tmp) / "query.onnx"
        # Signed weights with a scale per output channel.
        quantize_dynamic(
            prepared,
            staged,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=reduce_range,
            nodes_to_exclude=activation_products,
        )
        os.replace(staged, target)


def _cached(target: Path, record: Path) -> bool:
    """Whether ``target`` is a complete earlier build: its hash matches the one recorded beside it."""
    try:
        expected = json.loads(record.read_text()).get("sha256")
        return bool(expected) and file_sha256(target) == expected
    except (OSError, ValueError, AttributeError):
        return False  # missing, unreadable or damaged: build again


def int8_query_model(source: Path, source_sha256: str) -> Path:
    """Path of the int8 copy of ``source`` (already verified), building it on first use.

    Cached under ~/.cache/hopgraph/models; where that is not writable, built in a temporary
    folder for this process.
    """
    import onnxruntime as ort

    reduce_range = needs_reduced_range()
    recipe = f"{RECIPE}-{'7bit' if reduce_range else '8bit'}"
    key = hashlib.sha256(f"{source_sha256}|{recipe}|{ort.__version__}".encode()).hexdigest()[:16]
    problems = []
    with _build_lock:
        for folder in (cache_dir(), Path(tempfile.gettempdir()) / f"hopgraph-models-{os.getuid()}"):
            target = folder / f"minilm-query-int8-{key}.onnx"
            record = target.with_suffix(".json")
            if _cached(target, record):
                return target
            try:
                folder.mkdir(parents=True, exist_ok=True)
                _build(source, target, reduce_range)
                staged_record = record.with_suffix(f".{os.getpid()}.tmp")
                staged_record.write_text(
                    json.dumps({"sha256": file_sha256(target), "source_sha256": source_sha256, "recipe": recipe,
                                "onnxruntime": ort.__version__})
                )
                os.replace(staged_record, record)
                return target
            except OSError as exc:
                problems.append(f"{folder}: {exc}")  # unwritable: try the next folder
    raise QuantizeError("cannot write the int8 query model: " + "; ".join(problems))
