"""Reading never creates an index: a missing index, an empty one or an empty container is an error that says so."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hopgraph import Context, run
from hopgraph.index.factory import close_backend, open_backend
from hopgraph.index.memory import MemoryBackend
from tests.support.index import make_container_index

DOCS = {
    "default": {"bolts": ("Bolt supplier", "Acme Corp supplies the steel bolts; a late delivery costs 2 percent.")},
    "legal": {
        "contract": ("Supply contract", "The supply contract with Acme sets a penalty for late delivery."),
        "nda": ("NDA", "The non-disclosure agreement with Globex runs for three years."),
    },
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> str:
    return make_container_index(str(tmp_path_factory.mktemp("reading") / "index"), DOCS)


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("HOPGRAPH_MODEL", "QDRANT_URL", "POSTGRES_URI", "DATABASE_URI", "HOPGRAPH_INDEX"):
        env.pop(name, None)
    env["HOPGRAPH_CHECKPOINT_DB"] = str(tmp_path / "threads.sqlite")
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # the default index location, never touched here
    return env


def hopgraph(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hopgraph.cli", *args], env=_env(tmp_path), capture_output=True,
                          text=True, timeout=300)


def _error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]


@pytest.mark.parametrize("command", ["ask", "search"])
def test_missing_index_is_an_error_naming_path_and_command(tmp_path: Path, command: str) -> None:
    missing = tmp_path / "nowhere" / "index"
    proc = hopgraph(tmp_path, command, "late delivery penalty", "--index", str(missing))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"no index at {missing}" in proc.stderr
    assert f"hopgraph ingest FILES_OR_FOLDERS --index {missing}" in proc.stderr
    assert not missing.exists() and not missing.parent.exists()  # reading created nothing
    assert "Traceback" not in proc.stderr


def test_missing_default_index_points_at_ingest_and_demo(tmp_path: Path) -> None:
    proc = hopgraph(tmp_path, "search", "late delivery")
    default = tmp_path / "data" / "hopgraph" / "index"
    assert proc.returncode == 2
    assert f"no index at {default}" in proc.stderr and "hopgraph demo" in proc.stderr
    assert not default.exists()


@pytest.mark.parametrize("command", ["ask", "search"])
def test_empty_index_says_so(tmp_path: Path, command: str) -> None:
    empty = str(tmp_path / "empty")
    open_backend(index_dir=empty)  # an index with no documents
    close_backend(index_dir=empty)
    proc = hopgraph(tmp_path, command, "late delivery", "--index", empty)
    assert proc.returncode == 2
    assert f"the index {empty} holds no documents; fill it with: hopgraph ingest" in proc.stderr


@pytest.mark.parametrize("command", ["ask", "search"])
def test_unknown_container_lists_the_containers_with_documents(tmp_path: Path, index: str, command: str) -> None:
    proc = hopgraph(tmp_path, command, "late delivery", "--index", index, "--container", "legl")
    assert proc.returncode == 2
    assert "container 'legl' holds no documents; containers with documents: default (1), legal (2)" in proc.stderr


def test_a_partly_empty_scope_is_searched_with_a_warning(tmp_path: Path, index: str) -> None:
    proc = hopgraph(tmp_path, "search", "late delivery penalty", "--index", index, "--container", "legal",
                    "--container", "legl")
    assert proc.returncode == 0, proc.stderr
    assert "contract" in proc.stdout
    warnings = [line for line in proc.stderr.splitlines() if "holds no documents" in line]
    assert len(warnings) == 1 and "'legl'" in warnings[0]


def test_python_api_reports_a_missing_index_in_the_result(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    result = run("late delivery penalty", context=Context(index=str(missing), qdrant_url=None))
    assert result["exit_reason"] == "backend_error"
    assert f"no index at {missing}" in result["error"] and "hopgraph ingest" in result["error"]
    assert result.get("reported_ids") == []
    assert not missing.exists()


def test_python_api_reports_an_unknown_container_in_the_result(index: str) -> None:
    try:
        result = run("late delivery penalty", context=Context(index=index, qdrant_url=None, containers=["legl"]))
        assert result["exit_reason"] == "backend_error"
        assert result["error"] == "container 'legl' holds no documents; containers with documents: default (1), " \
                                  "legal (2)"
        ok = run("late delivery penalty", context=Context(index=index, qdrant_url=None, containers=["legal"]))
        assert ok["exit_reason"] in ("reported", "thrash") and "contract" in ok["reported_ids"]
    finally:
        close_backend(index_dir=index)


def test_python_api_with_its_own_backend(caplog: pytest.LogCaptureFixture) -> None:
    empty = run("anything", context=Context(backend=MemoryBackend()))
    assert empty["exit_reason"] == "backend_error" and empty["error"] == "the index holds no documents"
    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts.", container="legal")
    with caplog.at_level(logging.WARNING, logger="hopgraph"):
        partly = run("steel bolts", context=Context(backend=backend, containers=["legal", "nope"]))
        run("steel bolts", context=Context(backend=backend, containers=["legal", "nope"]))
    assert partly["reported_ids"] == ["acme"]
    warned = [r.getMessage() for r in caplog.records if "holds no documents" in r.getMessage()]
    assert warned == ["container 'nope' holds no documents; containers with documents: legal (1)"]  # once


def test_behind_access_control_the_error_names_no_other_container(
    index: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hopgraph.serving.bearer_tokens import SECRET_ENV

    monkeypatch.setenv(SECRET_ENV, "a-secret-that-switches-access-control-on")
    try:
        result = run("late delivery penalty", context=Context(index=index, qdrant_url=None, containers=["legl"]))
    finally:
        close_backend(index_dir=index)
    assert result["exit_reason"] == "backend_error"
    assert result["error"] == "container 'legl' holds no documents"  # no word of 'default' or 'legal'


def test_ask_reports_a_missing_index_before_calling_the_model(tmp_path: Path) -> None:
    from tests.support.openai_server import ScriptedOpenAI
    from tests.support.openai_steps import chat_text

    missing = tmp_path / "missing"
    with ScriptedOpenAI() as srv:
        srv.chat(chat_text("never asked"))
        proc = hopgraph(tmp_path, "ask", "late delivery penalty", "--index", str(missing), "--model", "openai:m",
                        "--base-url", srv.base_url)
        calls = len(srv.chat_requests())
    assert proc.returncode == 2 and calls == 0
    assert proc.stdout == "" and proc.stderr.startswith(f"error: no index at {missing}")
