"""hopgraph delete --doc ID: remove a document (every chunk) from the index."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hopgraph.commands._common import add_embedder_option, add_location_options


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("delete", help="remove a document from the index")
    parser.add_argument("--doc", required=True, metavar="ID", help="document id (as shown by search)")
    parser.add_argument("--container", metavar="NAME", help="only in this container (default: every container)")
    add_location_options(parser)
    add_embedder_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hopgraph.commands.ingest import backend_from_args

    backend = backend_from_args(args)
    n = backend.delete_document(args.doc, args.container)
    where = f" in container {args.container}" if args.container else ""
    if n == 0:
        print(f"error: no document {args.doc!r}{where}", file=sys.stderr)
        return 2
    flush = getattr(backend, "flush", None)
    if callable(flush):
        flush()
    print(f"deleted {args.doc}{where} ({n} chunks)")
    return 0
