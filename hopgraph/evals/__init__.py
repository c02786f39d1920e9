"""Retrieval evaluation on BEIR-layout data: the graph against single-shot baselines.

Evaluation needs packages the rest of hopgraph does not (trec_eval's metrics, plots); they come
with the ``eval`` extra. Nothing here imports them until an evaluation runs, so the CLI, the
Python API and the served graph work without them.
"""

from __future__ import annotations

import importlib
from typing import Any

from hopgraph.evals.data import BeirData, EvalError, load_beir

EVAL_MODULES = ("pytrec_eval", "matplotlib")
"""What the ``eval`` extra provides: metrics (pytrec-eval-terrier, which brings scipy) and the bar chart."""
INSTALL_EVAL = "pip install 'hopgraph[eval]'"


class EvalExtraMissing(EvalError):
    """A package of the ``eval`` extra is not installed."""


def require_eval_extra() -> None:
    """Raises EvalExtraMissing, naming what to install, when a package of the ``eval`` extra is missing."""
    missing = []
    for name in EVAL_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise EvalExtraMissing(f"hopgraph eval needs the eval extra ({', '.join(missing)} not installed): "
                               f"{INSTALL_EVAL}")


def __getattr__(name: str) -> Any:
    # The metrics import pytrec_eval; load them only when asked for.
    if name in ("METRIC_KEYS", "aggregate", "per_query_metrics"):
        from hopgraph.evals import metrics

        return getattr(metrics, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["EVAL_MODULES", "INSTALL_EVAL", "METRIC_KEYS", "BeirData", "EvalError", "EvalExtraMissing", "aggregate",
           "load_beir", "per_query_metrics", "require_eval_extra"]
