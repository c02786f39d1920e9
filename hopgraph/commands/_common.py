"""Options shared by several subcommands."""

from __future__ import annotations

import argparse
import os
from typing import Any

from hopgraph.config import DEFAULT_CONTAINER


def add_location_options(parser: argparse.ArgumentParser) -> None:
    """--index or --url: where the index is."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--index", metavar="DIR", help="embedded index directory (default: HOPGRAPH_INDEX or per-user)")
    where.add_argument("--url", metavar="URL", help="Qdrant server or cluster URL (default: QDRANT_URL)")


def server_url(args: argparse.Namespace) -> str | None:
    """The Qdrant URL to use: --url, else QDRANT_URL unless --index names an embedded index."""
    url = getattr(args, "url", None) or (None if getattr(args, "index", None) else os.environ.get("QDRANT_URL"))
    return url or None


def add_index_options(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser)
    parser.add_argument(
        "--container", action="append", metavar="NAME",
        help=f"container the caller may see (repeatable; default {DEFAULT_CONTAINER})",
    )
    parser.add_argument("--tag", action="append", default=[], metavar="TAG", help="only documents with this tag")


def scope_settings(args: argparse.Namespace) -> dict[str, Any]:
    """Context settings from the options of add_index_options and --model/--base-url: where, what, which model."""
    settings: dict[str, Any] = {"containers": args.container or [DEFAULT_CONTAINER], "tags": list(args.tag or [])}
    if args.model:
        settings["model"] = args.model
    if args.base_url:
        settings["base_url"] = args.base_url
    if args.index:
        # An explicit index wins over a QDRANT_URL in the environment.
        settings["index"] = args.index
        settings["qdrant_url"] = None
    elif args.url:
        settings["qdrant_url"] = args.url
    return settings


def positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return seconds


def positive_int(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return number


def add_embedder_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--embedder", metavar="SPEC",
                        help="the embedder the index was built with (default HOPGRAPH_EMBEDDER, else the one an "
                             "embedded index records, else minilm)")


def add_model_timeout_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model-timeout", type=positive_seconds, metavar="SECONDS",
        help="the longest one model call may take, all retries included (default: HOPGRAPH_MODEL_TIMEOUT or 240)",
    )
