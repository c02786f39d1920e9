"""hopgraph list: what the index holds. Containers with their document counts, or (with --container) the
documents of a container, each with the source it was ingested from."""

from __future__ import annotations

import argparse
import json
from typing import Any

from hopgraph.commands._common import add_embedder_option, add_location_options, server_url


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("list", help="list the containers, or a container's documents")
    parser.add_argument("--container", action="append", metavar="NAME",
                        help="list this container's documents (repeatable; default: list the containers)")
    add_location_options(parser)
    add_embedder_option(parser)
    parser.add_argument("--json", action="store_true", help="print only JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hopgraph.index.backend import Scope
    from hopgraph.index.factory import check_scope, ingest_hint, open_for_reading

    url = server_url(args)
    # Reading only: a missing index is an error that says how to fill one, never created here.
    backend = open_for_reading(index_dir=args.index, url=url, embedder=args.embedder)
    held = backend.container_documents()
    if not args.container:
        if args.json:
            print(json.dumps({"containers": dict(sorted(held.items()))}, ensure_ascii=False))
        elif not held:
            print(f"the index holds no documents; fill it with: {ingest_hint(args.index, url)}")
        else:
            width = max(len("container"), *(len(c) for c in held))
            print(f"{'container':<{width}}  documents")
            for name in sorted(held):
                print(f"{name:<{width}}  {held[name]}")
        return 0
    # The same check as a search: a container with nothing in it is named, with the ones that hold documents.
    check_scope(backend, Scope(tuple(args.container)), location=(args.index, url))
    rows = [
        {"container": name, "doc_id": doc_id, "source": source}
        for name in dict.fromkeys(args.container)
        for doc_id, source in sorted(backend.document_sources(name).items())
    ]
    if args.json:
        print(json.dumps({"documents": rows}, ensure_ascii=False))
        return 0
    for row in rows:
        source = f"  {row['source']}" if row["source"] else ""
        print(f"{row['container']}  {row['doc_id']}{source}")
    return 0
