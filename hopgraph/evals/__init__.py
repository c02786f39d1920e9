"""Retrieval evaluation on BEIR-layout data: the graph against single-shot baselines."""

from hopgraph.evals.data import BeirData, EvalError, load_beir
from hopgraph.evals.metrics import METRIC_KEYS, aggregate, per_query_metrics

__all__ = ["METRIC_KEYS", "BeirData", "EvalError", "aggregate", "load_beir", "per_query_metrics"]
