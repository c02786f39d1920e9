"""Where run_python is offered, and that each process says once how its code is isolated.

The served graph offers run_python only where the sandbox isolates the code (bubblewrap works), or where the
operator opts in with HOPGRAPH_UNISOLATED_RUN_PYTHON=1. A machine without bubblewrap is made by leaving it off
PATH in a child process; the Python API and the CLI keep the tool and warn once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.api import run as api_run
from hopgraph.config import Context
from hopgraph.demo import questions
from hopgraph.prompts import system_prompt
from hopgraph.tools import tools_for_mode
from tests.test_answer_harness import demo_backend

ROOT = Path(__file__).resolve().parents[1]

# Prints what the served settings give an answer run, then runs code twice; stderr carries the log.
PROBE = """
import logging, sys
from hopgraph.errors import AccessError
from hopgraph.sandbox import run_code
from hopgraph.serving.settings import served_context
if sys.argv[1] == "info":
    logging.basicConfig(level=logging.INFO, format="%(name)s %(levelname)s %(message)s")
try:
    print("offered", served_context({"mode": "answer"}, None).run_python)
except AccessError as exc:
    print("refused", exc)
print("ids", served_context({"mode": "ids"}, None).run_python)
for _ in range(2):
    result = run_code("print(6 * 7)")
    print("ran", result.ok, result.stdout.strip(), result.isolation)
"""


def _probe(tmp_path: Path, *, bwrap: bool, log: str = "default", **env: str) -> tuple[str, str]:
    path = os.environ.get("PATH", "/usr/bin:/bin")
    if not bwrap:
        # A PATH with ldd but no bwrap: what a machine without bubblewrap looks like to hopgraph.
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir(exist_ok=True)
        ldd = shutil.which("ldd")
        assert ldd is not None
        if not (bin_dir / "ldd").exists():
            (bin_dir / "ldd").symlink_to(ldd)
        path = str(bin_dir)
    drop = ("HOPGRAPH_AUTH_FILE", "HOPGRAPH_JWT_SECRET", "HOPGRAPH_JWT_PUBLIC_KEY", "HOPGRAPH_UNISOLATED_RUN_PYTHON")
    child_env = {k: v for k, v in os.environ.items() if k not in drop}
    child_env.update(PATH=path, **env)
    proc = subprocess.run([sys.executable, "-c", PROBE, log], cwd=ROOT, env=child_env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout, proc.stderr


def test_served_answer_runs_get_run_python_where_the_sandbox_isolates(tmp_path: Path) -> None:
    out, err = _probe(tmp_path, bwrap=True, log="info")
    assert "offered True" in out and "ids True" in out
    assert out.count("ran True 42 bwrap") == 2
    said = [line for line in err.splitlines() if "run_python sandbox:" in line]
    assert len(said) == 1 and "INFO" in said[0] and "bubblewrap" in said[0] and "uid 65534" in said[0], err


def test_without_isolation_served_runs_lose_run_python_and_the_api_warns_once(tmp_path: Path) -> None:
    out, err = _probe(tmp_path, bwrap=False)
    assert "offered False" in out
    # The Python API still runs code, behind the audit hook, and says so once on stderr.
    assert out.count("ran True 42") == 2 and "bwrap" not in out
    said = [line for line in err.splitlines() if "run_python sandbox:" in line]
    assert said == ["run_python sandbox: audit hook only, no isolation (bubblewrap (bwrap) is not installed)"], err


def test_the_operator_may_opt_in_to_the_hook_alone(tmp_path: Path) -> None:
    out, _ = _probe(tmp_path, bwrap=False, HOPGRAPH_UNISOLATED_RUN_PYTHON="1")
    assert "offered True" in out
    out, _ = _probe(tmp_path, bwrap=False, HOPGRAPH_UNISOLATED_RUN_PYTHON="perhaps")
    assert "refused the server's HOPGRAPH_UNISOLATED_RUN_PYTHON must be 1 or 0, not 'perhaps'" in out


def test_the_cli_says_once_which_isolation_it_uses(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("HOPGRAPH_MODEL", "HOPGRAPH_INDEX", "QDRANT_URL")}
    proc = subprocess.run([sys.executable, "-m", "hopgraph.cli", "-v", "demo", "--mode", "answer", "--index",
                           str(tmp_path / "index")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.count("Calculated with run_python") >= 1  # the demo's answers run code
    said = [line for line in proc.stderr.splitlines() if "run_python sandbox:" in line]
    assert len(said) == 1 and "bubblewrap" in said[0], proc.stderr[-3000:]


def test_tools_and_prompt_without_run_python() -> None:
    offered = [t.name for t in tools_for_mode("answer")]
    withheld = tools_for_mode("answer", run_python=False)
    assert offered == ["rewrite_query", "search_documents", "run_python"]
    assert [t.name for t in withheld] == ["rewrite_query", "search_documents"]
    assert tools_for_mode("ids", run_python=False) == tools_for_mode("ids")
    assert "run_python" in system_prompt("answer", "docs", tools_for_mode("answer"), True, 5)
    assert "run_python" not in system_prompt("answer", "docs", withheld, True, 5)


@pytest.mark.parametrize("offered", [True, False])
def test_a_run_without_run_python_answers_without_the_calculation(offered: bool) -> None:
    q = next(q for q in questions() if q["id"] == "late-order-penalty-amount")
    context = Context(mode="answer", backend=demo_backend(), model="builtin", containers=q["containers"],
                      run_python=offered)
    result = api_run(q["question"], context=context, checkpointer=InMemorySaver())
    assert result["exit_reason"] == "answered" and "PO-4471" in result["answer"]
    python_calls = [c for turn in result["trace"] for c in turn["tool_calls"] if c["name"] == "run_python"]
    assert len(python_calls) == (1 if offered else 0)
    if offered:
        assert python_calls[0]["error"] is None and "2,169 EUR" in result["answer"]
    else:
        # The built-in policy knows the run does not offer the tool: it gives the inputs and says it did not compute.
        assert "Calculated" not in result["answer"] and "2,169" not in result["answer"]
        assert "Not calculated: run_python is not available here" in result["answer"]
        assert "48,200" in result["answer"] and "1.5 percent" in result["answer"]
