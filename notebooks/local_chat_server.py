"""A small local server that answers OpenAI's chat-completions API, for examples and tests.

It stands in for a hosted or self-served language model (vLLM, llama.cpp, the OpenAI API) at the
protocol boundary: ``POST /v1/chat/completions`` with the documented request (``model``,
``messages``, ``n``, ...) and response (``choices[i].message.content``, ``usage``). Its answers
are deterministic functions of the request: it reads the context passages and the question of
pyterrier-rag's default prompt from the last user message, and answer ``j`` of ``n`` takes one of
four styles, chosen by the model name, the question and ``j``:

- ``grounded``: the first two passages, each with its citation marker (``[0]``, ``[1]``);
- ``quote``: the first passage with its citation marker;
- ``brief``: the first eight words of the first passage, no citation;
- ``hedge``: a non-answer that repeats part of the question.

Usage::

    with serve() as server:          # server.base_url: http://127.0.0.1:<free port>/v1
        OpenAIBackend("local-model", base_url=server.base_url, api_key="unused")
"""

from __future__ import annotations

import json
import re
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STYLES = ("grounded", "quote", "brief", "hedge")

_PROMPT = re.compile(r"Context:\s*(?P<context>.*?)\s*\n\s*Question:\s*(?P<question>.*?)\s*\n\s*Answer:", re.DOTALL)


def style(model: str, question: str, index: int) -> str:
    """The style of answer ``index`` to ``question`` by ``model``."""
    return STYLES[(zlib.crc32(f"{model}\n{question}".encode()) + index) % len(STYLES)]


def answer(model: str, prompt: str, index: int) -> str:
    """Answer ``index`` of the server to a prompt (the text of the last user message)."""
    match = _PROMPT.search(prompt)
    if match is None:
        question, passages = prompt.strip(), []
    else:
        question = match["question"].strip()
        passages = [line.strip() for line in match["context"].split("\n") if line.strip()]
    chosen = style(model, question, index)
    if not passages or chosen == "hedge":
        topic = " ".join(question.rstrip("?").split()[-4:]).lower()
        return f"I am not sure, but it may have to do with {topic}."
    if chosen == "grounded":
        return " ".join(f"{passage.rstrip('.')} [{i}]." for i, passage in enumerate(passages[:2]))
    if chosen == "quote":
        return f"{passages[0].rstrip('.')} [0]."
    return " ".join(passages[0].split()[:8]).rstrip(",.;") + "."


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # keep test and notebook output clean
        pass

    def _send(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str) -> None:
        self._send(status, {"error": {"message": message, "type": "invalid_request_error", "code": None}})

    def do_POST(self) -> None:  # noqa: N802 (the name http.server asks for)
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._error(404, f"unknown path {self.path}")
            return
        try:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            model = str(request["model"])
            messages = request["messages"]
            n = int(request.get("n") or 1)
        except (ValueError, KeyError, TypeError) as error:
            self._error(400, f"malformed request: {error}")
            return
        users = [m.get("content", "") for m in messages if isinstance(m, dict) and m.get("role") == "user"]
        if not users or n < 1:
            self._error(400, "the request needs a user message and n >= 1")
            return
        prompt = users[-1] if isinstance(users[-1], str) else json.dumps(users[-1])
        texts = [answer(model, prompt, j) for j in range(n)]
        self.server.requests.append(request)  # type: ignore[attr-defined]
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in messages if isinstance(m, dict))
        completion_tokens = sum(len(text.split()) for text in texts)
        self._send(
            200,
            {
                "id": f"chatcmpl-{zlib.crc32(prompt.encode()):08x}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": j,
                        "message": {"role": "assistant", "content": text},
                        "logprobs": None,
                        "finish_reason": "stop",
                    }
                    for j, text in enumerate(texts)
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            },
        )


class ChatCompletionsServer(ThreadingHTTPServer):
    """The server; ``requests`` lists the JSON requests it answered."""

    daemon_threads = True

    def __init__(self, port: int = 0):
        super().__init__(("127.0.0.1", port), _Handler)
        self.requests: list[dict] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@contextmanager
def serve(port: int = 0) -> Iterator[ChatCompletionsServer]:
    """Run a :class:`ChatCompletionsServer` on 127.0.0.1 (a free port by default) in a thread."""
    server = ChatCompletionsServer(port)
    thread = threading.Thread(target=server.serve_forever, name="chat-completions-server", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
