"""What one run_python call costs: the bubblewrap sandbox against the audit hook alone, side by side.

Each call starts a fresh child. ``hook only`` is a plain child process with the audit hook (and, where the kernel
lets it, new user and network namespaces made from inside); ``bubblewrap`` adds the private root holding only the
Python runtime, the pid/ipc/uts/network namespaces, the uid change and the seccomp filter. The two take turns
call by call (alternating order), on two programs: an arithmetic line, and one that imports a few standard
library modules. Also timed once: what the first call of a process pays to choose its isolation (listing the
runtime's libraries with ldd, compiling the seccomp filter, one probe run).

    PYTHONPATH=. python bench/sandbox_startup.py [--calls 40]

Prints the machine, then a table per program: ms p50 / p95 per call and the median ratio to the hook alone.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from hopgraph.sandbox import current_isolation, hook_only, run_code
from hopgraph.sandbox.isolation import candidates

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, print_ways, taking_turns  # noqa: E402

PROGRAMS = {
    "arithmetic": "print(48200 * 0.015 * 3)",
    "stdlib imports": "import statistics, decimal, fractions, datetime, json, re\n"
                      "print(statistics.mean([2, 4, 9]), decimal.Decimal('1.1') * 3)",
}


def _ignoring_round(run: Callable[[object], None], isolation: object, _round: int) -> None:
    run(isolation)

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=40)
    args = parser.parse_args()
    print(machine())

    started = time.perf_counter()
    found, _ = candidates()
    listed = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    sandbox = current_isolation()
    chosen = (time.perf_counter() - started) * 1000
    print(f"isolation: {sandbox.summary}")
    print(f"first call of a process: {listed:.0f} ms to list the runtime and compile the filter, "
          f"{chosen:.0f} ms to choose (the same again, plus one probe run)\n")
    if not sandbox.isolated or not found:
        raise SystemExit("bubblewrap does not work here: nothing to compare")
    hook = hook_only("measured on its own")
    for title, code in PROGRAMS.items():
        def checked(isolation: object, code: str = code) -> None:
            result = run_code(code, isolation=isolation)  # type: ignore[arg-type]
            if not result.ok:
                raise SystemExit(f"the program failed: {result.error}")

        wall = taking_turns([("hook only", partial(_ignoring_round, checked, hook)),
                             ("bubblewrap", partial(_ignoring_round, checked, sandbox))], args.calls, 1)
        print(f"{title} ({args.calls} calls each):\n")
        print_ways(wall, "hook only", "hook only")
        print()


if __name__ == "__main__":
    main()
