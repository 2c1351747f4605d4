"""A run's trials as training data (docs/cli.md, "soundstage export"): one JSON line a trial, its conversation in
OpenAI's chat format with its outcome.

A trial's messages are made one of two ways (`source`):
- `trace`: from what soundstage saw: the task as the user's message, then each call of the agent's to the world
  (its `trace.jsonl`, calls to the outside left out) as an assistant message with one tool call and the tool's
  message with the answer, then the agent's output as the last assistant message. An MCP tool's call is that
  tool with its arguments; a REST call is `<service>_<operation>` with the request's method, path, query and
  body as arguments (`tool_name`, `tool_arguments`). The tool's content is the answer's body as JSON text.
- `model`: the agent's own conversation, when its model calls were captured with their bodies
  (`--capture-bodies`): the messages (and tools) of its last answered model call, and that answer's message.
`auto` (the default) takes the agent's own conversation where there is one, the trace elsewhere.

The same run exports to the same bytes: trials in order of scene and number, each record's keys in one order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import UsageError
from ..events import JsonLines
from .run import Run
from .trial import Outcome, Trial

Source = Literal["auto", "trace", "model"]
# What OpenAI accepts as a function's name.
_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9_-]")
NAME_LIMIT = 64


@dataclass(frozen=True)
class ExportFilter:
    """Which trials are exported: those that passed alone (`passed`), those of `scenes` alone (all when empty),
    those scored `min_score` or more alone (a trial with no score is left out then)."""

    passed: bool = False
    scenes: tuple[str, ...] = ()
    min_score: float | None = None

    def keeps(self, trial: Trial) -> bool:
        return (
            (not self.passed or trial.outcome == "passed")
            and (not self.scenes or trial.scene in self.scenes)
            and (self.min_score is None or (trial.score is not None and trial.score >= self.min_score))
        )


def export_lines(run: Run, keep: ExportFilter = ExportFilter(), source: Source = "auto") -> Iterator[str]:
    """Each kept trial of `run` as one line of JSON (no line end), read from its folder. Raises UsageError
    naming a trial whose folder cannot be read."""
    for trial in sorted(run.results, key=lambda t: (t.scene, t.trial)):
        if keep.keeps(trial):
            yield json.dumps(trial_record(run.run_id, trial, source), ensure_ascii=False)


def trial_record(run_id: str, trial: Trial, source: Source = "auto") -> dict[str, Any]:
    """One trial's record, from its folder: its `trace.jsonl`, `scene.json` (the task) and `output.txt`."""
    folder = Path(trial.folder)
    try:
        trace = [event for _, event in JsonLines(folder / "trace.jsonl")]
        task = json.loads((folder / "scene.json").read_bytes()).get("task", "")
        output = (folder / "output.txt").read_text(encoding="utf-8")
    except (OSError, ValueError, AttributeError) as exc:
        raise UsageError(f"{trial.scene} #{trial.trial}: its folder {folder} cannot be read: {exc}") from None
    refused = trial.counts.model_refused
    made = record(run_id, trial.scene, trial.trial, trial.outcome, task, output, trace, refused, source)
    return {**made, "score": trial.score}


def record(
    run_id: str,
    scene: str,
    number: int,
    outcome: Outcome,
    task: str,
    output: str,
    trace: list[dict[str, Any]],
    refused: int = 0,
    source: Source = "auto",
) -> dict[str, Any]:
    """A trial's record from its parts: the trace's events as `trace.jsonl` holds them."""
    own = conversation(trace) if source != "trace" else None
    if source == "model" and own is None:
        raise UsageError(
            f"{scene} #{number}: no model call with its bodies was captured (run with --intercept --capture-bodies)"
        )
    made: dict[str, Any] = {"run": run_id, "scene": scene, "trial": number, "outcome": outcome}
    made["capped"] = refused > 0
    if own is not None:
        messages, tools = own
        made.update(source="model", messages=messages, **({"tools": tools} if tools else {}))
    else:
        made.update(source="trace", messages=trace_messages(task, output, trace))
    return made


def trace_messages(task: str, output: str, trace: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The user's task, each call to the world as a tool call and its answer, and the agent's output."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": task}]
    for event in trace:
        if event.get("kind") != "call" or event.get("service") == "outside":
            continue
        call_id = f"call_{event['seq']}"
        function = {"name": tool_name(event), "arguments": json.dumps(tool_arguments(event), ensure_ascii=False)}
        called = {"id": call_id, "type": "function", "function": function}
        messages.append({"role": "assistant", "content": None, "tool_calls": [called]})
        messages.append({"role": "tool", "tool_call_id": call_id, "content": _text(event.get("response"))})
    messages.append({"role": "assistant", "content": output})
    return messages


def tool_name(call: dict[str, Any]) -> str:
    """An MCP call's tool; a REST call's `<service>_<operation>` (`_http` when the operation is not known), in the
    characters and length OpenAI allows a function's name."""
    mcp = call.get("mcp")
    if isinstance(mcp, dict) and isinstance(mcp.get("tool"), str):
        return mcp["tool"]
    name = f"{call['service']}_{call.get('operation') or 'http'}"
    return _NOT_IN_NAME.sub("_", name)[:NAME_LIMIT]


def tool_arguments(call: dict[str, Any]) -> Any:
    """An MCP call's arguments; a REST call's method and path, and its query and body when it has them."""
    mcp = call.get("mcp")
    if isinstance(mcp, dict) and "tool" in mcp:
        return mcp.get("arguments", {})
    arguments: dict[str, Any] = {"method": call["method"], "path": call["path"]}
    if call.get("query"):
        arguments["query"] = call["query"]
    if call.get("body") is not None:
        arguments["body"] = call["body"]
    return arguments


def conversation(trace: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[Any]] | None:
    """The agent's own conversation: the messages and tools of its last model call answered with a message,
    whose bodies were captured, and that message; None when there is none."""
    last = None
    for event in trace:
        if event.get("kind") == "model_call" and event.get("status") == 200 and _answer(event) is not None:
            last = event
    if last is None:
        return None
    request = last["request"]
    tools = request.get("tools") if isinstance(request.get("tools"), list) else []
    return [*request["messages"], _answer(last)], tools


def _answer(event: dict[str, Any]) -> dict[str, Any] | None:
    """A model call's request messages' answer: its first choice's message, when both bodies are there."""
    request, response = event.get("request"), event.get("response")
    if not isinstance(request, dict) or not isinstance(request.get("messages"), list) or not isinstance(response, dict):
        return None
    choices = response.get("choices")
    first = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = first.get("message")
    return message if isinstance(message, dict) else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
