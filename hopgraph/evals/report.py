"""results.json, results.md, per_query.jsonl and a bar chart."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, Literal

SHOWN = (("ndcg@10", "nDCG@10"), ("recall@2", "R@2"), ("recall@5", "R@5"), ("recall@10", "R@10"),
         ("mrr@10", "MRR@10"), ("full_support@5", "full@5"))


# The graph's report as a set; baselines (a fixed depth) have none.
SET_SHOWN = (("reported", "reported"), ("set_precision", "set P"), ("set_recall", "set R"), ("set_f1", "set F1"))


def _set_cell(m: dict[str, Any], key: str) -> str:
    if key not in m:
        return "—"
    return f"{m[key]:.1f}" if key == "reported" else f"{m[key]:.3f}"


def markdown_table(results: dict[str, Any]) -> str:
    head = ["system", *[label for _, label in SHOWN], *[label for _, label in SET_SHOWN], "turns", "tool calls",
            "prompt tok", "p50 ms", "p95 ms", "exits"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, m in results["systems"].items():
        exits = ", ".join(f"{k} {v}" for k, v in m.get("exit_reasons", {}).items())
        row = [f"`{name}`", *[f"{m[k]:.3f}" for k, _ in SHOWN], *[_set_cell(m, k) for k, _ in SET_SHOWN],
               f"{m['mean_turns']:.2f}",
               f"{m['mean_tool_calls']:.1f}", f"{m['mean_prompt_tokens']:.0f}", f"{m['latency_ms_p50']:.0f}",
               f"{m['latency_ms_p95']:.0f}", exits]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def markdown(results: dict[str, Any]) -> str:
    title = f"## {results['dataset']}: {results['queries']} queries"
    if results.get("skipped_no_qrels"):
        title += f" ({results['skipped_no_qrels']} without qrels skipped)"
    meta = (f"{results['date']}, {results['machine']}; model `{results['model']}`, runs {results['runs']}, "
            f"baselines at depth {results['depth']}")
    return f"{title}\n\n{meta}\n\n{markdown_table(results)}\n"


def bar_chart(results: dict[str, Any], path: Path) -> None:
    grouped_bars(results, SHOWN, f"{results['dataset']} ({results['queries']} queries)", "upper left", path)


def grouped_bars(results: dict[str, Any], shown: Sequence[tuple[str, str]], title: str,
                 legend: Literal["upper left", "upper right"], path: Path) -> None:
    """One group of bars per metric in ``shown`` ((key, label) pairs), one bar per system; a missing score is 0."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    systems = list(results["systems"])
    width = 0.8 / max(len(systems), 1)
    fig, ax = plt.subplots(figsize=(9, 4))
    for i, name in enumerate(systems):
        vals = [results["systems"][name][k] or 0.0 for k, _ in shown]
        xs = [j + i * width for j in range(len(shown))]
        ax.bar(xs, vals, width, label=name)
    ax.set_xticks([j + width * (len(systems) - 1) / 2 for j in range(len(shown))])
    ax.set_xticklabels([label for _, label in shown])
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc=legend, fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_outputs(out: Path, results: dict[str, Any], records: dict[str, list[Any]]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (out / "results.md").write_text(markdown(results))
    with (out / "per_query.jsonl").open("w") as f:
        for system, recs in records.items():
            for r in recs:
                f.write(json.dumps({"system": system, **asdict(r)}) + "\n")
    bar_chart(results, out / "results.png")
