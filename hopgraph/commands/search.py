"""hopgraph search "query": one retrieval, no loop. Shows ranked documents and scores."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hopgraph.commands._common import add_embedder_option, add_location_options, positive_int, server_url
from hopgraph.config import DEFAULT_CONTAINER
from hopgraph.index.fusion import FUSIONS


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("search", help="search the index once (no agent loop)")
    parser.add_argument("query", help="what to look for")
    parser.add_argument("--mode", choices=("hybrid", "text", "dense"), default="hybrid",
                        help="hybrid (dense + BM25, default), text (BM25; \"phrase\" and -term work) or dense")
    parser.add_argument("--fusion", choices=FUSIONS,
                        help="how --mode hybrid merges its dense and BM25 lists: dbsf (distribution-based score "
                             "fusion) or rrf (reciprocal rank fusion); default HOPGRAPH_FUSION, else dbsf")
    parser.add_argument("--limit", type=positive_int, default=10, metavar="N",
                        help="how many documents to show, best first (default 10)")
    add_location_options(parser)
    parser.add_argument("--container", action="append", metavar="NAME",
                        help=f"container to search (repeatable; default {DEFAULT_CONTAINER})")
    parser.add_argument("--tag", action="append", default=[], metavar="TAG", help="only documents with this tag")
    add_embedder_option(parser)
    parser.add_argument("--json", action="store_true", help="print only a JSON list of hits")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hopgraph.index.backend import Scope, ScopeError
    from hopgraph.index.factory import open_for_reading
    from hopgraph.state import check_question

    # The same rule as ask: an empty query is refused, not answered with "no results".
    check_question(args.query, "query")
    try:
        scope = Scope(tuple(args.container or [DEFAULT_CONTAINER]), tuple(args.tag))
    except ScopeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    url = server_url(args)
    # Reading: a missing index, or containers with nothing in them, is an error that says what to do.
    backend = open_for_reading(scope, index_dir=args.index, url=url, embedder=args.embedder)
    # Chunk hits collapse to documents: a document ranks where its best chunk does.
    if args.mode == "hybrid":
        hits = backend.search(args.query, scope, args.limit * 3, fusion=args.fusion)
    else:
        one_list = {"text": backend.text_search, "dense": backend.dense_search}[args.mode]
        hits = one_list(args.query, scope, args.limit * 3)
    seen: set[tuple[str, str]] = set()
    rows = []
    for h in hits:
        key = (h.chunk.container, h.doc_id)
        if key in seen:
            continue
        seen.add(key)
        rows.append({"doc_id": h.doc_id, "title": h.chunk.title, "score": round(h.score, 6),
                     "page": h.chunk.page, "container": h.chunk.container})
        if len(rows) == args.limit:
            break
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    if not rows:
        print("(no results)")
        return 0
    for rank, r in enumerate(rows, start=1):
        page = f"  p.{r['page']}" if r["page"] is not None else ""
        print(f"{rank:>3}. {r['score']:.4f}  {r['doc_id']}  {r['title']}{page}")
    return 0
