"""hopgraph demo: ingest the bundled demo corpus into a kept index, ask its sample questions, say what to try next."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any

from hopgraph.commands._common import add_model_timeout_option
from hopgraph.config import Context, default_index_dir


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "demo", help="run the sample questions over the bundled demo corpus (offline)",
        description="Ingests the demo corpus (containers default, legal, finance) into the index, where it stays "
                    "for further questions; a second run skips the files already there.",
    )
    parser.add_argument("--index", metavar="DIR",
                        help="index directory to keep the demo in (default: HOPGRAPH_INDEX or per-user)")
    parser.add_argument("--model", metavar="SPEC", help="model spec (default: HOPGRAPH_MODEL or builtin)")
    add_model_timeout_option(parser)
    parser.add_argument("--mode", choices=("ids", "answer", "both"), default="both",
                        help="ids: ranked documents; answer: cited answers; both (default): each question both ways")
    parser.add_argument("--json", action="store_true", help="print one JSON object per question")
    parser.set_defaults(func=run)


def next_commands(index: str | None) -> list[str]:
    """Commands to try on the demo index once the demo is over, exactly as a shell takes them."""
    where = ["--index", index] if index else []
    commands = [
        ["hopgraph", "search", "late delivery penalty", "--container", "legal", *where],
        ["hopgraph", "ask", "Which supplier missed the delivery deadline in September, and what penalty did we "
         "agree?", "--container", "default", "--container", "legal", *where],
        ["hopgraph", "ask", "How long is the warranty on the TS-40 sensor?", "--mode", "answer", "--thread", "demo",
         *where],
    ]
    return [shlex.join(c) for c in commands]


def run(args: argparse.Namespace) -> int:
    from hopgraph.api import run as run_question
    from hopgraph.commands.ask import print_result
    from hopgraph.demo import ingest_demo, questions
    from hopgraph.index.factory import close_backend, open_backend

    index_dir = args.index or default_index_dir()

    def container_done(name: str, counts: dict[str, Any]) -> None:
        skipped = f", {len(counts['skipped'])} skipped" if counts["skipped"] else ""
        print(f"  {name:<8} {counts['documents']} documents ingested ({counts['chunks']} chunks), "
              f"{counts['unchanged']} unchanged{skipped}", flush=True)

    if not args.json:
        print(f"demo index: {index_dir}")
    backend = open_backend(index_dir=index_dir)
    try:
        report = ingest_demo(backend, on_container=None if args.json else container_done)
        containers = sorted(report["containers"])
        if not args.json:
            print()
        modes = ("ids", "answer") if args.mode == "both" else (args.mode,)
        for item in questions():
            for mode in modes:
                if item.get("mode", mode) != mode and args.mode == "both":
                    continue
                kwargs: dict[str, Any] = {"backend": backend, "mode": mode,
                                          "containers": item.get("containers") or containers}
                if args.model:
                    kwargs["model"] = args.model
                if args.model_timeout:
                    kwargs["model_timeout_s"] = args.model_timeout
                result = run_question(item["question"], context=Context(**kwargs))
                if args.json:
                    print(json.dumps({"question": item["question"], "mode": mode, **result}, ensure_ascii=False))
                    continue
                print("=" * 78)
                print(f"Q ({mode}): {item['question']}")
                print("-" * 78)
                print_result(result, mode)
                print()
    finally:
        close_backend(index_dir=index_dir)
    if not args.json:
        print(f"The demo corpus stays in {index_dir}. Try next:")
        for command in next_commands(args.index):
            print(f"  {command}")
    sys.stdout.flush()
    return 0
