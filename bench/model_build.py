"""What a turn pays to get its chat model: built anew (as every turn did) against kept per process and setting.

    python bench/model_build.py [--rounds 50]

For each HTTP model family (openai:<model>, sid-1, openai-responses:<model>), the two ways take turns round by
round: ``built`` makes a new model (and with it a new HTTP client, whose TLS setup is most of the cost, and no
open connections to reuse); ``kept`` asks ``make_chat_model`` as a turn does. No request is sent. Prints a
markdown table: median and p95 ms, and the median ratio built / kept.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from _common import machine, pct

from hopgraph.config import Context
from hopgraph.models import make_chat_model, new_api_model, parse_spec

SPECS = ("openai:gpt-4.1-mini", "sid-1", "openai-responses:gpt-4.1-mini")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "bench-key")
    os.environ.setdefault("SID_API_KEY", "bench-key")
    print(f"model per turn: {args.rounds} rounds, built and kept taking turns; {machine()}")
    print("| model | built p50 / p95 ms | kept p50 / p95 ms | built / kept (median) |")
    print("|---|---:|---:|---:|")
    for spec in SPECS:
        context = Context(model=spec)
        kind = parse_spec(spec)
        built, kept = [], []
        make_chat_model(context)  # the first turn builds it either way
        for _ in range(args.rounds):
            t = time.perf_counter()
            model = new_api_model(kind, None, context.model_timeout_s, context.model_max_retries)
            if hasattr(model, "client") and not hasattr(model, "root_client"):
                _ = model.client  # the Responses model makes its HTTP client at its first request
            built.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            make_chat_model(context)
            kept.append((time.perf_counter() - t) * 1000)
        ratio = statistics.median(b / k for b, k in zip(built, kept, strict=True))
        print(f"| {spec} | {statistics.median(built):.2f} / {pct(built, 95):.2f} | "
              f"{statistics.median(kept):.3f} / {pct(kept, 95):.3f} | {ratio:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
