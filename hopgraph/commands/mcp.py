"""hopgraph mcp: serve the index to MCP clients (stdio by default, streamable HTTP on 127.0.0.1 with --http)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hopgraph.commands._common import add_index_options, add_model_timeout_option, scope_settings
from hopgraph.config import Context


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "mcp",
        help="serve search, ask and read to MCP clients (needs the mcp extra)",
        description="Serve the index to MCP clients. What they may search (index, containers, tags) and the "
        "model are set here; clients cannot change them.",
    )
    add_index_options(parser)
    parser.add_argument("--model", metavar="SPEC", help="builtin, sid-1, openai:<model>, openai-responses:<model>")
    parser.add_argument("--base-url", metavar="URL", help="model endpoint override")
    add_model_timeout_option(parser)
    parser.add_argument(
        "--http",
        type=int,
        metavar="PORT",
        help="serve streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio",
    )
    parser.set_defaults(func=run)


def context_from_args(args: argparse.Namespace) -> Context:
    settings = scope_settings(args)
    if args.model_timeout:
        settings["model_timeout_s"] = args.model_timeout
    return Context(**settings)


def run(args: argparse.Namespace) -> int:
    if args.http is not None and not 0 < args.http < 65536:
        print("error: --http PORT must be from 1 to 65535", file=sys.stderr)
        return 2
    try:
        from hopgraph.integrations.mcp_server import build_server
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "mcp":
            print('error: hopgraph mcp needs the MCP SDK: pip install "hopgraph[mcp]"', file=sys.stderr)
            return 2
        raise
    from hopgraph.index.backend import Scope
    from hopgraph.integrations.runs import require_index
    from hopgraph.models import parse_spec
    from hopgraph.runtime import get_backend

    context = context_from_args(args)
    # Settings errors end here, before a client connects, not on its first call.
    Scope(tuple(context.containers), tuple(context.tags))
    parse_spec(context.model)
    require_index(context)
    if not context.qdrant_url:
        # The embedded index is opened (and locked) now; a Qdrant server is reached on each call instead, so a
        # server that is down reports itself in the tool's error and the MCP server stays up.
        get_backend(context)
    server = build_server(context)
    if args.http is None:
        server.run("stdio")
    else:
        print(f"hopgraph mcp: streamable HTTP on http://127.0.0.1:{args.http}/mcp", file=sys.stderr, flush=True)
        server.run("streamable-http", host="127.0.0.1", port=args.http)
    return 0
