"""Ways out of the run_python sandbox (tests/support/escapes.py), each tried against each layer.

``sandbox``: what run_python uses on this machine (bubblewrap, with the audit hook inside). ``hook only``: the
audit hook alone, as where no sandbox works and the operator opted in. ``kernel only``: the bubblewrap sandbox
with its seccomp filter and uid but without the hook. For every technique and layer, the program that reads must
not bring back the canary's secret, the program that writes must change nothing outside (the canaries' folder,
the standard library, the listeners), and ordinary arithmetic still runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hopgraph.sandbox import SandboxLimits, current_isolation, hook_only, run_code
from hopgraph.sandbox.isolation import SANDBOX_UID, bwrap_argv
from tests.support.escapes import SECRET_ENV, TECHNIQUES, Canaries

LIMITS = SandboxLimits(wall_s=8.0, cpu_s=4)
LAYERS = ("sandbox", "hook only", "kernel only")
ISSUE_REPRODUCTION = '''import os; root = os.getcwd()
class S(str):
    def startswith(self, *a, **k): return True
    def split(self, *a, **k): return (root + "/x").split("/")
print(open(S("/some/file/outside")).read())
'''


@pytest.fixture(scope="module")
def canaries(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Canaries]:
    found = Canaries(tmp_path_factory.mktemp("escape-canaries"))
    previous = os.environ.get(SECRET_ENV)
    os.environ[SECRET_ENV] = found.secret  # the parent's environment holds it too
    try:
        yield found
    finally:
        found.close()
        if previous is None:
            os.environ.pop(SECRET_ENV, None)
        else:
            os.environ[SECRET_ENV] = previous


def test_the_sandbox_layer_is_bubblewrap_here() -> None:
    # .ci/run installs bubblewrap: the "sandbox" layer below is the real boundary, not the hook again.
    isolation = current_isolation()
    assert isolation.isolated, isolation.summary
    assert isolation.name.startswith("bwrap") and "seccomp" in isolation.name, isolation.summary


@pytest.mark.parametrize("layer", LAYERS)
@pytest.mark.parametrize("name", list(TECHNIQUES))
def test_escape_is_held(name: str, layer: str, canaries: Canaries) -> None:
    read, write = TECHNIQUES[name]
    before = canaries.snapshot()
    target = canaries.target_for(name)
    try:
        for program in (read, write):
            _, seen = _run(layer, canaries.fill(program, name))
            assert canaries.secret not in seen, f"{name}: the secret came back:\n{seen[:2000]}"
        assert not target.exists(), f"{name}: wrote {target}"
        assert canaries.snapshot() == before, f"{name}: something outside changed"
        assert canaries.stdlib_leftovers() == [], f"{name}: wrote into the standard library"
        assert canaries.received == [], f"{name}: a listener was reached: {canaries.received}"
    finally:
        _clean(canaries, target)
    ok, output = _run(layer, "print(sum(i * i for i in range(10)))")
    assert ok and output == "285\n", output


def _run(layer: str, code: str) -> tuple[bool, str]:
    """Run ``code`` behind one layer: whether it exited 0, and what it printed (stdout, then stderr)."""
    if layer != "kernel only":
        result = run_code(code, LIMITS, isolation=hook_only("measured on its own") if layer == "hook only" else None)
        return result.ok, result.stdout + result.error
    isolation = current_isolation()
    assert isolation.isolated and isolation.seccomp is not None, isolation.summary
    drop = f"import os\nos.setgroups([]); os.setresgid(*[{SANDBOX_UID}] * 3); os.setresuid(*[{SANDBOX_UID}] * 3)\n"
    reader, writer = os.pipe()
    with os.fdopen(writer, "wb") as fh:
        fh.write(isolation.seccomp)
    try:
        argv = bwrap_argv(isolation, "/tmp/hopgraph-kernel-only/work", 1 << 24, reader, {"LANG": "C.UTF-8"})
        code = (drop if isolation.drops_uid else "") + code
        proc = subprocess.run([*argv, "-I", "-S", "-B", "-c", code], capture_output=True, timeout=60,
                              stdin=subprocess.DEVNULL, pass_fds=(reader,), start_new_session=True)
    finally:
        os.close(reader)
    time.sleep(0.05)  # the listeners record what they received in their own threads
    return proc.returncode == 0, proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")


def _clean(canaries: Canaries, target: Path) -> None:
    # Only ever needed when a technique got through: leave nothing behind in the standard library.
    for leftover in canaries.stdlib_leftovers():
        path = os.path.join(canaries.stdlib, leftover)
        if os.path.isdir(path):
            os.rmdir(path)
        else:
            os.remove(path)
    if target.exists() or target.is_symlink():
        target.unlink()
    canaries.received.clear()


@pytest.mark.parametrize("layer", ["sandbox", "hook only"])
def test_the_reported_reproduction_verbatim_is_refused(layer: str) -> None:
    result = run_code(ISSUE_REPRODUCTION, isolation=hook_only("measured on its own") if layer == "hook only" else None)
    assert not result.ok
    assert "PermissionError: file paths must be plain strings in the sandbox" in result.error, result.error


@pytest.mark.parametrize("name", list(TECHNIQUES))
def test_each_technique_works_where_nothing_stops_it(name: str, tmp_path: Path) -> None:
    """The corpus is real: run as plain Python, each read brings the secret back and each write changes
    something outside. (So the held escapes above are held by the sandbox, not by a broken program.)"""
    (tmp_path / "canaries").mkdir()
    found = Canaries(tmp_path / "canaries")
    try:
        before = found.snapshot()
        work = tmp_path / "work"
        work.mkdir()
        read, write = TECHNIQUES[name]
        got = _plain(found.fill(read, name), work, found)
        reached = list(found.received)
        assert found.secret in got or reached, f"{name}: the read attempt does not work unsandboxed:\n{got[-3000:]}"
        found.received.clear()
        wrote = _plain(found.fill(write, name), work, found)
        changed = (found.target_for(name).exists() or found.snapshot() != before or found.stdlib_leftovers()
                   or any(b"pwned" in r for r in found.received))
        assert changed, f"{name}: the write attempt does not work unsandboxed:\n{wrote[-3000:]}"
    finally:
        _clean(found, found.target_for(name))
        found.close()


def _plain(code: str, work: Path, found: Canaries) -> str:
    env = {"PATH": "/usr/bin:/bin", SECRET_ENV: found.secret}
    proc = subprocess.run([sys.executable, "-I", "-c", code], cwd=work, env=env, capture_output=True, timeout=60,
                          stdin=subprocess.DEVNULL,
                          pass_fds=(found.open_fd,))
    time.sleep(0.05)  # the listeners record what they received in their own threads
    return proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")


def test_the_corpus_is_broad() -> None:
    # Distinct techniques; every one of them reads and writes.
    assert len(TECHNIQUES) >= 40
    for read, write in TECHNIQUES.values():
        assert read.strip() and write.strip() and read != write
