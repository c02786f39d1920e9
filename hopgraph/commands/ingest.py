"""hopgraph ingest PATH...: put files, folders or a BEIR corpus.jsonl into the index."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from hopgraph.commands._common import add_location_options, server_url
from hopgraph.config import DEFAULT_CONTAINER

# Distinct from 2 (nothing done: bad arguments, backend errors), so a script can tell a partial ingest apart.
EXIT_SKIPPED = 3


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "ingest", help="add files or folders to the index",
        description="Ingest .txt .md .html .pdf .docx .csv .xlsx files, folders (recursively) and BEIR "
                    "corpus.jsonl files. A document's id is its path relative to the folder holding what was "
                    "given (a folder keeps its name: 'ingest docs' gives docs/guide.md), or to --root. Unchanged "
                    "files are skipped; changed ones are replaced.",
        epilog=f"exit status: 0 when every file was ingested or unchanged; {EXIT_SKIPPED} when some files were "
               "skipped (unreadable, unsupported type, no text, not a regular file, broken symlink; each listed in "
               "the summary with its reason, the other files are ingested) or refused (their id belongs to a "
               "document ingested from another file: both paths are named; --root or --replace); 2 on an error "
               "that stopped the run.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH")
    add_location_options(parser)
    parser.add_argument("--container", default=DEFAULT_CONTAINER, metavar="NAME",
                        help=f"container the documents go to (default {DEFAULT_CONTAINER})")
    parser.add_argument("--tags", metavar="A,B",
                        help="comma-separated tags for every document; without it, documents keep the tags they "
                             "have (changed in place, not embedded again); --tags '' removes them")
    parser.add_argument("--root", metavar="DIR",
                        help="ids are paths relative to DIR (default: to the folder holding each given path)")
    parser.add_argument("--replace", action="store_true",
                        help="replace documents of other files whose ids these files take (else they are refused)")
    parser.add_argument("--embedder", metavar="SPEC", help="minilm (default), fastembed:<model>, openai:<model>")
    parser.add_argument("--doc-precision", choices=("auto", "int8", "float"),
                        help="how minilm embeds the documents: float, or int8 (faster); default "
                             "HOPGRAPH_DOC_PRECISION, else auto: the index's own; for a new one int8 where the CPU has "
                             "VNNI, AMX or is ARM, float elsewhere. An index "
                             "refuses documents embedded otherwise than those it holds")
    parser.add_argument("--prune", action="store_true",
                        help="also remove documents whose files under the given folders no longer exist")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(func=run)


def backend_from_args(args: argparse.Namespace) -> Any:
    """The backend the --index/--url options (or QDRANT_URL, HOPGRAPH_INDEX) point at."""
    from hopgraph.index.factory import open_backend

    url = server_url(args)
    return open_backend(index_dir=getattr(args, "index", None), url=url,
                        embedder=getattr(args, "embedder", None), doc_precision=getattr(args, "doc_precision", None))


def run(args: argparse.Namespace) -> int:
    from hopgraph.index.ingest import ingest_paths
    from hopgraph.index.sources import check_root

    tags = None if args.tags is None else [t.strip() for t in args.tags.split(",") if t.strip()]
    if not args.container.strip():
        print("error: --container must not be empty", file=sys.stderr)
        return 2
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        print(f"error: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.root is not None:
        check_root(args.root, [Path(p) for p in args.paths])  # before the index is opened (and perhaps created)
    backend = backend_from_args(args)
    report = ingest_paths(backend, args.paths, container=args.container, tags=tags,
                          progress=not args.no_progress and sys.stderr.isatty(), prune=args.prune, root=args.root,
                          replace=args.replace)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        print(report.summary())
    if report.refused:
        n = len(report.refused)
        print(f"error: {n} file{'s' if n != 1 else ''} refused: each would replace a document ingested from another "
              "file (both named above); give --root a folder that tells them apart, or --replace",
              file=sys.stderr)
    return EXIT_SKIPPED if report.incomplete else 0
