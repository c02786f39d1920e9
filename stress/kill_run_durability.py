"""kill -9 during a run, many times: is the thread's newest SQLite checkpoint resumable?

Each trial starts a subprocess whose graph run hangs in the model call of turn 2, SIGKILLs it
as soon as it gets there, then loads the thread in this process and records the newest
checkpoint's step and next node. A resumable checkpoint has a next node; one with none
looks finished although the run never ended (``invoke(None)`` then does nothing).

    PYTHONPATH=. /work/venv/bin/python stress/kill_run_durability.py --trials 20

Modes: ``api`` (hopgraph.api.run with a thread, as ``hopgraph ask --thread``), ``sync`` and
``async`` (a bare ``graph.invoke`` with that LangGraph durability; ``async`` is LangGraph's default).
"""

from __future__ import annotations

import argparse
import collections
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent("""
    import sys, time
    from langchain_core.messages import AIMessage
    from hopgraph import api
    from hopgraph.checkpoint import open_checkpointer
    from hopgraph.config import Context
    from hopgraph.graph import build_graph
    from hopgraph.index.memory import MemoryBackend
    from tests.scripted import ScriptedChatModel, call, calls

    db, mode = sys.argv[1], sys.argv[2]
    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts.")

    def hang(messages):
        print("SLEEPING", flush=True)
        time.sleep(600)
        return AIMessage(content="never")

    model = ScriptedChatModel(replies=[calls(call("search", {"query": "steel bolts"})), hang])
    context = Context(chat_model=model, backend=backend)
    with open_checkpointer(path=db) as saver:
        if mode == "api":
            api.run("Who supplies steel bolts?", context=context, thread_id="t1", checkpointer=saver)
        else:
            build_graph(checkpointer=saver).invoke({"question": "Who supplies steel bolts?"},
                                                   config={"configurable": {"thread_id": "t1"}},
                                                   context=context, durability=mode)
""")


def trial(mode: str, workdir: Path, n: int) -> tuple[int | None, tuple[str, ...]]:
    from hopgraph.checkpoint import open_checkpointer
    from hopgraph.graph import build_graph

    db = workdir / f"{mode}-{n}.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(db), mode], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if "SLEEPING" in line:
            break
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    with open_checkpointer(path=str(db)) as saver:
        snapshot = build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": "t1"}})
    step = (snapshot.metadata or {}).get("step")
    return step, tuple(snapshot.next)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--modes", default="api,sync,async")
    args = parser.parse_args(argv)
    print("| mode | trials | resumable (next = generate) | lagging but resumable | looks finished (next empty) |")
    print("|---|---|---|---|---|")
    bad = 0
    with tempfile.TemporaryDirectory(prefix="hopgraph-kill-") as tmp:
        for mode in args.modes.split(","):
            tally: collections.Counter[str] = collections.Counter()
            for n in range(args.trials):
                step, nxt = trial(mode, Path(tmp), n)
                if nxt == ("generate",) and step == 5:
                    tally["exact"] += 1
                elif nxt:
                    tally["lag"] += 1
                else:
                    tally["finished"] += 1
            bad += tally["finished"] if mode != "async" else 0
            print(f"| {mode} | {args.trials} | {tally['exact']} | {tally['lag']} | {tally['finished']} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
