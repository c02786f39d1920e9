"""The ``hopgraph`` command. Subcommands live in hopgraph.commands, one module each."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from hopgraph import __version__
from hopgraph.errors import HopgraphError

SUBCOMMANDS = ("ask", "ingest", "search", "list", "delete", "demo", "eval", "threads", "mcp")
VERBOSE_HELP = "log what the loop does to stderr"
# What a shell reports for a program ended by a closed pipe (128 + SIGPIPE), as `yes | head` does.
EXIT_BROKEN_PIPE = 141
EXIT_INTERRUPTED = 130
# After Ctrl-C, how long `ask` may take to wind down before it exits anyway: a model call waiting in a worker
# thread would otherwise hold the process until its own timeout.
INTERRUPT_GRACE_S = 1.5


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
        with _exit_soon_after_interrupt(args.command == "ask"):
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
        _said_interrupted.set()
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:
        from hopgraph.index.backend import BackendError

        if isinstance(exc, BackendError | OSError | ValueError) and not os.environ.get("HOPGRAPH_DEBUG"):
            print(f"error: {exc}", file=sys.stderr)
            return 2
        raise


_said_interrupted = threading.Event()


@contextmanager
def _exit_soon_after_interrupt(enabled: bool) -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt as usual and also starts a timer that ends the process
    ``INTERRUPT_GRACE_S`` later if it is still running (in the main thread only, where signals are handled)."""
    if not enabled or threading.current_thread() is not threading.main_thread():
        yield
        return

    def exit_now() -> None:
        if not _said_interrupted.is_set():
            print("interrupted", file=sys.stderr)
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)

    def on_interrupt(signum: int, frame: object) -> None:
        timer = threading.Timer(INTERRUPT_GRACE_S, exit_now)
        timer.daemon = True
        timer.start()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


if __name__ == "__main__":
    sys.exit(main())
