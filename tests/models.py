"""A scripted model for the model-driven example agents (examples/agents/llm_agent.py, mcp_agent.py): a local
OpenAI-compatible chat-completions endpoint whose every reply a script decides from the tool calls and results of
the conversation so far (no network, no key); and such an agent run alone, outside any world."""

from __future__ import annotations

import json
import os
import ssl
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

AGENTS = Path(__file__).resolve().parent.parent / "examples" / "agents"


class History:
    """The tool calls of the conversation so far, with their results (decoded when they are JSON)."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        results = {m["tool_call_id"]: _decoded(m["content"]) for m in messages if m["role"] == "tool"}
        self.calls = [
            (call["function"]["name"], json.loads(call["function"]["arguments"]), results.get(call["id"]))
            for m in messages
            if m["role"] == "assistant"
            for call in m.get("tool_calls") or []
        ]

    def result(self, name: str, **args: Any) -> Any:
        """The latest result of a call of `name` with these arguments; None when there was none."""
        found = [result for called, given, result in self.calls if called == name and args.items() <= given.items()]
        return found[-1] if found else None


def _decoded(content: str) -> Any:
    try:
        return json.loads(content)
    except ValueError:  # a tool's error in words
        return content


# The model's next turn: a tool call (its name and arguments), or its answer in words, which ends the agent.
Script = Callable[[History], "tuple[str, dict[str, Any]] | str"]


class ScriptedModel(ThreadingHTTPServer):
    """`POST /v1/chat/completions`, answering one tool call a turn (or the script's answer), as OpenAI's API
    shapes it; every request is kept."""

    def __init__(self, script: Script, host: str = "127.0.0.1") -> None:
        super().__init__((host, 0), _Handler)
        self.script = script
        self.requests: list[dict[str, Any]] = []

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"{'https' if isinstance(self.socket, ssl.SSLSocket) else 'http'}://{host}:{port}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedModel

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        if self.path != "/v1/chat/completions":  # as OpenAI answers a path it does not serve
            self._answer(
                404, {"error": {"message": f"Invalid URL (POST {self.path})", "type": "invalid_request_error"}}
            )
            return
        self.server.requests.append({"authorization": self.headers.get("authorization"), "path": self.path, **body})
        turn = len(self.server.requests)
        step = self.server.script(History(body["messages"]))
        if isinstance(step, str):
            finish_reason, message = "stop", {"role": "assistant", "content": step}
        else:
            name, arguments = step
            call = {
                "id": f"call_{turn}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            finish_reason, message = "tool_calls", {"role": "assistant", "content": None, "tool_calls": [call]}
        # Tokens as a script counts them: 10 a message read, 5 a turn written.
        usage = {"prompt_tokens": 10 * len(body["messages"]), "completion_tokens": 5}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        if body.get("stream"):
            self._stream(turn, body, finish_reason, message, usage)
            return
        answer = {
            "id": f"chatcmpl-{turn}",
            "object": "chat.completion",
            "created": 1772460000,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": finish_reason, "message": message}],
            "usage": usage,
        }
        self._answer(200, answer)

    def _stream(
        self, turn: int, body: dict[str, Any], finish_reason: str, message: dict[str, Any], usage: dict[str, int]
    ) -> None:
        """The answer as server-sent chunks, as OpenAI streams one: the role, the content in two pieces (or the
        tool call's arguments in two), the finish, and the usage when the request asks for it."""
        head = {"id": f"chatcmpl-{turn}", "object": "chat.completion.chunk", "created": 1772460000}
        head["model"] = body["model"]
        if message.get("tool_calls"):
            call = message["tool_calls"][0]
            arguments = call["function"]["arguments"]
            first = {**call, "index": 0, "function": {"name": call["function"]["name"], "arguments": arguments[:3]}}
            pieces = [{"tool_calls": [first]}, {"tool_calls": [{"index": 0, "function": {"arguments": arguments[3:]}}]}]
        else:
            pieces = [{"content": message["content"][:4]}, {"content": message["content"][4:]}]
        deltas = [{"role": "assistant"}, *pieces]
        chunks = [{**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]} for delta in deltas]
        chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish_reason}]})
        if (body.get("stream_options") or {}).get("include_usage"):
            chunks.append({**head, "choices": [], "usage": usage})
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()  # no length: the stream ends with the connection
        for chunk in chunks:
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")
        self.close_connection = True

    def _answer(self, status: int, answer: dict[str, Any]) -> None:
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def scripted_model(
    script: Script, tls: ssl.SSLContext | None = None, host: str = "127.0.0.1"
) -> Iterator[ScriptedModel]:
    """The scripted model, serving on a free port of `host` while the block runs (over TLS with `tls`'s
    certificate)."""
    server = ScriptedModel(script, host)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def alone(agent: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The example agent `agent` (its file's stem) run with nothing of a world's or a model's environment but
    `env`."""
    return subprocess.run(
        [sys.executable, str(AGENTS / f"{agent}.py")],
        input="Say hello.",
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
