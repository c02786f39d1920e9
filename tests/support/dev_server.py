"""Start `langgraph dev` on a free port with the repository's langgraph.json, and stop its whole process tree.

The server runs in a work directory of the test's own (a copy of langgraph.json with absolute paths, no `.env`):
`langgraph dev` keeps its runtime state in `.langgraph_api/` under its working directory, and that must never be
the repository (it would outlive the test and hand one test's threads to the next server started there).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT_S = 90
# Settings of the machine that must not leak into a server under test.
_SCRUBBED = ("POSTGRES_URI", "DATABASE_URI", "QDRANT_URL", "HOPGRAPH_AUTH_FILE", "HOPGRAPH_ALLOWED_MODELS",
             "HOPGRAPH_RERANKER", "OPENAI_BASE_URL", "SID_BASE_URL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def langgraph_bin() -> str:
    path = Path(sys.executable).parent / "langgraph"
    assert path.exists(), f"langgraph CLI not found next to {sys.executable}; install langgraph-cli[inmem]"
    return str(path)


def server_env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    env.update(
        HOPGRAPH_MODEL="builtin",
        LANGSMITH_TRACING="false",
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="true",
    )
    env.update(overrides)
    return env


def _stop(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def workdir_config(workdir: Path) -> Path:
    """A copy of the repository's langgraph.json in ``workdir``, its paths made absolute."""
    config = json.loads((ROOT / "langgraph.json").read_text())
    config.pop("env", None)  # a developer's .env must not reach a server under test
    config["dependencies"] = [str(ROOT)]
    config["graphs"] = {name: str(ROOT / path) for name, path in config["graphs"].items()}
    if "checkpointer" in config:
        config["checkpointer"]["path"] = str(ROOT / config["checkpointer"]["path"])
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "langgraph.json"
    path.write_text(json.dumps(config, indent=2))
    return path


def _start(env: dict[str, str], log_path: Path, port: int, workdir: Path | None = None,
           args: tuple[str, ...] = ()) -> subprocess.Popen:
    workdir = workdir or log_path.parent / f"langgraph-dev-{port}"
    config = workdir_config(workdir)
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            [langgraph_bin(), "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port),
             "--config", str(config), *args],
            cwd=workdir,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group, so the whole server tree can be stopped
        )


def _wait_up(proc: subprocess.Popen, url: str, log_path: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while True:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited ({proc.returncode}):\n{log_path.read_text()[-6000:]}")
        try:
            if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"langgraph dev not up after {STARTUP_TIMEOUT_S}s:\n{log_path.read_text()[-6000:]}")
        time.sleep(0.5)


class DevServer:
    """One `langgraph dev` process tree, which a test may kill outright (SIGKILL) and start again."""

    def __init__(self, env: dict[str, str], log_path: Path, workdir: Path, args: tuple[str, ...] = ()) -> None:
        self.env, self.log_path, self.workdir, self.args = env, log_path, workdir, args
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> str:
        self.proc = _start(self.env, self.log_path, self.port, self.workdir, self.args)
        _wait_up(self.proc, self.url, self.log_path)
        return self.url

    def kill(self) -> None:
        """SIGKILL to the whole tree, as a crash or an out-of-memory kill would end it."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=15)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            _stop(self.proc)


@contextlib.contextmanager
def dev_server(env: dict[str, str], log_path: Path, *, args: tuple[str, ...] = ()) -> Iterator[str]:
    """A running server's base URL; the test fails (never skips) if it does not come up."""
    server = DevServer(env, log_path, log_path.parent / "langgraph-dev", args)
    try:
        yield server.start()
    finally:
        server.stop()


def start_fails(env: dict[str, str], log_path: Path, timeout_s: float = STARTUP_TIMEOUT_S) -> tuple[int, str]:
    """Start a server that must refuse to start: its exit code and log. Fails the test if it serves instead."""
    port = free_port()
    proc = _start(env, log_path, port, log_path.parent / "langgraph-dev")
    try:
        deadline = time.monotonic() + timeout_s
        while proc.poll() is None:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/ok", timeout=2).status_code == 200:
                    pytest.fail(f"the server started and serves:\n{log_path.read_text()[-4000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"the server neither served nor exited in {timeout_s}s:\n{log_path.read_text()[-4000:]}")
            time.sleep(0.5)
        return int(proc.returncode), log_path.read_text()
    finally:
        if proc.poll() is None:
            _stop(proc)
