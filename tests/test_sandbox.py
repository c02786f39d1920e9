"""The run_python sandbox: limits, refusals, and that normal calculations still work."""

from __future__ import annotations

import contextlib
import glob
import os
import socket
import tempfile
import threading
from pathlib import Path

import pytest

from hopgraph.config import Context
from hopgraph.index.backend import Scope
from hopgraph.index.memory import MemoryBackend
from hopgraph.sandbox import PLACEHOLDER, SandboxLimits, current_isolation, run_code
from hopgraph.tools.base import Ledger, ToolArgError, ToolEnv
from hopgraph.tools.run_python import RunPythonTool, limits_for

PROJECT_FILE = str(Path(__file__).resolve().parents[1] / "pyproject.toml")
FAST = SandboxLimits(wall_s=3.0, cpu_s=1, memory_mb=128)


def test_normal_calculation_prints_and_shows_last_expression() -> None:
    result = run_code("total = 48200 * 0.015 * 3\nprint(round(total, 2))\ntotal / 3")
    assert result.ok, result.error
    assert result.stdout.splitlines() == ["2169.0", "723.0"]
    assert result.error == ""


def test_standard_library_imports_work() -> None:
    code = "import math, statistics, decimal, fractions, datetime, json, re, itertools, collections\n" \
           "print(statistics.mean([2, 4, 9]), math.isqrt(17), fractions.Fraction(3, 6))"
    result = run_code(code)
    assert result.ok, result.error
    assert result.stdout.strip() == "5 4 1/2"


def test_infinite_loop_is_stopped_by_the_cpu_limit() -> None:
    result = run_code("while True:\n    pass", FAST)
    assert not result.ok
    assert result.limit in ("cpu", "wall")
    assert "time" in result.error and "stopped" in result.error


def test_sleeping_code_is_stopped_by_the_wall_limit() -> None:
    result = run_code("import time\ntime.sleep(60)", SandboxLimits(wall_s=1.0, cpu_s=1))
    assert not result.ok
    assert result.limit == "wall"
    assert "1 s time limit" in result.error
    assert result.elapsed_s < 10


@pytest.mark.parametrize("code", [
    "x = bytearray(10 ** 10)",
    "chunks = []\nwhile True:\n    chunks.append(' ' * 10 ** 7)",
])
def test_memory_bomb_is_refused(code: str) -> None:
    result = run_code(code, FAST)
    assert not result.ok
    assert result.limit == "memory"
    assert "more than 128 MB of memory" in result.error


def test_network_is_refused_even_to_localhost() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            accepted.append(server.accept())

    thread = threading.Thread(target=accept)
    thread.start()
    try:
        result = run_code(f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)")
        thread.join()
    finally:
        server.close()
    assert not result.ok
    assert "network access is not allowed in the sandbox" in result.error
    assert accepted == []
    # bubblewrap is installed where the tests run (.ci/run installs it): the code ran in its sandbox.
    assert result.isolation == current_isolation().name and result.isolation.startswith("bwrap")


def test_http_client_is_refused() -> None:
    result = run_code("import urllib.request\nurllib.request.urlopen('http://127.0.0.1:9/')")
    assert not result.ok
    assert "not allowed in the sandbox" in result.error


@pytest.mark.parametrize("path", [PROJECT_FILE, "/etc/passwd", "../../../../../../etc/passwd"])
def test_reading_files_outside_the_sandbox_is_refused(path: str) -> None:
    result = run_code(f"print(open({path!r}).read())")
    assert not result.ok
    assert "access to files outside the working directory" in result.error
    assert "not allowed in the sandbox" in result.error
    assert "[project]" not in result.stdout and "root:" not in result.stdout


def test_other_ways_to_reach_project_files_are_refused() -> None:
    project_dir = os.path.dirname(PROJECT_FILE)
    for code in (
        f"import os\nprint(os.listdir({project_dir!r}))",
        f"import pathlib\nprint(pathlib.Path({PROJECT_FILE!r}).read_text())",
        f"import os\nos.chdir({project_dir!r})",
        f"import os\nfd = os.open({PROJECT_FILE!r}, os.O_RDONLY)\nprint(os.read(fd, 100))",
        "import os\nos.symlink('/etc/passwd', 'link')\nprint(open('link').read())",
    ):
        result = run_code(code)
        assert not result.ok, code
        assert "not allowed in the sandbox" in result.error, (code, result.error)


@pytest.mark.parametrize("code", [
    "import subprocess\nsubprocess.run(['ls'])",
    "import os\nos.system('ls')",
    "import os\nos.execv('/bin/ls', ['ls'])",
    "import os\nos.fork()",
    "import ctypes",
])
def test_processes_and_native_code_are_refused(code: str) -> None:
    result = run_code(code)
    assert not result.ok
    assert "not allowed in the sandbox" in result.error


def test_files_inside_the_working_directory_work_and_paths_are_hidden() -> None:
    result = run_code(
        "import os\nopen('notes.txt', 'w').write('42')\nprint(open('notes.txt').read())\nprint(os.getcwd())\n"
        "print(os.path.abspath('notes.txt'))\nopen('missing.txt')"
    )
    assert not result.ok
    lines = result.stdout.splitlines()
    assert lines[0] == "42"
    assert lines[1] == PLACEHOLDER
    assert lines[2] == f"{PLACEHOLDER}/notes.txt"
    assert "FileNotFoundError" in result.error
    assert tempfile.gettempdir() not in result.stdout + result.error
    assert "hopgraph-sbx" not in result.stdout + result.error


def test_output_is_capped() -> None:
    result = run_code("while True:\n    print('x' * 1000)", SandboxLimits(wall_s=5.0, cpu_s=3, file_bytes=200_000))
    assert not result.ok
    assert result.limit == "output"
    assert len(result.stdout) <= SandboxLimits().output_chars
    assert "[output truncated]" in result.text()


def test_errors_show_only_the_models_own_lines() -> None:
    result = run_code("def f(x):\n    return 1 / x\nf(0)")
    assert not result.ok
    assert 'File "<code>", line 3' in result.error
    assert "ZeroDivisionError: division by zero" in result.error
    assert "hook" not in result.error and "<string>" not in result.error


def test_syntax_errors_are_reported() -> None:
    result = run_code("print(1 +")
    assert not result.ok
    assert "SyntaxError" in result.error


def test_temporary_directories_are_removed() -> None:
    before = set(glob.glob(os.path.join(tempfile.gettempdir(), "hopgraph-sbx-*")))
    run_code("open('a', 'w').write('b')")
    after = set(glob.glob(os.path.join(tempfile.gettempdir(), "hopgraph-sbx-*")))
    assert after <= before


def test_run_python_tool_renders_output_and_failures() -> None:
    tool = RunPythonTool()
    context = Context(mode="answer")
    ledger = Ledger(doc_to_short={}, shown_this_run=[])
    env = ToolEnv(backend=MemoryBackend(), scope=Scope(("default",)), context=context, short_to_doc={},
                  shown_this_run=frozenset())
    args = tool.check_args({"code": "print(6 * 7)"}, context)
    outcome = tool.run(args, env)
    rendered = tool.render(outcome, ledger, env)
    assert rendered.content == "Output:\n42"
    assert rendered.artifact["tool"] == "run_python" and rendered.artifact["ok"] is True
    assert rendered.artifact["error"] is None

    outcome = tool.run(tool.check_args({"code": "open('/etc/passwd')"}, context), env)
    rendered = tool.render(outcome, ledger, env)
    assert rendered.content.startswith("The code failed:")
    assert "not allowed in the sandbox" in rendered.content
    with pytest.raises(ToolArgError):
        tool.check_args({"code": "  "}, context)


def test_limits_follow_the_tool_timeout() -> None:
    assert limits_for(Context(tool_timeout_s=30)).wall_s == 5.0
    short = limits_for(Context(tool_timeout_s=2.5))
    assert short.wall_s == 1.5 and short.cpu_s == 1


def test_the_number_of_files_written_is_capped() -> None:
    result = run_code("for i in range(1000):\n    open(f'f{i}', 'w').write('x' * 1000)", SandboxLimits(max_files=10))
    assert not result.ok
    assert "writing more than 10 files is not allowed in the sandbox" in result.error
