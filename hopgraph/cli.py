"""The ``hopgraph`` command. Subcommands live in hopgraph.commands, one module each."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from hopgraph.errors import HopgraphError

SUBCOMMANDS = ("ask", "ingest", "search", "list", "delete", "demo", "eval", "threads", "mcp")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hopgraph", description="Agentic multi-hop retrieval over Qdrant.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the loop does to stderr")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"hopgraph.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"hopgraph.commands.{name}":
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(args.func(args) or 0)
    except HopgraphError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        from hopgraph.index.backend import BackendError

        if isinstance(exc, BackendError | OSError | ValueError) and not os.environ.get("HOPGRAPH_DEBUG"):
            print(f"error: {exc}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
