"""One model call's deadline: a silent server, a closed port, Ctrl-C while waiting (real HTTP, real CLI)."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hopgraph import Context, run
from hopgraph.index.memory import MemoryBackend
from tests.support.index import make_container_index
from tests.support.openai_server import ScriptedOpenAI
from tests.support.openai_steps import chat_text, silent


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HOPGRAPH_MODEL", "HOPGRAPH_MODEL_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)


def _backend() -> MemoryBackend:
    b = MemoryBackend()
    b.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts.")
    return b


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cli_env(tmp_path: Path, index: bool = True) -> dict[str, str]:
    """The CLI's environment; with ``index``, a small index to search (ask checks it before the model)."""
    if index and not (tmp_path / "index").exists():
        make_container_index(str(tmp_path / "index"), {"default": {"acme": ("Acme", "Acme Corp supplies bolts.")}})
    env = dict(os.environ)
    for name in ("HOPGRAPH_MODEL", "HOPGRAPH_MODEL_TIMEOUT", "QDRANT_URL", "POSTGRES_URI", "DATABASE_URI",
                 "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        env.pop(name, None)
    env.update(HOPGRAPH_INDEX=str(tmp_path / "index"), HOPGRAPH_CHECKPOINT_DB=str(tmp_path / "threads.sqlite"))
    return env


def _retry_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "retrying in" in line]


def test_silent_server_gives_up_within_the_timeout(caplog: pytest.LogCaptureFixture) -> None:
    with ScriptedOpenAI() as srv:
        srv.chat(silent())
        started = time.monotonic()
        with caplog.at_level(logging.WARNING, logger="hopgraph.models"):
            result = run("Who supplies bolts?", context=Context(
                model="openai:m", base_url=srv.base_url, backend=_backend(), model_timeout_s=2))
        finished = time.monotonic()
        requests = [r for r in srv.requests if r.path.endswith("/chat/completions")]
    attempts = len(requests)
    assert finished - started < 6, finished - started  # the old client waited 120 s x 5 attempts
    waited = finished - requests[0].received
    assert 1.5 <= waited < 2.5, waited  # it waited for an answer, but no longer than the budget
    assert result["exit_reason"] == "model_error"
    assert "no answer within 2 s, retries included" in result["error"]
    assert attempts == 2  # each attempt may take half the budget: one retry fits
    retries = [r.getMessage() for r in caplog.records if "retrying in" in r.getMessage()]
    assert len(retries) == 1
    assert f"model at {srv.base_url}: no answer within 1.0 s; retrying in" in retries[0]


def test_ask_says_on_stderr_that_it_retries(tmp_path: Path) -> None:
    with ScriptedOpenAI() as srv:
        srv.chat(silent())
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "hopgraph.cli", "ask", "Who supplies bolts?", "--model", "openai:m",
             "--base-url", srv.base_url, "--model-timeout", "2"],
            env=_cli_env(tmp_path), capture_output=True, text=True, timeout=60)
        finished = time.monotonic()
        first_request = srv.requests[0].received
    assert proc.returncode == 2, proc.stderr
    assert finished - started < 30  # start-up included; the old client waited 120 s x 5 attempts
    assert finished - first_request < 4, finished - first_request  # 2 s for the call, then exit
    retries = _retry_lines(proc.stderr)
    assert len(retries) == 1 and "no answer within 1.0 s" in retries[0], proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "no answer within 2 s" in errors[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_nothing_listening_fails_fast(caplog: pytest.LogCaptureFixture) -> None:
    url = f"http://127.0.0.1:{_free_port()}/v1"
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="hopgraph.models"):
        result = run("q", context=Context(model="openai:m", base_url=url, backend=_backend(), model_timeout_s=60))
    elapsed = time.monotonic() - started
    assert elapsed < 3, elapsed  # a refused connection is retried once, not for a minute
    assert result["exit_reason"] == "model_error" and "could not be reached" in result["error"]
    retries = [r.getMessage() for r in caplog.records if "retrying in" in r.getMessage()]
    assert len(retries) == 1 and "cannot connect" in retries[0]


def test_responses_model_keeps_the_same_deadline(caplog: pytest.LogCaptureFixture) -> None:
    with ScriptedOpenAI() as srv:
        srv.respond(silent())
        started = time.monotonic()
        with caplog.at_level(logging.WARNING, logger="hopgraph.models"):
            result = run("q", context=Context(model="openai-responses:m", base_url=srv.base_url,
                                              backend=_backend(), model_timeout_s=2))
        finished = time.monotonic()
        requests = srv.response_requests()
        keys = {r.headers.get("idempotency-key") for r in requests}
    assert finished - started < 6, finished - started
    assert finished - requests[0].received < 2.5
    assert result["exit_reason"] == "model_error"
    # The retries are the same logical request (the server then says the first is still in progress).
    assert len(keys) == 1 and len(requests) >= 2
    assert any("retrying in" in r.getMessage() for r in caplog.records)


def test_model_timeout_option_is_checked(tmp_path: Path) -> None:
    for command in ("ask", "demo", "eval"):
        args = ["--model-timeout", "0"] + (["q"] if command == "ask" else ["--data", "x"] if command == "eval" else [])
        proc = subprocess.run([sys.executable, "-m", "hopgraph.cli", command, *args], env=_cli_env(tmp_path, False),
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "must be a number of seconds above 0" in proc.stderr, (command, proc.stderr)


def _interrupt(proc: subprocess.Popen[str], timeout: float) -> tuple[str, float]:
    """Ctrl-C to the process; what it wrote to stderr and how long it took to end."""
    interrupted = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=timeout)
    return stderr, time.monotonic() - interrupted


def _kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_ctrl_c_stops_a_waiting_run_and_keeps_the_thread(tmp_path: Path) -> None:
    env = _cli_env(tmp_path)
    with ScriptedOpenAI() as srv:
        # Turn one: the model answers without tools twice (a nudge, then the end of the run).
        srv.chat(chat_text("Acme, I think."), chat_text("Acme."), silent())
        base = [sys.executable, "-m", "hopgraph.cli", "ask", "--model", "openai:m", "--base-url", srv.base_url,
                "--thread", "t1"]
        first = subprocess.run([*base, "Who supplies bolts?"], env=env, capture_output=True, text=True, timeout=120)
        assert first.returncode == 0, first.stderr
        answered = len(srv.chat_requests())
        proc = subprocess.Popen([*base, "And who supplies nuts?", "--model-timeout", "600"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while len(srv.chat_requests()) == answered and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(srv.chat_requests()) > answered, "the second run never called the model"
            time.sleep(0.3)
            stderr, stopped_in = _interrupt(proc, timeout=20)
        finally:
            _kill(proc)
    assert proc.returncode == 130, stderr
    assert stopped_in < 3, stopped_in
    assert "interrupted" in stderr and "Traceback" not in stderr
    shown = subprocess.run([sys.executable, "-m", "hopgraph.cli", "threads", "show", "t1"], env=env,
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    humans = [m["content"] for m in json.loads(shown.stdout)["messages"] if m["role"] == "human"]
    assert humans[0] == "Who supplies bolts?"


def test_ctrl_c_ends_ask_even_when_a_worker_thread_still_waits(tmp_path: Path) -> None:
    # A model call waiting in a worker thread of a pool the run leaves with a `with` block: after Ctrl-C the
    # pool's exit waits for that call, which would hold the process until the model's own timeout (600 s here);
    # the CLI ends the process shortly after Ctrl-C whatever still runs.
    script = tmp_path / "waits.py"
    script.write_text(
        "import sys, time\n"
        "from concurrent.futures import ThreadPoolExecutor\n"
        "import hopgraph.commands.ask as ask_command\n"
        "from hopgraph import cli\n"
        "def waits(args):\n"
        "    with ThreadPoolExecutor(1) as pool:\n"
        "        call = pool.submit(time.sleep, 120)\n"
        "        print('waiting', flush=True)\n"
        "        call.result()\n"
        "ask_command.run = waits\n"
        "sys.exit(cli.main(['ask', 'q']))\n")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "waiting"
        stderr, stopped_in = _interrupt(proc, timeout=30)
    finally:
        _kill(proc)
    assert proc.returncode == 130, stderr
    assert stopped_in < 10, stopped_in
    assert stderr.count("interrupted") == 1 and "Traceback" not in stderr


def test_a_host_that_never_accepts_fails_in_seconds(caplog: pytest.LogCaptureFixture) -> None:
    # A listening socket with a full backlog drops new connection requests, like a dead host.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)):  # fills the backlog
            started = time.monotonic()
            with caplog.at_level(logging.WARNING, logger="hopgraph.models"):
                result = run("q", context=Context(model="openai:m", base_url=f"http://127.0.0.1:{port}/v1",
                                                  backend=_backend(), model_timeout_s=120))
            elapsed = time.monotonic() - started
    assert result["exit_reason"] == "model_error" and "could not be reached" in result["error"]
    retries = [r.getMessage() for r in caplog.records if "retrying in" in r.getMessage()]
    assert len(retries) == 1 and "cannot connect" in retries[0]
    assert elapsed < 12, elapsed  # two connection attempts of 3 s each, not two minutes
