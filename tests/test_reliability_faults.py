"""Faults: a failing or slow index, and a model endpoint that rate-limits, errors, hangs or
answers garbage. Every run must end within its caps with a defined exit reason, and nothing
may hang (each run goes under a watchdog thread)."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Callable
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from hopgraph import Context, run
from hopgraph.graph import build_graph
from hopgraph.index.backend import BackendError
from hopgraph.index.memory import MemoryBackend
from tests.scripted import ScriptedChatModel, call, calls
from tests.support.openai_spec import problems

EXITS = {"reported", "max_turns", "no_tool_call", "thrash", "budget", "model_error", "answered"}


def watchdog(fn: Callable[[], Any], seconds: float) -> Any:
    """Runs fn in a thread; fails the test if it has not returned after ``seconds``."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the test thread
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"run still going after {seconds} s: hang"
    if "error" in box:
        raise box["error"]
    box["elapsed"] = time.monotonic() - started
    return box["value"]


@pytest.fixture()
def backend() -> MemoryBackend:
    b = MemoryBackend()
    for i in range(12):
        b.add_text(f"doc-{i}", f"Report {i}", f"Acme steel bolts report number {i} about supplier {i} and copper.")
    return b


# --- index faults -------------------------------------------------------------------------------


def flaky_index(rng: random.Random, stall_s: float) -> Callable[[str, str], None]:
    def hook(kind: str, query: str) -> None:
        roll = rng.random()
        if roll < 0.25:
            raise BackendError("connection reset by peer")
        if roll < 0.35:
            raise RuntimeError("segment is corrupted")
        if roll < 0.5:
            time.sleep(stall_s)
    return hook


def test_flaky_index_every_run_ends_with_a_defined_reason(backend: MemoryBackend) -> None:
    rng = random.Random(3)
    backend.before_query = flaky_index(rng, stall_s=0.6)
    outcomes: list[str] = []
    for _ in range(12):
        script = [calls(*[call(rng.choice(["search", "text_search"]), {"query": f"steel {rng.randrange(50)}"})
                          for _ in range(rng.randint(1, 4))], call("read", {"id": f"d{rng.randint(1, 5)}"}))
                  for _ in range(rng.randint(1, 8))]
        script.append(calls(call("report_helpful_ids", {"ids": ["d1", "d2"]})))
        model = ScriptedChatModel(replies=script, repeat_last=True)
        context = Context(chat_model=model, backend=backend, tool_timeout_s=0.3, max_turns=6)
        result = watchdog(partial(run, "Who supplies steel?", context=context), 30)
        assert result["exit_reason"] in EXITS
        assert result["turns"] <= 6
        for prompt in model.prompts:
            for m in prompt:
                if isinstance(m, ToolMessage) and m.status == "error":
                    assert isinstance(m.content, str), m.content
                    assert m.content.startswith("Error: ") and len(m.content) < 400
                    assert "Traceback" not in m.content
        outcomes.append(result["exit_reason"])
    assert "reported" in outcomes


def test_slow_index_calls_are_cut_at_the_tool_timeout(backend: MemoryBackend) -> None:
    backend.before_query = lambda kind, query: time.sleep(5)
    model = ScriptedChatModel(replies=[calls(*[call("search", {"query": f"q{i}"}) for i in range(8)]),
                                       calls(call("report_helpful_ids", {"ids": []}))])
    started = time.monotonic()
    result = watchdog(lambda: run("q", context=Context(chat_model=model, backend=backend, tool_timeout_s=0.4)), 20)
    assert time.monotonic() - started < 3  # eight 5 s calls share one 0.4 s deadline
    assert result["exit_reason"] == "reported"
    messages = [m for m in model.prompts[1] if isinstance(m, ToolMessage)]
    assert len(messages) == 8 and all("timed out after 0.4 seconds" in m.content for m in messages)


@pytest.mark.parametrize("failure", ["backend", "runtime", "stall"])
def test_builtin_policy_survives_a_broken_index(backend: MemoryBackend, failure: str) -> None:
    def broken(kind: str, query: str) -> None:
        if failure == "backend":
            raise BackendError("Qdrant at http://x: 503 Service Unavailable")
        if failure == "runtime":
            raise MemoryError("out of memory")
        time.sleep(2)

    backend.before_query = broken
    result = watchdog(lambda: run("Who supplies steel bolts?", context=Context(model="builtin", backend=backend,
                                                                                tool_timeout_s=0.3)), 30)
    assert result["exit_reason"] in EXITS
    assert result["turns"] <= 10
    assert result["reported_ids"] == []


def test_index_recovers_mid_run(backend: MemoryBackend) -> None:
    """Failures in the first round only: the builtin policy still reports what it finds later."""
    failures = {"n": 0}

    def first_two_fail(kind: str, query: str) -> None:
        if failures["n"] < 2:
            failures["n"] += 1
            raise BackendError("temporarily unavailable")

    backend.before_query = first_two_fail
    model = ScriptedChatModel(replies=[
        calls(call("search", {"query": "steel"}), call("text_search", {"query": "steel"})),
        calls(call("search", {"query": "steel bolts"})),
        calls(call("report_helpful_ids", {"ids": ["d1"]})),
    ])
    result = watchdog(lambda: run("q", context=Context(chat_model=model, backend=backend)), 20)
    assert result["exit_reason"] == "reported" and result["reported_ids"]
    first = [m.content for m in model.prompts[1] if isinstance(m, ToolMessage)]
    assert all("backend failed" in c and "Try again" in c for c in first)


# --- model faults (OpenAI-compatible endpoint on localhost) -------------------------------------

Respond = Callable[[dict[str, Any]], tuple[int, dict[str, str], bytes] | None]


def completion(*tool_calls: tuple[str, str], content: str | None = None, finish: str | None = None) -> bytes:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                  "function": {"name": n, "arguments": a}} for i, (n, a) in enumerate(tool_calls)]
    return json.dumps({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "message": message,
                     "finish_reason": finish or ("tool_calls" if tool_calls else "stop")}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }).encode()


def ok(body: bytes) -> Respond:
    return lambda req: (200, {"Content-Type": "application/json"}, body)


def status(code: int, retry_after: str | None = None) -> Respond:
    headers = {"Content-Type": "application/json"}
    if retry_after is not None:
        headers["Retry-After"] = retry_after
    return lambda req: (code, headers, json.dumps({"error": {"message": f"status {code}"}}).encode())


def stall(seconds: float) -> Respond:
    def respond(req: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        time.sleep(seconds)
        return 200, {"Content-Type": "application/json"}, completion(content="late")
    return respond


def drop() -> Respond:
    """Promise a long body, send a little, hang up."""
    return lambda req: None


SEARCH = ok(completion(("search", '{"query": "steel bolts"}')))
REPORT = ok(completion(("report_helpful_ids", '{"ids": ["d1"]}')))


class FaultyModelServer:
    """Answers each chat request with the next fault. What it receives must still fit OpenAI's published API
    description; its answers break the protocol on purpose and are not checked."""

    def __init__(self, steps: list[Respond]) -> None:
        self.steps = list(steps)
        self.times: list[float] = []
        self.violations: list[str] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                with server.lock:
                    server.times.append(time.monotonic())
                    server.violations += problems("CreateChatCompletionRequest", body)
                    step = server.steps.pop(0) if server.steps else status(500)
                answer = step(body)
                if answer is None:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "5000")
                    self.end_headers()
                    self.wfile.write(b'{"id": "chatcmpl-1", "choi')
                    self.wfile.flush()
                    self.close_connection = True
                    return
                code, headers, data = answer
                self.send_response(code)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                with contextlib.suppress(OSError):  # the client gave up (timeout)
                    self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def gaps(self) -> list[float]:
        return [b - a for a, b in zip(self.times, self.times[1:], strict=False)]

    def __enter__(self) -> FaultyModelServer:
        self.thread.start()
        return self

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if exc_type is None:
            assert self.violations == [], self.violations


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HOPGRAPH_MODEL"):
        monkeypatch.delenv(name, raising=False)


def model_run(server: FaultyModelServer, backend: MemoryBackend, **kw: Any) -> dict[str, Any]:
    context = Context(model="openai:m", base_url=server.url, backend=backend, **kw)
    return watchdog(lambda: run("Who supplies steel bolts?", context=context), 60)


def test_429_is_retried_with_growing_backoff(backend: MemoryBackend) -> None:
    # Retry-After 0 leaves the delay to the client's exponential backoff (0.5 s, 1 s, ... with jitter).
    with FaultyModelServer([status(429, "0"), status(429, "0"), SEARCH, REPORT]) as server:
        result = model_run(server, backend, model_max_retries=3)
    assert result["exit_reason"] == "reported" and result["reported_ids"]
    assert len(server.times) == 4
    first, second = server.gaps()[:2]
    assert 0.3 <= first < second, server.gaps()


def test_500s_beyond_the_retry_budget_end_the_run(backend: MemoryBackend) -> None:
    with FaultyModelServer([status(500)] * 3) as server:
        result = model_run(server, backend, model_max_retries=2)
    assert result["exit_reason"] == "model_error"
    assert "InternalServerError" in result["error"] or "500" in result["error"]
    assert len(server.times) == 3  # one call plus two retries
    first, second = server.gaps()
    assert 0.3 <= first < second, server.gaps()


def test_model_timeout_is_retried_then_ends_the_run(backend: MemoryBackend) -> None:
    with FaultyModelServer([stall(5), stall(5)]) as server:
        started = time.monotonic()
        result = model_run(server, backend, model_max_retries=1, model_timeout_s=0.5)
    assert time.monotonic() - started < 4.5
    assert result["exit_reason"] == "model_error"
    # The server took the connection and stalled: a timeout, not an unreachable server.
    assert "did not answer within 0.5 s" in result["error"] and "could not be reached" not in result["error"]
    assert len(server.times) == 2


def test_dropped_connection_is_retried(backend: MemoryBackend) -> None:
    with FaultyModelServer([drop(), SEARCH, REPORT]) as server:
        result = model_run(server, backend, model_max_retries=2)
    assert result["exit_reason"] == "reported"
    assert len(server.times) == 3


@pytest.mark.parametrize("body", [b"<html>502 Bad Gateway</html>", b'{"id": "x"}', b"", b"null",
                                  b'{"choices": []}', b'{"choices": [{"message": null}]}'])
def test_garbage_responses_end_with_model_error(backend: MemoryBackend, body: bytes) -> None:
    with FaultyModelServer([ok(body)] * 3) as server:
        result = model_run(server, backend, model_max_retries=0)
    assert result["exit_reason"] in {"model_error", "no_tool_call"}
    if result["exit_reason"] == "model_error":
        assert result["error"].startswith("the model call failed") or "could not be reached" in result["error"]


def test_truncated_tool_calls_get_an_error_and_the_run_goes_on(backend: MemoryBackend) -> None:
    truncated = ok(completion(("search", '{"query": "steel b'), ("read", '{"id": "d'), finish="length"))
    with FaultyModelServer([truncated, SEARCH, REPORT]) as server:
        result = model_run(server, backend, model_max_retries=0)
    assert result["exit_reason"] == "reported" and result["reported_ids"]
    assert len(server.times) == 3


def test_random_model_faults_never_hang_or_escape(backend: MemoryBackend) -> None:
    """Many runs over a random mix of faults and valid replies; each ends with a defined reason."""
    rng = random.Random(11)
    menu: list[Respond] = [
        status(429, "0.01"), status(500, "0.01"), status(503, "0.01"), status(400), ok(b"not json"),
        ok(completion(("search", '{"query": "ste'))), ok(completion(("nope", "{}"))),
        ok(completion(content="I do not know.")), ok(completion(("search", '{"query": 7}'))),
        ok(completion(("read", '{"id": "d1"}'))), SEARCH, SEARCH, REPORT, drop(),
    ]
    reasons: dict[str, int] = {}
    for _ in range(15):
        steps = [rng.choice(menu) for _ in range(rng.randint(1, 12))]
        with FaultyModelServer(steps) as server:
            result = model_run(server, backend, model_max_retries=1, model_timeout_s=2, max_turns=5)
        assert result["exit_reason"] in EXITS, result
        assert result["turns"] <= 5
        if result["exit_reason"] == "model_error":
            assert result["error"]
        reasons[result["exit_reason"]] = reasons.get(result["exit_reason"], 0) + 1
    assert len(reasons) >= 2, reasons


def test_unreachable_model_port_fails_fast(backend: MemoryBackend) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    context = Context(model="openai:m", base_url=f"http://127.0.0.1:{port}/v1", backend=backend,
                      model_max_retries=2, model_timeout_s=1)
    result = watchdog(lambda: run("q", context=context), 20)
    assert result["exit_reason"] == "model_error" and "could not be reached" in result["error"]


def test_the_turn_cap_not_the_recursion_limit_ends_a_long_run(backend: MemoryBackend) -> None:
    """A model that never stops searching new things ends at max_turns, not with a GraphRecursionError."""
    counter = {"n": 0}

    def fresh(messages: list[Any]) -> AIMessage:
        counter["n"] += 1
        backend.add_text(f"new-{counter['n']}", f"New {counter['n']}", f"zz{counter['n']} steel")
        return calls(call("search", {"query": f"zz{counter['n']}"}))  # always one new document

    model = ScriptedChatModel(replies=[fresh], repeat_last=True)
    graph = build_graph()
    result = watchdog(lambda: graph.invoke({"question": "q"}, context=Context(chat_model=model, backend=backend,
                                                                              max_turns=40)), 60)
    assert result["exit_reason"] == "max_turns" and result["turns"] == 40
