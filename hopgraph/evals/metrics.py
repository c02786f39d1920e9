"""Ranking metrics, computed by pytrec_eval (trec_eval's definitions).

A ranked list is turned into descending scores, so pytrec_eval never reorders ties.
MRR@10 is trec_eval's recip_rank on the list cut at 10. Full support: every relevant
document is in the top 5. Set metrics (for the graph, whose report is a set of helpful documents as
well as a ranking) are plain set arithmetic on the reported ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytrec_eval

METRIC_KEYS = ("ndcg@10", "recall@2", "recall@5", "recall@10", "mrr@10", "full_support@5")
_MEASURES = {"ndcg_cut.10", "recall.2,5,10", "recip_rank"}
_NAMES = {"ndcg_cut_10": "ndcg@10", "recall_2": "recall@2", "recall_5": "recall@5", "recall_10": "recall@10"}


def _scored(ranked: Sequence[str], cut: int | None = None) -> dict[str, float]:
    ranked = list(dict.fromkeys(ranked))[:cut]
    n = len(ranked)
    return {doc: float(n - i) for i, doc in enumerate(ranked)}


def per_query_metrics(
    qrels: Mapping[str, Mapping[str, int]], runs: Mapping[str, Sequence[str]]
) -> dict[str, dict[str, float]]:
    """Metrics for every query of ``runs`` that has relevant documents; an empty list scores 0."""
    judged = {q: dict(r) for q, r in qrels.items() if q in runs and any(s > 0 for s in r.values())}
    out = {q: dict.fromkeys(METRIC_KEYS, 0.0) for q in judged}
    if not judged:
        return out
    full = pytrec_eval.RelevanceEvaluator(judged, _MEASURES)
    res = full.evaluate({q: _scored(runs[q]) for q in judged if runs[q]})
    res10 = full.evaluate({q: _scored(runs[q], 10) for q in judged if runs[q]})
    for q, vals in res.items():
        for src, dst in _NAMES.items():
            out[q][dst] = float(vals[src])
        out[q]["mrr@10"] = float(res10[q]["recip_rank"])
    for q in judged:
        relevant = {d for d, s in judged[q].items() if s > 0}
        out[q]["full_support@5"] = 1.0 if relevant <= set(list(dict.fromkeys(runs[q]))[:5]) else 0.0
    return out


SET_KEYS = ("reported", "set_precision", "set_recall", "set_f1")


def set_metrics(
    qrels: Mapping[str, Mapping[str, int]], runs: Mapping[str, Sequence[str]]
) -> dict[str, dict[str, float]]:
    """The reported list as a set: how many ids, and precision, recall and F1 against the relevant ones.

    Scored for every query of ``runs`` that has relevant documents; an empty report scores 0 on all three.
    """
    out: dict[str, dict[str, float]] = {}
    for q, judged in qrels.items():
        relevant = {d for d, s in judged.items() if s > 0}
        if q not in runs or not relevant:
            continue
        reported = set(runs[q])
        hits = len(reported & relevant)
        precision = hits / len(reported) if reported else 0.0
        recall = hits / len(relevant)
        f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
        out[q] = {"reported": float(len(reported)), "set_precision": precision, "set_recall": recall, "set_f1": f1}
    return out


def aggregate(per_query: Mapping[str, Mapping[str, float]], keys: Sequence[str] = METRIC_KEYS) -> dict[str, float]:
    if not per_query:
        return dict.fromkeys(keys, 0.0)
    n = len(per_query)
    return {k: sum(m[k] for m in per_query.values()) / n for k in keys}


def rrf(lists: Sequence[Sequence[str]], k: int = 60) -> list[str]:
    """Reciprocal rank fusion of ranked id lists; ties by id."""
    scores: dict[str, float] = {}
    for ranked in lists:
        for rank, doc in enumerate(dict.fromkeys(ranked), start=1):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda d: (-scores[d], d))
