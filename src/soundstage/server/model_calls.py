"""The agent's model calls, as the interception proxy captures them (docs/interception.md, "Model calls").

A model host (`api.openai.com`, `openrouter.ai`, and those a run names) reached through the proxy has its TLS
ended by the proxy, as a vendor's host has; each request inside is sent on to the host itself, its answer
passed back to the agent as it comes, and the call logged in the world as a `model_call` event: the model, the
answer's token usage, the wall time it took, and the bodies only when they are asked for. A world may have a
cap on the tokens its agent's model calls use: once the usage logged reaches it, the proxy answers the next
call itself, with an OpenAI-style error, and logs it as refused.

The usage comes from the model's own answer, never from the agent's request, so the agent cannot make it
less than it was; a streamed answer (`"stream": true`) carries it in its last chunk only when the request asks
(`stream_options.include_usage`), which the proxy adds to a capped world's streamed requests.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from ..clock import iso
from ..events import ModelCallEvent
from ..spec.fields import host_port
from ..world import World

# The OpenAI-compatible providers whose calls are captured by default: `host:port`, as a CONNECT names them.
DEFAULT_HOSTS = ("api.openai.com:443", "openrouter.ai:443")
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")


@dataclass(frozen=True)
class ModelCapture:
    """Which hosts' calls are captured (`host:port`, lower case), whether their bodies are kept, and the tokens
    a world's agent may use (None: no cap). The hosts `named` by the run besides the default ones are reached as
    those of a scene's `agent.allow` are: whatever their address, offline too (docs/interception.md)."""

    hosts: tuple[str, ...] = DEFAULT_HOSTS
    bodies: bool = False
    max_tokens: int | None = None
    named: tuple[str, ...] = ()

    @classmethod
    def of(cls, hosts: list[str] | None = None, bodies: bool = False, max_tokens: int | None = None) -> ModelCapture:
        """The default hosts and `hosts` (`host:port`, or a host alone for port 443). Raises ValueError for one
        that is not a host, or a cap below 1."""
        named = [host_port(host if _has_port(host) else f"{host}:443") for host in hosts or []]
        if max_tokens is not None and max_tokens < 1:
            raise ValueError("--max-tokens must be at least 1")
        return cls(tuple(dict.fromkeys([*DEFAULT_HOSTS, *named])), bodies, max_tokens, tuple(dict.fromkeys(named)))


def _has_port(host: str) -> bool:
    return host.rpartition(":")[2].isdigit() and not (host.count(":") > 1 and not host.startswith("["))


class Budget:
    """One world's capture: its settings and the tokens its model calls have used so far."""

    def __init__(self, capture: ModelCapture) -> None:
        self.capture = capture
        self.used = 0
        self._lock = threading.Lock()

    def spent(self) -> bool:
        """Whether the cap is reached: the next call is refused. Calls already under way finish."""
        cap = self.capture.max_tokens
        with self._lock:
            return cap is not None and self.used >= cap

    def charge(self, usage: dict[str, int] | None) -> None:
        if usage is not None:
            with self._lock:
                self.used += usage["total_tokens"]


def cap_error(budget: Budget) -> bytes:
    """The answer to a call past the cap, as OpenAI words a quota that is used up."""
    message = (
        f"soundstage: this trial's agent has used {budget.used} tokens, its cap of {budget.capture.max_tokens} "
        "(soundstage run --max-tokens): no more model calls are made in this trial"
    )
    return json.dumps({"error": {"message": message, "type": "insufficient_quota", "code": "token_cap"}}).encode()


def upstream_body(body: bytes, budget: Budget) -> bytes:
    """The request body to send on: as the agent sent it, but a capped world's streamed request asks for the
    usage in its last chunk, so the cap counts it."""
    request = _json(body)
    if budget.capture.max_tokens is None or not isinstance(request, dict) or request.get("stream") is not True:
        return body
    options = request.get("stream_options")
    if isinstance(options, dict) and options.get("include_usage") is True:
        return body
    request["stream_options"] = {**(options if isinstance(options, dict) else {}), "include_usage": True}
    return json.dumps(request, ensure_ascii=False).encode()


def log_call(
    world: World,
    budget: Budget,
    host: str,
    method: str,
    path: str,
    request: bytes,
    status: int,
    answer: bytes,
    latency_ms: int,
    refused: str | None = None,
) -> None:
    """Logs one model call in `world` and charges its usage to the budget; nothing once the world has finished."""
    asked = _json(request)
    stream, (model, usage, response) = _streamed(answer), _read(answer)
    if model is None and isinstance(asked, dict) and isinstance(asked.get("model"), str):
        model = asked["model"]
    budget.charge(usage)
    bodies = {"request": asked, "response": response} if budget.capture.bodies else {}
    with world.lock:
        if world.finished:
            return
        world.log.emit(
            ModelCallEvent,
            t=iso(world.now()),
            host=host,
            method=method,
            path=path,
            model=model,
            status=status,
            usage=usage,
            latency_ms=latency_ms,
            stream=stream,
            refused=refused,
            **bodies,
        )


def _json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:  # not JSON (nor UTF-8): kept as text, for the bodies
        return data.decode("utf-8", "replace") if data else None


def _streamed(answer: bytes) -> bool:
    return answer.lstrip().startswith((b"data:", b"event:", b":"))


def _read(answer: bytes) -> tuple[str | None, dict[str, int] | None, Any]:
    """The model an answer names, its usage and the answer as JSON: a stream's chunks put together into the one
    answer they make. Anything the answer does not say is None."""
    if not _streamed(answer):
        body = _json(answer)
        if not isinstance(body, dict):
            return None, None, body
        return _model(body), _usage(body.get("usage")), body
    chunks: list[dict[str, Any]] = []
    for line in answer.decode("utf-8", "replace").splitlines():
        data = line[5:].strip() if line.startswith("data:") else ""
        chunk = _json(data.encode()) if data and data != "[DONE]" else None
        if isinstance(chunk, dict):  # the Responses API's events carry the response, usage and all, in `response`
            chunks.append(chunk["response"] if isinstance(chunk.get("response"), dict) else chunk)
    model = next((name for chunk in chunks if (name := _model(chunk)) is not None), None)
    usage = next((used for chunk in reversed(chunks) if (used := _usage(chunk.get("usage"))) is not None), None)
    return model, usage, _assembled(chunks, model, usage)


def _model(body: dict[str, Any]) -> str | None:
    model = body.get("model")
    return model if isinstance(model, str) else None


def _usage(usage: Any) -> dict[str, int] | None:
    """Chat completions' usage (prompt, completion, total tokens), or the Responses API's (input, output)."""
    if not isinstance(usage, dict):
        return None
    prompt = _count(usage.get("prompt_tokens", usage.get("input_tokens")))
    completion = _count(usage.get("completion_tokens", usage.get("output_tokens")))
    if prompt is None or completion is None:
        return None
    # Never less than its parts: the cap counts the larger.
    total = max(_count(usage.get("total_tokens")) or 0, prompt + completion)
    return dict(zip(USAGE_FIELDS, (prompt, completion, total), strict=True))


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _assembled(chunks: list[dict[str, Any]], model: str | None, usage: dict[str, int] | None) -> dict[str, Any]:
    """A streamed chat completion as the one answer it makes: each choice's role, content and tool calls, each
    put together from its deltas."""
    choices: dict[int, dict[str, Any]] = {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or not isinstance(choice.get("delta"), dict):
                continue
            index = choice.get("index", 0) if isinstance(choice.get("index", 0), int) else 0
            made = choices.setdefault(index, {"index": index, "message": {"role": "assistant"}, "finish_reason": None})
            _add_delta(made["message"], choice["delta"])
            if choice.get("finish_reason") is not None:
                made["finish_reason"] = choice["finish_reason"]
    first = chunks[0] if chunks else {}
    return {
        "id": first.get("id"),
        "object": "chat.completion",
        "model": model,
        "choices": [choices[index] for index in sorted(choices)],
        "usage": usage,
    }


def _add_delta(message: dict[str, Any], delta: dict[str, Any]) -> None:
    if isinstance(delta.get("role"), str):
        message["role"] = delta["role"]
    if isinstance(delta.get("content"), str):
        message["content"] = message.get("content", "") + delta["content"]
    for call in delta.get("tool_calls") or []:
        if not isinstance(call, dict):
            continue
        calls = message.setdefault("tool_calls", [])
        index = call.get("index", len(calls)) if isinstance(call.get("index"), int) else len(calls)
        while len(calls) <= index:
            calls.append({"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
        made = calls[index]
        if isinstance(call.get("id"), str):
            made["id"] = call["id"]
        function = call.get("function")
        for part in ("name", "arguments"):
            if isinstance(function, dict) and isinstance(function.get(part), str):
                made["function"][part] += function[part]
