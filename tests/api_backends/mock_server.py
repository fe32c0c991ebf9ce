"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1 (ephemeral port), for tests.

It records every request body and answers each from a script: ``answer(body, n)`` gets the decoded
JSON body and how many requests with the same ``request_key`` came before (for repeated samples), and
returns the answer text or an ``Outcome`` (an HTTP error, or a delay longer than the client's timeout).
Bounded: it serves at most ``max_requests`` requests (then answers 503 and counts the overflow) and
shuts itself down after ``lifetime_s`` seconds; a delay never exceeds ``MAX_DELAY_S``.
"""

import json
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_DELAY_S = 5.0


@dataclass(frozen=True)
class Outcome:
    status: int = 200
    text: str = ""  # the answer of a 200, the error message otherwise
    delay_s: float = 0.0


def prompt_text(body: dict) -> str:
    """The text parts of the request's last user message, joined."""
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if part.get("type") == "text")


def image_urls(body: dict) -> list[str]:
    """The image data URLs of the request, in message order."""
    return [part["image_url"]["url"] for message in body["messages"] if isinstance(message["content"], list) for part in message["content"] if part.get("type") == "image_url"]


def request_key(body: dict) -> tuple[str, float, int]:
    """Prompt text, temperature and image count: what tells the requests of a run apart."""
    return prompt_text(body), float(body.get("temperature") or 0), len(image_urls(body))


def completion(model: str, text: str) -> dict:
    return {
        "id": "chatcmpl-mock",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class MockServer:
    def __init__(self, answer: Callable[[dict, int], str | Outcome], max_requests: int = 500, lifetime_s: float = 120.0):
        self.answer, self.max_requests = answer, max_requests
        self.bodies: list[dict] = []
        self.overflow = 0
        self._seen: Counter = Counter()
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                outcome = server._record(body)
                if outcome.delay_s:
                    server._stopped.wait(min(outcome.delay_s, MAX_DELAY_S))
                if outcome.status == 200:
                    payload = completion(body.get("model", ""), outcome.text)
                else:
                    payload = {"error": {"message": outcome.text, "type": "mock_error", "code": outcome.status}}
                data = json.dumps(payload).encode()
                try:
                    self.send_response(outcome.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    if outcome.status != 200:  # the OpenAI client's own retries of an error come at once, not after its backoff
                        self.send_header("retry-after-ms", "1")
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self._timer = threading.Timer(lifetime_s, self.stop)
        self._timer.daemon = True

    def _record(self, body: dict) -> Outcome:
        with self._lock:
            if len(self.bodies) >= self.max_requests:
                self.overflow += 1
                return Outcome(503, "mock server: request limit reached")
            self.bodies.append(body)
            key = request_key(body)
            earlier = self._seen[key]
            self._seen[key] += 1
        result = self.answer(body, earlier)
        return result if isinstance(result, Outcome) else Outcome(200, result)

    def __enter__(self) -> "MockServer":
        self._thread.start()
        self._timer.start()
        return self

    def stop(self) -> None:
        if not self._stopped.is_set():
            self._stopped.set()
            self._httpd.shutdown()
            self._httpd.server_close()

    def __exit__(self, *exc) -> None:
        self._timer.cancel()
        self.stop()


def refused_url() -> str:
    """A loopback URL where nothing listens (a port just released by the OS)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def answer_all(text: str) -> Callable[[dict, int], str]:
    return lambda body, n: text


def fail_all(status: int, message: str, delay_s: float = 0.0) -> Callable[[dict, int], Outcome]:
    return lambda body, n: Outcome(status, message, delay_s)


def scripted(answers: dict[tuple[str, float, int], str | list | Outcome], default: Outcome | None = None) -> Callable:
    """Answer by ``request_key``; a list answers the n-th repeat of a request with its n-th entry."""
    missing = default or Outcome(404, "mock server: no scripted answer for this request")

    def answer(body: dict, n: int):
        scripted = answers.get(request_key(body), missing)
        return scripted[n % len(scripted)] if isinstance(scripted, list) else scripted

    return answer
