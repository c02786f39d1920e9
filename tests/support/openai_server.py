"""A scripted OpenAI-compatible HTTP server on localhost (chat.completions and Responses API).

Usage (the steps a test queues are built with :mod:`tests.support.openai_steps`)::

    with ScriptedOpenAI() as srv:                     # starts on a free port, stops on exit
        srv.chat(chat_tool_calls(("search", {"query": "x"}), ("read", {"id": "d1"})),
                 http_error(429, retry_after=0), chat_text("done"))
        model = ChatOpenAI(model="m", base_url=srv.base_url, api_key="k")
        ...
        srv.requests          # every request: Request(method, path, headers, body)
        srv.chat_requests()   # bodies of POST /v1/chat/completions

Each POST /v1/chat/completions (or /v1/responses) takes the next step of its queue. A step is a
body dict (200), an ``http_error(...)``, or a callable ``(Request) -> step``. An empty queue
answers 500 with "script exhausted", so an unexpected extra call fails loudly.
``stream=True`` requests get the same answer as server-sent events (:mod:`tests.support.openai_stream`);
``cut_stream(step, after=N)`` sends a Responses stream's first N events and drops the connection,
``stream_error(...)`` ends it with an ``error`` event, ``slow_stream(...)`` spaces its events out and
``ignores_stream(step)`` answers a streamed request with the whole response in JSON. A
``silent()`` step takes every request from then on and never answers (a server that accepts the connection
and hangs).

Responses API extras: ids are assigned (resp_N, msg_N, fc_N, call_N, rs_N); stored responses
(``store: true``) can be fetched, deleted and chained with ``previous_response_id`` (an unknown
id gives 400 ``previous_response_not_found``); ``background(step, pending=[...])`` answers the
create with the first pending status and each GET with the next, then the final response;
a repeated ``Idempotency-Key`` replays the first successful answer without taking a step
(409 while the first request with that key is still running).

Both ways are checked against OpenAI's published API description (:mod:`tests.support.openai_spec`): a request
body that breaks ``CreateChatCompletionRequest`` or ``CreateResponse`` is answered 400, as the real API would,
and every body the server answers (completions, stream chunks, responses, errors) must fit its schema too.
Whatever broke a schema is kept in ``srv.violations``; leaving the ``with`` block with any fails the test.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.openai_spec import problems
from tests.support.openai_steps import HTTPError, Request, Silent, error_body, http_error
from tests.support.openai_stream import SSE, STREAM_OPTIONS, chat_chunks, response_events, with_stream_options

# --- server ---------------------------------------------------------------------------------


class ScriptedOpenAI:
    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.requests: list[Request] = []
        self.violations: list[str] = []
        self._chat: deque[Any] = deque()
        self._responses: deque[Any] = deque()
        self.stored: dict[str, dict[str, Any]] = {}
        self.deleted: list[str] = []
        self._pending: dict[str, list[str]] = {}
        self._final: dict[str, dict[str, Any]] = {}
        self._idem: dict[str, tuple[int, Any]] = {}
        self._inflight: set[str] = set()
        self._ids: dict[str, itertools.count[int]] = {}
        self._lock = threading.Lock()
        self._id_lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer((host, port), self._handler())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    # lifecycle
    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ScriptedOpenAI:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedOpenAI:
        return self.start()

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.stop()
        if exc_type is None:
            assert not self.violations, "the OpenAI protocol was broken:\n" + "\n".join(self.violations)

    def _check(self, what: str, schema: str, body: Any) -> list[str]:
        found = problems(schema, body)
        if found:
            with self._lock:
                self.violations.extend(f"{what}: {p}" for p in found)
        return found

    def _check_request(self, req: Request) -> list[str]:
        path = _route(req.path)
        if req.method != "POST":
            return []
        if path.endswith("/chat/completions"):
            return self._check(f"request to {path}", "CreateChatCompletionRequest", req.body)
        if path.endswith("/responses"):
            return self._check(f"request to {path}", "CreateResponse", req.body)
        return []

    def _check_answer(self, req: Request, status: int, payload: Any) -> None:
        path = _route(req.path)
        what = f"answer to {req.method} {path}"
        if status >= 400:
            self._check(what, "ErrorResponse", payload)
        elif isinstance(payload, SSE):
            for event in payload.events:
                self._check(what, payload.schema(), event)
        elif path.endswith("/chat/completions"):
            self._check(what, "CreateChatCompletionResponse", payload)
        elif req.method == "DELETE":
            return  # the description gives no schema for a deletion's answer
        elif "/responses" in path:
            self._check(what, "Response", payload)
        elif path.endswith("/models"):
            self._check(what, "ListModelsResponse", payload)

    # scripting
    def chat(self, *steps: Any) -> None:
        with self._lock:
            self._chat.extend(steps)

    def respond(self, *steps: Any) -> None:
        with self._lock:
            self._responses.extend(steps)

    def chat_requests(self) -> list[Any]:
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    def response_requests(self) -> list[Request]:
        return [r for r in self.requests if r.method == "POST" and _route(r.path).endswith("/responses")]

    def remaining(self) -> int:
        return len(self._chat) + len(self._responses)

    def _next_id(self, prefix: str) -> str:
        with self._id_lock:
            counter = self._ids.setdefault(prefix, itertools.count(1))
            return f"{prefix}_{next(counter)}"

    # dispatch: returns (status, body or SSE, headers)
    def _dispatch(self, req: Request) -> tuple[int, Any, dict[str, str]]:
        path = _route(req.path)
        if req.method == "POST" and path.endswith("/chat/completions"):
            return self._chat_completion(req)
        if path.endswith("/responses") and req.method == "POST":
            return self._create_response(req)
        if "/responses/" in path:
            rest = path.split("/responses/", 1)[1]
            rid, _, action = rest.partition("/")
            return self._response_item(req, rid, action)
        if req.method == "GET" and path.endswith("/models"):
            return 200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]}, {}
        return 404, error_body(f"no route {req.method} {path}"), {}

    def _take(self, queue: deque[Any], req: Request) -> Any:
        with self._lock:
            if not queue:
                return http_error(500, "script exhausted")
            step = queue.popleft()
            if isinstance(step, Silent):
                queue.appendleft(step)  # silent for good: every later request too
        while callable(step):
            step = step(req)
        if isinstance(step, Silent):
            self._stopping.wait()
            return http_error(503, "server stopped")
        return step

    def _chat_completion(self, req: Request) -> tuple[int, Any, dict[str, str]]:
        step = self._take(self._chat, req)
        if isinstance(step, HTTPError):
            return step.status, step.body, step.headers
        body = copy.deepcopy(step)
        body.setdefault("id", self._next_id("chatcmpl"))
        body.setdefault("object", "chat.completion")
        body.setdefault("created", int(time.time()))
        body.setdefault("model", (req.body or {}).get("model", "scripted"))
        for choice in body.get("choices", []):
            # Fields a real server always sends, null when unused.
            choice.setdefault("logprobs", None)
            if isinstance(choice.get("message"), dict):
                choice["message"].setdefault("refusal", None)
            for tc in choice.get("message", {}).get("tool_calls") or []:
                if not tc.get("id"):
                    tc["id"] = self._next_id("call")
        if (req.body or {}).get("stream"):
            return 200, SSE(chat_chunks(body, req.body), "chat"), {}
        return 200, body, {}

    def _create_response(self, req: Request) -> tuple[int, Any, dict[str, str]]:
        key = req.headers.get("idempotency-key")
        with self._lock:
            if key and key in self._idem:
                req.replayed = True
                status, body = self._idem[key]
                return status, _maybe_streamed(req, copy.deepcopy(body)), {}
            if key and key in self._inflight:
                # Like providers do: the first request with this key is still running.
                return 409, error_body("a request with this Idempotency-Key is in progress"), {}
            if key:
                self._inflight.add(key)
        try:
            return self._run_response_step(req, key)
        finally:
            with self._lock:
                self._inflight.discard(key or "")

    def _run_response_step(self, req: Request, key: str | None) -> tuple[int, Any, dict[str, str]]:
        prev = (req.body or {}).get("previous_response_id")
        if prev and prev not in self.stored:
            return 400, error_body(f"Previous response with id '{prev}' not found.", param="previous_response_id",
                               code="previous_response_not_found"), {}
        step = self._take(self._responses, req)
        if isinstance(step, HTTPError):
            return step.status, step.body, step.headers
        step = copy.deepcopy(step)
        pending = step.pop("_pending", None)
        stream_options = {k: step.pop(k) for k in STREAM_OPTIONS if k in step}
        rid = self._next_id("resp")
        final: dict[str, Any] = {
            "id": rid,
            "object": "response",
            "created_at": int(time.time()),
            "model": req.body.get("model", "scripted"),
            "status": "completed",
            "error": None,
            "incomplete_details": None,
            "instructions": req.body.get("instructions"),
            "metadata": req.body.get("metadata") or {},
            "temperature": req.body.get("temperature", 1.0),
            "top_p": req.body.get("top_p", 1.0),
            "output": [],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": {
                "input_tokens": 10,
                "output_tokens": 5,
                "total_tokens": 15,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0},
            },
            **step,
        }
        if prev:
            final["previous_response_id"] = prev
        for item in final["output"]:
            prefix = {"message": "msg", "function_call": "fc", "reasoning": "rs"}.get(item.get("type"), "item")
            item.setdefault("id", self._next_id(prefix))
            if item.get("type") == "function_call":
                item.setdefault("call_id", self._next_id("call"))
        with self._lock:
            if req.body.get("store") or req.body.get("background"):
                self.stored[rid] = final
            if pending:
                self._pending[rid] = pending[1:]
                self._final[rid] = final
                answer = _pending_view(final, pending[0])
            else:
                answer = final
            if key:
                self._idem[key] = (200, answer)
        return 200, _maybe_streamed(req, copy.deepcopy(answer), stream_options), {}

    def _response_item(self, req: Request, rid: str, action: str) -> tuple[int, Any, dict[str, str]]:
        with self._lock:
            known = rid in self.stored or rid in self._final
            if not known:
                return 404, error_body(f"Response with id '{rid}' not found."), {}
            if req.method == "DELETE" and not action:
                self.stored.pop(rid, None)
                self._final.pop(rid, None)
                self.deleted.append(rid)
                return 200, {"id": rid, "object": "response.deleted", "deleted": True}, {}
            final = self._final.get(rid) or self.stored[rid]
            if req.method == "POST" and action == "cancel":
                self._pending.pop(rid, None)
                final["status"] = "cancelled"
                return 200, copy.deepcopy(final), {}
            if req.method == "GET" and not action:
                queue = self._pending.get(rid)
                if queue:
                    status = queue.pop(0)
                    return 200, _pending_view(final, status), {}
                self._pending.pop(rid, None)
                return 200, copy.deepcopy(final), {}
        return 404, error_body(f"no route {req.method} {req.path}"), {}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                req = Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body,
                              peer=(str(self.client_address[0]), int(self.client_address[1])))
                with server._lock:
                    server.requests.append(req)
                broken = server._check_request(req)
                status: int
                payload: Any
                headers: dict[str, str]
                try:
                    if broken:  # as the real API answers a body that breaks its schema
                        status, payload, headers = 400, error_body("; ".join(broken)), {}
                    else:
                        status, payload, headers = server._dispatch(req)
                except Exception as exc:  # a broken script must show up, not hang the client
                    status, payload, headers = 500, error_body(f"scripted server bug: {exc!r}", "server_error"), {}
                server._check_answer(req, status, payload)
                if isinstance(payload, SSE):
                    parts, announced = payload.wire()
                    if announced > sum(len(p) for p in parts):
                        self.close_connection = True  # the connection drops mid-stream
                    self._send(status, parts, "text/event-stream", headers, announced, payload.delay_s)
                else:
                    self._send(status, [json.dumps(payload).encode()], "application/json", headers)

            def _send(self, status: int, parts: list[bytes], ctype: str, headers: dict[str, str],
                      length: int | None = None, delay_s: float = 0.0) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(sum(len(p) for p in parts) if length is None else length))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                with contextlib.suppress(OSError):  # the client gave up waiting (timeouts, Ctrl-C)
                    for i, part in enumerate(parts):
                        if i and delay_s:
                            server._stopping.wait(delay_s)  # cut short when the server stops
                        self.wfile.write(part)
                        self.wfile.flush()

            do_GET = do_POST = do_DELETE = _serve

        return Handler


def _maybe_streamed(req: Request, answer: dict[str, Any], stream_options: dict[str, Any] | None = None) -> Any:
    """A response as asked for: whole, or as the events of a stream when the request has ``stream``."""
    if not (req.body or {}).get("stream") or (stream_options or {}).get("_no_stream"):
        return answer
    return with_stream_options(response_events(answer), stream_options or {})


def _pending_view(final: dict[str, Any], status: str) -> dict[str, Any]:
    """A background response while it is still running: no output, and no usage yet."""
    view = {**final, "status": status, "output": []}
    view.pop("usage", None)
    return view


def _route(path: str) -> str:
    return path.split("?", 1)[0].rstrip("/")
