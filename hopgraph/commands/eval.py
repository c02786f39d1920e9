"""hopgraph eval --data DIR: the graph against single-shot dense, BM25 and hybrid search; with
``--mode answer``, the graph's cited answers against known answers."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from hopgraph.commands._common import add_model_timeout_option
from hopgraph.evals import EvalError, require_eval_extra


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "eval", help="evaluate retrieval on a BEIR-layout folder",
        description="Ingests the corpus (cached per corpus and embedder), runs every judged query through the "
                    "graph and through single-shot baselines, and reports nDCG@10, recall, MRR and costs.",
    )
    parser.add_argument("--data", required=True, metavar="DIR",
                        help="folder with corpus.jsonl, queries.jsonl, qrels.tsv (answer mode: or 'demo' for the "
                             "bundled demo questions and corpus)")
    parser.add_argument("--mode", choices=("ids", "answer"), default="ids",
                        help="ids: retrieval metrics (default); answer: answer containment, citation precision "
                             "and recall, 'not found' correctness (queries carry answer/answer_aliases or facts)")
    parser.add_argument("--queries", metavar="FILE", help="queries file (default DIR/queries.jsonl)")
    parser.add_argument("--qrels", metavar="FILE", help="qrels file (default DIR/qrels.tsv), for questions kept "
                                                        "apart from the corpus they are asked over")
    parser.add_argument("--model", metavar="SPEC", help="model spec (default HOPGRAPH_MODEL or builtin)")
    add_model_timeout_option(parser)
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N judged queries")
    parser.add_argument("--part", choices=("look", "score"),
                        help="answer mode: only one part of the fixed split of the questions by the SHA-1 of their "
                             "id (look: even, score: odd; see hopgraph.evals.split)")
    parser.add_argument("--out", metavar="DIR", help="where results.json, results.md and results.png go "
                                                     "(default eval-out/<dataset>)")
    parser.add_argument("--runs", type=int, default=1, metavar="N", help="runs per query, fused by RRF (default 1)")
    parser.add_argument("--cache", metavar="DIR", help="where the evaluation indexes are cached, one per corpus and "
                                                       "embedder (default ~/.cache/hopgraph/eval-index)")
    # The old name of --cache: every other command's --index names one index, not a folder of them.
    parser.add_argument("--index", dest="old_index", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--embedder", metavar="SPEC", help="embedder spec (default HOPGRAPH_EMBEDDER or minilm)")
    parser.add_argument("--doc-precision", choices=("auto", "int8", "float"),
                        help="how minilm embeds the corpus (default HOPGRAPH_DOC_PRECISION, else auto); cached apart")
    parser.add_argument("--depth", type=int, default=10, metavar="K", help="baseline result depth (default 10)")
    parser.add_argument("--max-turns", type=int, metavar="N", help="turn cap of the graph runs")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--rerank", metavar="SPEC",
                        help="also run with this reranker (fastembed:<model> or http:<url>) to compare")
    parser.set_defaults(func=run)


def cache_root(args: argparse.Namespace) -> str | None:
    """--cache, or the deprecated --index with a warning (both at once is a mistake worth naming)."""
    if args.old_index is None:
        return args.cache
    if args.cache is not None:
        raise EvalError("--index is the old name of --cache: give only --cache")
    print("warning: hopgraph eval --index is deprecated and will be removed; use --cache DIR (the folder the "
          "evaluation indexes are cached in)", file=sys.stderr)
    return str(args.old_index)


def run(args: argparse.Namespace) -> int:
    require_eval_extra()  # before anything imports the metrics or the plots
    from hopgraph.evals.report import markdown
    from hopgraph.evals.runner import EvalOptions, evaluate

    if args.mode == "answer":
        return _run_answers(args)
    if args.part is not None:
        raise EvalError("--part applies to --mode answer only")
    if args.depth < 1:
        raise EvalError("--depth must be at least 1")
    model = args.model or os.environ.get("HOPGRAPH_MODEL") or "builtin"
    if args.model_timeout:
        # Every Context of this process (the runner builds its own) takes its default from here.
        os.environ["HOPGRAPH_MODEL_TIMEOUT"] = str(args.model_timeout)
    out = args.out or str(Path("eval-out") / Path(args.data).expanduser().resolve().name)
    opts = EvalOptions(
        data=args.data, queries=args.queries, qrels=args.qrels, model=model, limit=args.limit, out=out, runs=args.runs,
        index=cache_root(args), embedder=args.embedder, depth=args.depth, progress=not args.quiet,
        max_turns=args.max_turns, rerank=args.rerank, doc_precision=args.doc_precision,
    )
    results = evaluate(opts)
    print(markdown(results))
    print(f"results in {out}/ (results.json, results.md, results.png, per_query.jsonl)")
    return 0


def _run_answers(args: argparse.Namespace) -> int:
    from hopgraph.evals.answer_runner import AnswerEvalOptions, answer_markdown, evaluate_answers

    if args.rerank or args.runs != 1:
        raise EvalError("--rerank and --runs apply to --mode ids only")
    model = args.model or os.environ.get("HOPGRAPH_MODEL") or "builtin"
    if args.model_timeout:
        os.environ["HOPGRAPH_MODEL_TIMEOUT"] = str(args.model_timeout)
    name = "demo" if args.data == "demo" else Path(args.data).expanduser().resolve().name
    out = args.out or str(Path("eval-out") / f"{name}-answers")
    opts = AnswerEvalOptions(data=args.data, queries=args.queries, qrels=args.qrels, model=model, limit=args.limit,
                             out=out, index=cache_root(args), embedder=args.embedder, progress=not args.quiet,
                             max_turns=args.max_turns, part=args.part)
    print(answer_markdown(evaluate_answers(opts)))
    print(f"results in {out}/ (results.json, results.md, results.png, per_query.jsonl)")
    return 0
