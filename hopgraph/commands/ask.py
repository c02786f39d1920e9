"""hopgraph ask "question": run the loop and print the ranked documents (or the cited answer)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from hopgraph.commands._common import (
    add_embedder_option,
    add_index_options,
    add_model_timeout_option,
    positive_int,
    scope_settings,
)
from hopgraph.config import Context
from hopgraph.state import run_failed


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("ask", help="ask a question")
    parser.add_argument("question", help="the question, in natural language")
    add_index_options(parser)
    add_embedder_option(parser)
    parser.add_argument("--thread", metavar="ID", help="continue (or start) a conversation thread")
    parser.add_argument("--model", metavar="SPEC", help="builtin, sid-1, openai:<model>, openai-responses:<model>")
    parser.add_argument("--base-url", metavar="URL", help="model endpoint override")
    add_model_timeout_option(parser)
    parser.add_argument("--mode", choices=("ids", "answer"), default="ids",
                        help="ids: the ranked documents (default); answer: an answer that cites its sources")
    parser.add_argument("--profile", choices=("fast", "thorough"), help="answer effort (remembered per thread)")
    parser.add_argument("--max-turns", type=positive_int, default=10, metavar="N",
                        help="the most rounds of searching before the run reports what it has (default 10)")
    parser.add_argument("--json", action="store_true", help="print the result object as JSON, nothing else")
    parser.set_defaults(func=run)


def context_from_args(args: argparse.Namespace) -> Context:
    kwargs: dict[str, Any] = {**scope_settings(args), "mode": args.mode, "max_turns": args.max_turns}
    if args.model_timeout:
        kwargs["model_timeout_s"] = args.model_timeout
    if args.profile:
        kwargs["profile"] = args.profile
    return Context(**kwargs)


def print_result(result: dict[str, Any], mode: str) -> None:
    """The result for a reader. A failed run's error is left to the caller, which prints it once, on stderr."""
    if mode == "answer":
        print(result.get("answer", ""))
        citations = result.get("citations") or []
        if citations:
            print()
            for number, cite in enumerate(citations, start=1):
                page = f", page {cite['page']}" if cite.get("page") is not None else ""
                where = f"{cite.get('container', '')}: {cite.get('source', '')}"
                print(f"[{number}] {cite.get('title', '')}{page} ({where})")
    else:
        titles = result.get("titles") or {}
        for rank, doc in enumerate(result.get("reported_ids", []), start=1):
            print(f"{rank:>3}. {doc}  {titles.get(doc, '')}")
        if not result.get("reported_ids"):
            print("(no documents reported)")
    print(f"\nexit: {result.get('exit_reason')} after {result.get('turns')} turns")
    if result.get("error") and not run_failed(result):
        print(f"note: {result['error']}")
    for entry in result.get("trace", []):
        names = ", ".join(f"{c['name']}({_short_args(c.get('args'))})" for c in entry.get("tool_calls", []))
        print(f"  turn {entry['turn']}: {names or 'no tool call'} | {len(entry.get('new_docs', []))} new docs"
              f" | {entry.get('prompt_tokens', 0)} prompt tokens | {entry.get('ms', 0):.0f} ms")


def _short_args(args: Any) -> str:
    text = json.dumps(args, ensure_ascii=False) if args is not None else ""
    return text if len(text) <= 60 else text[:57] + "..."


def run(args: argparse.Namespace) -> int:
    from hopgraph.api import run as run_question
    from hopgraph.index.factory import open_for_reading
    from hopgraph.models import parse_spec
    from hopgraph.runtime import get_backend, get_scope
    from hopgraph.state import check_question

    context = context_from_args(args)
    check_question(args.question)
    parse_spec(context.model)
    if args.embedder:
        # Opened here with the embedder asked for; the run's own opening finds it open (one per location).
        url = context.qdrant_url
        open_for_reading(index_dir=None if url else context.index_dir(), url=url, embedder=args.embedder)
    # A missing or empty index (or containers) is reported before any model call is paid for.
    get_backend(context, get_scope(context))
    result = run_question(args.question, context=context, thread_id=args.thread)
    if args.json:
        keys = ("answer", "citations", "markers", "exit_reason", "turns", "trace") if args.mode == "answer" else (
            "reported_ids", "exit_reason", "turns", "trace")
        payload = {k: result.get(k) for k in keys}
        if result.get("error"):
            payload["error"] = result["error"]
        print(json.dumps(payload, ensure_ascii=False, indent=None if os.environ.get("HOPGRAPH_JSON_COMPACT") else 2))
    else:
        print_result(result, args.mode)
    if run_failed(result):
        print(f"error: {result.get('error') or result.get('exit_reason')}", file=sys.stderr)
        return 2
    return 0
