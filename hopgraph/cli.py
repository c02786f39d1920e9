"""The ``hopgraph`` command. Subcommands live in hopgraph.commands, one module each."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from hopgraph import __version__
from hopgraph.errors import HopgraphError

SUBCOMMANDS = ("ask", "ingest", "search", "list", "delete", "demo", "eval", "threads", "mcp")
VERBOSE_HELP = "log what the loop does to stderr"
# What a shell reports for a program ended by a closed pipe (128 + SIGPIPE), as `yes | head` does.
EXIT_BROKEN_PIPE = 141


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hopgraph", description="Agentic multi-hop retrieval over Qdrant.")
    parser.add_argument("-v", "--verbose", action="store_true", help=VERBOSE_HELP)
    parser.add_argument("--version", action="version", version=f"hopgraph {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"hopgraph.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"hopgraph.commands.{name}":
                raise
            continue
        module.add_parser(sub)
    _verbose_everywhere(sub)
    return parser


def _verbose_everywhere(sub: argparse._SubParsersAction) -> None:
    """-v also after the subcommand (``hopgraph ask -v ...``); SUPPRESS keeps a -v given before it."""
    for parser in sub.choices.values():
        parser.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help=VERBOSE_HELP)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                _verbose_everywhere(action)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        code = int(args.func(args) or 0)
        # Written out here, so that a reader gone away (`| head`) is seen while it can still be handled.
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # Whatever is still buffered for the closed pipe goes nowhere, quietly, at exit too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
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
