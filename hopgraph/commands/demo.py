"""hopgraph demo: ingest the bundled demo corpus into a temporary index and ask its sample questions."""

from __future__ import annotations

import argparse
import json
import tempfile
from typing import Any

from hopgraph.commands._common import add_model_timeout_option
from hopgraph.config import Context


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("demo", help="run the sample questions over the bundled demo corpus (offline)")
    parser.add_argument("--model", metavar="SPEC", help="model spec (default: HOPGRAPH_MODEL or builtin)")
    add_model_timeout_option(parser)
    parser.add_argument("--mode", choices=("ids", "answer", "both"), default="both")
    parser.add_argument("--json", action="store_true", help="print one JSON object per question")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hopgraph.api import run as run_question
    from hopgraph.commands.ask import print_result
    from hopgraph.demo import ingest_demo, questions
    from hopgraph.index.factory import close_backend, open_backend

    with tempfile.TemporaryDirectory(prefix="hopgraph-demo-") as index_dir:
        backend = open_backend(index_dir=index_dir)
        try:
            report = ingest_demo(backend, progress=not args.json)
            containers = sorted(report["containers"])
            if not args.json:
                print(f"demo index: {report['documents']} documents, {report['chunks']} chunks in "
                      f"containers {', '.join(containers)}\n")
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
    return 0
