"""A scripted OpenAI-compatible chat.completions server on localhost, for the real ChatOpenAI path."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# One scripted step: (status, body) or a callable(request_json) -> (status, body).
Step = tuple[int, dict[str, Any]] | Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]


def tool_call_reply(*calls: tuple[str, dict[str, Any] | str], content: str | None = None) -> tuple[int, dict]:
    tool_calls = [
        {"id": f"call_{i}_{name}", "type": "function",
         "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
        for i, (name, args) in enumerate(calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return 200, {
        "id": f"chatcmpl-{time.time_ns()}", "object": "chat.completion", "created": int(time.time()),
        "model": "scripted", "choices": [{"index": 0, "message": message,
                                          "finish_reason": "tool_calls" if tool_calls else "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class OpenAIStub:
    def __init__(self, steps: list[Step]) -> None:
        self.steps = list(steps)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with stub.lock:
                    stub.requests.append(body)
                    stub.headers.append(dict(self.headers))
                    step = stub.steps.pop(0) if stub.steps else (500, {"error": {"message": "script exhausted"}})
                status, payload = step(body) if callable(step) else step
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(data)

        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> OpenAIStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
