"""MiniLM rebuilt from onnxruntime's fused transformer operators.

The shipped export spells each attention block out in dozens of small operators (shape
arithmetic, transposes, masks), and onnxruntime's optimizer does not recognise that export's
attention pattern. Rebuilt from the same weights with onnxruntime's own ``Attention``,
``EmbedLayerNormalization`` and ``BiasGelu`` operators, the graph has 69 nodes instead of 385
and computes the same vectors (cosine 0.9999999 to the shipped graph): documents embed in
about 0.8 of the time, and its int8 copy embeds queries in about 0.75 of the time of the int8
copy of the shipped graph (docs/benchmarks-index.md).

Every rebuilt graph is checked against the shipped one on a padded batch before it is used;
a model whose layout is not recognised, or whose rebuilt output differs, raises
``FusedGraphError`` and the caller keeps the shipped graph.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

# all-MiniLM-L6-v2: 384 wide, 12 heads of 32. A model with another head count fails the check below.
NUM_HEADS = 12
LAYER_NORM_EPSILON = 1e-12
# onnxruntime's CPU SkipLayerNormalization kernel measured about four times slower on query-sized
# inputs than the residual Add followed by LayerNormalization, which its optimizer would fuse back.
DISABLED_OPTIMIZERS = ["SkipLayerNormFusion"]
# Largest cosine distance from the shipped graph's token vectors that the rebuilt graph may show.
TOLERANCE = 1e-5
# The node quantization must leave in float: embedding lookups gain nothing and lose accuracy.
EMBED_NODE = "embeddings"

_QUERY_BIAS = re.compile(r"^(?P<prefix>.*)encoder\.layer\.(?P<layer>\d+)\.attention\.self\.query\.bias$")


class FusedGraphError(RuntimeError):
    """The model's layout was not recognised, or the rebuilt graph does not match it."""


def _float_weights(model: Any) -> dict[str, np.ndarray]:
    from onnx import numpy_helper

    return {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}


def _matmul_weight_for(
    model: Any, weights: dict[str, np.ndarray], producers: dict[str, Any], bias: str
) -> np.ndarray:
    """The weight matrix of the MatMul whose output the Add of ``bias`` takes (``producers``: node by output)."""
    for node in model.graph.node:
        if node.op_type == "Add" and bias in node.input:
            other = [name for name in node.input if name != bias]
            matmul = producers.get(other[0]) if len(other) == 1 else None
            if matmul is not None and matmul.op_type == "MatMul":
                found = [weights[name] for name in matmul.input if name in weights]
                if len(found) == 1 and found[0].ndim == 2:
                    return found[0]
    raise FusedGraphError(f"no weight product feeds the bias {bias}")


def build_fused(prepared: Any) -> Any:
    """The fused graph of a BERT-style sentence encoder, from its float export ``prepared``.

    ``prepared`` is an ``onnx.ModelProto`` whose weights are plain float initializers (the
    shipped model after onnxruntime's pre-processing). Inputs ``input_ids`` and
    ``attention_mask``; output ``last_hidden_state``. Token type ids are always 0 for single
    texts, so their embedding row is folded into the position embeddings.
    """
    from onnx import TensorProto, helper, numpy_helper

    weights = _float_weights(prepared)
    producers = {out: node for node in prepared.graph.node for out in node.output}
    layers = sorted({int(m["layer"]) for m in map(_QUERY_BIAS.match, weights) if m})
    prefixes = {m["prefix"] for m in map(_QUERY_BIAS.match, weights) if m}
    if not layers or len(prefixes) != 1 or layers != list(range(len(layers))):
        raise FusedGraphError("not a BERT-style encoder export: no numbered attention layers found")
    prefix = prefixes.pop()
    inits: list[Any] = []

    def init(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value, dtype=np.float32), name))
        return name

    def weight(name: str) -> np.ndarray:
        try:
            return weights[prefix + name]
        except KeyError as exc:
            raise FusedGraphError(f"the model has no weight {prefix + name}") from exc

    emb = "embeddings."
    positions = weight(emb + "position_embeddings.weight") + weight(emb + "token_type_embeddings.weight")[0]
    nodes = [
        helper.make_node("Cast", ["input_ids"], ["ids32"], to=TensorProto.INT32),
        helper.make_node("Cast", ["attention_mask"], ["mask32"], to=TensorProto.INT32),
        helper.make_node(
            "EmbedLayerNormalization",
            ["ids32", "", init("word_embeddings", weight(emb + "word_embeddings.weight")),
             init("position_embeddings", positions), "",
             init("embeddings_gamma", weight(emb + "LayerNorm.weight")),
             init("embeddings_beta", weight(emb + "LayerNorm.bias"))],
            ["hidden_0", "mask_index_unused"],
            name=EMBED_NODE, domain="com.microsoft", epsilon=LAYER_NORM_EPSILON,
        ),
    ]

    def add_norm(at: str, x: str, bias: str, skip: str, norm: str, out: str) -> list[Any]:
        """Bias, residual and LayerNorm as three plain nodes (see DISABLED_OPTIMIZERS)."""
        stem = (at + norm).replace(".", "_")
        return [
            helper.make_node("Add", [x, init(stem + "_bias", weight(at + bias))], [stem + "_biased"]),
            helper.make_node("Add", [stem + "_biased", skip], [stem + "_residual"]),
            helper.make_node("LayerNormalization", [stem + "_residual",
                                                    init(stem + "_gamma", weight(at + norm + ".weight")),
                                                    init(stem + "_beta", weight(at + norm + ".bias"))],
                             [out], epsilon=LAYER_NORM_EPSILON),
        ]

    def product(bias: str) -> np.ndarray:
        return _matmul_weight_for(prepared, weights, producers, prefix + bias)

    hidden = "hidden_0"
    for layer in layers:
        at = f"encoder.layer.{layer}."
        qkv = [at + f"attention.self.{part}.bias" for part in ("query", "key", "value")]
        qkv_weight = np.concatenate([product(b) for b in qkv], axis=1)
        qkv_bias = np.concatenate([weight(b) for b in qkv])
        out_weight = product(at + "attention.output.dense.bias")
        up_weight = product(at + "intermediate.dense.bias")
        down_weight = product(at + "output.dense.bias")
        name = f"layer{layer}_"
        after = "last_hidden_state" if layer == layers[-1] else f"hidden_{layer + 1}"
        nodes += [
            helper.make_node("Attention", [hidden, init(name + "qkv_weight", qkv_weight),
                                           init(name + "qkv_bias", qkv_bias), "mask32"],
                             [name + "attention"], domain="com.microsoft", num_heads=NUM_HEADS),
            helper.make_node("MatMul", [name + "attention", init(name + "out_weight", out_weight)], [name + "out"]),
            *add_norm(at, name + "out", "attention.output.dense.bias", hidden, "attention.output.LayerNorm",
                      name + "normed"),
            helper.make_node("MatMul", [name + "normed", init(name + "up_weight", up_weight)], [name + "up"]),
            helper.make_node("BiasGelu", [name + "up", init(name + "up_bias", weight(at + "intermediate.dense.bias"))],
                             [name + "gelu"], domain="com.microsoft"),
            helper.make_node("MatMul", [name + "gelu", init(name + "down_weight", down_weight)], [name + "down"]),
            *add_norm(at, name + "down", "output.dense.bias", name + "normed", "output.LayerNorm", after),
        ]
        hidden = after
    width = int(positions.shape[1])
    graph = helper.make_graph(
        nodes, "minilm-fused",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", width])],
        inits,
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    return helper.make_model(graph, opset_imports=opsets, producer_name="hopgraph")


def open_session(path: Path, threads: int) -> Any:
    """An onnxruntime CPU session on ``threads`` intra-op threads, with the fusion above turned off."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"],
                                disabled_optimizers=DISABLED_OPTIMIZERS)


def probe_batch(seed: int = 0) -> dict[str, np.ndarray]:
    """Three texts' worth of token ids of different lengths, padded on the right like real batches."""
    rng = np.random.default_rng(seed)
    lengths = [5, 23, 64]
    ids = np.zeros((len(lengths), max(lengths)), dtype=np.int64)
    mask = np.zeros_like(ids)
    for row, n in enumerate(lengths):
        ids[row, :n] = np.concatenate([[101], rng.integers(1000, 30000, n - 2), [102]])
        mask[row, :n] = 1
    return {"input_ids": ids, "attention_mask": mask}


def check_matches(reference: Path, candidate: Path, tolerance: float = TOLERANCE) -> float:
    """Largest cosine distance between the two graphs' token vectors on ``probe_batch``.

    Padding positions are left out: neither graph's output there is read. Raises
    ``FusedGraphError`` above ``tolerance``.
    """
    feeds = probe_batch()
    outputs = []
    for path in (reference, candidate):
        try:
            session = open_session(path, 1)
        except Exception as exc:  # onnxruntime raises its own exception types
            raise FusedGraphError(f"onnxruntime cannot load {path.name}: {exc}") from exc
        wanted = {i.name for i in session.get_inputs()}
        run_feeds = {k: v for k, v in feeds.items() if k in wanted}
        if "token_type_ids" in wanted:
            run_feeds["token_type_ids"] = np.zeros_like(feeds["input_ids"])
        try:
            outputs.append(session.run(None, run_feeds)[0])
        except Exception as exc:
            raise FusedGraphError(f"{path.name} does not run: {exc}") from exc
    ref, got = outputs
    if ref.shape != got.shape:
        raise FusedGraphError(f"rebuilt graph gives shape {got.shape}, the model {ref.shape}")
    valid = feeds["attention_mask"].astype(bool)
    a, b = ref[valid], got[valid]
    cosine = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    distance = float(1.0 - cosine.min())
    if not distance <= tolerance:
        raise FusedGraphError(f"rebuilt graph differs from the model: cosine distance {distance:.2e}")
    return distance
