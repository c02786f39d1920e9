"""hopgraph demo keeps its index, reuses it, reports one labelled line per container and prints commands that work."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from hopgraph.demo import files

CONTAINERS = ("default", "finance", "legal")


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("HOPGRAPH_MODEL", "HOPGRAPH_INDEX", "QDRANT_URL", "POSTGRES_URI", "DATABASE_URI"):
        env.pop(name, None)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["HOPGRAPH_CHECKPOINT_DB"] = str(tmp_path / "threads.sqlite")
    return env


def hopgraph(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hopgraph.cli", *args], env=env, capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def container_lines(stdout: str) -> dict[str, str]:
    lines = {}
    for line in stdout.splitlines():
        words = line.split()
        if words and words[0] in CONTAINERS and "documents ingested" in line:
            lines[words[0]] = line
    return lines


def try_next(stdout: str) -> list[list[str]]:
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith("Try next:"))
    return [shlex.split(line) for line in lines[start + 1:] if line.startswith("  hopgraph ")]


def test_demo_keeps_its_index_in_the_default_place_and_reuses_it(tmp_path: Path) -> None:
    env = _env(tmp_path)
    index = tmp_path / "data" / "hopgraph" / "index"
    per_container = {c: sum(1 for f in files() if f.container == c) for c in CONTAINERS}

    first = hopgraph(env, "demo", "--mode", "ids")
    assert first.returncode == 0, first.stderr
    assert f"demo index: {index}" in first.stdout
    assert (index / "shard").is_dir()  # kept after the demo
    lines = container_lines(first.stdout)
    assert set(lines) == set(CONTAINERS)  # one labelled line per container
    for container, count in per_container.items():
        assert f"{count} documents ingested" in lines[container] and "0 unchanged" in lines[container]
    assert "it/s" not in first.stderr and "\r" not in first.stderr  # no progress bars

    second = hopgraph(env, "demo", "--mode", "ids")
    assert second.returncode == 0, second.stderr
    for container, count in per_container.items():
        line = container_lines(second.stdout)[container]
        assert "0 documents ingested" in line and f"{count} unchanged" in line, line

    commands = try_next(second.stdout)
    assert 2 <= len(commands) <= 3
    assert all(c[0] == "hopgraph" and "--index" not in c for c in commands)  # the default index needs none
    outputs = []
    for command in commands:
        proc = hopgraph(env, *command[1:], cwd=tmp_path)
        assert proc.returncode == 0, (command, proc.stderr)
        outputs.append(proc.stdout)
    search, ask, answer = outputs
    assert "nordlicht-supply-agreement.pdf" in search
    assert "INC-2026-031-late-housing-delivery.pdf" in ask and "nordlicht-supply-agreement.pdf" in ask
    assert "TS-40" in answer and "[1]" in answer  # a cited answer


def test_demo_in_a_chosen_index_prints_commands_for_it(tmp_path: Path) -> None:
    env = _env(tmp_path)
    index = tmp_path / "my demo"
    proc = hopgraph(env, "demo", "--mode", "ids", "--index", str(index))
    assert proc.returncode == 0, proc.stderr
    assert (index / "shard").is_dir()
    assert not (tmp_path / "data" / "hopgraph" / "index").exists()
    commands = try_next(proc.stdout)
    assert all(c[-2:] == ["--index", str(index)] for c in commands)
    search = hopgraph(env, *commands[0][1:])
    assert search.returncode == 0 and "nordlicht-supply-agreement.pdf" in search.stdout, search.stderr
