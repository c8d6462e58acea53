"""sdk-python tests: puts src/ on the path and serves scripted answers from a tiny HTTP server on 127.0.0.1."""
from __future__ import annotations

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

Answer = Tuple[int, Dict[str, str], Any]


class Recorded:
    def __init__(self, method: str, path: str, headers: Dict[str, str], body: bytes) -> None:
        self.method, self.path, self.headers, self.body = method, path, headers, body


class FakeApi:
    """Answers each request with the next scripted answer, or with ``route(request)`` when given."""

    def __init__(self, answers: Optional[List[Answer]] = None, route: Optional[Callable[[Recorded], Answer]] = None, delay: float = 0) -> None:
        self.answers = list(answers or [])
        self.route = route
        self.delay = delay
        self.requests: List[Recorded] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                req = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, self.rfile.read(length))
                fake.requests.append(req)
                if fake.delay:
                    threading.Event().wait(fake.delay)
                status, headers, body = fake.route(req) if fake.route else fake.answers.pop(0)
                raw = body if isinstance(body, bytes) else json.dumps(body).encode() if body is not None else b""
                try:
                    self.send_response(status)
                    if body is not None and not isinstance(body, bytes):
                        self.send_header("Content-Type", "application/json")
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_DELETE = do_PUT = _serve

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> "FakeApi":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


def error(status: int, code: str, request_id: str = "req_1", **extra: Any) -> Dict[str, Any]:
    return {"error": {"code": code, "message": f"{code} happened", "requestId": request_id, **extra}}
