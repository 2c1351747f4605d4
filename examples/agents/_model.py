"""What the model-driven example agents share (llm_agent.py, mcp_agent.py): the conversation with any
OpenAI-compatible chat-completions endpoint, in which the model calls the agent's tools until it is done.

Settings, from the environment: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY, MODEL
(default gpt-4o-mini), MAX_TURNS (default 40). Without a key or a model's URL (a local model may need no key),
when the model cannot be reached or refuses, or after MAX_TURNS turns, the conversation raises `Stopped`, which
the agent turns into one line on stderr (its `agent.log` under soundstage) and exit code 2.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import httpx

DEFAULT_MODEL_URL = "https://api.openai.com/v1"
# Characters of a tool's result the model is shown: enough for a vendor's own answer (MCP tools give them whole,
# a Slack channel list runs to several thousand), little enough for a small model's context.
RESULT_LIMIT = 20_000
FINISH = {
    "name": "finish",
    "description": "End the attempt once the task is done.",
    "parameters": {
        "type": "object",
        "properties": {"summary": {"type": "string", "description": "one line: what was done"}},
        "required": ["summary"],
    },
}

# Runs one tool the model called, by its name and arguments; its result is shown to the model as JSON (text as
# it is). A failing call should give a result saying so, not raise: the model can recover.
Run = Callable[[str, dict[str, Any]], Any]


class Stopped(Exception):
    """Why the agent cannot go on."""


def stop(why: BaseException | str) -> NoReturn:
    """Ends the agent with one line on stderr, named by its program, not a traceback."""
    print(f"{Path(sys.argv[0]).stem}: {why}", file=sys.stderr)
    sys.exit(2)


def model_url() -> str:
    """The model's chat-completions endpoint; `Stopped` when neither a key nor a model's URL is set."""
    if not os.environ.get("OPENAI_API_KEY") and not os.environ.get("OPENAI_BASE_URL"):
        raise Stopped(
            "set OPENAI_API_KEY (soundstage run ... --pass-env OPENAI_API_KEY), or OPENAI_BASE_URL for a model "
            "that needs no key (--env OPENAI_BASE_URL=http://localhost:11434/v1)"
        )
    return os.environ.get("OPENAI_BASE_URL", DEFAULT_MODEL_URL).rstrip("/") + "/chat/completions"


def converse(url: str, system: str, task: str, tools: list[dict[str, Any]], run: Run) -> str:
    """Talks with the model at `url` until it is done, offering it `tools` (function schemas: name, description,
    parameters) and `finish`. Answers the agent's output: the summary of the model's `finish` call, or its
    answer without a tool call."""
    offered = [{"type": "function", "function": schema} for schema in [*tools, FINISH]]
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": task}]
    turns = int(os.environ.get("MAX_TURNS", "40"))
    for _ in range(turns):
        reply = _chat(url, messages, offered)
        messages.append({key: value for key, value in reply.items() if value is not None})
        calls = reply.get("tool_calls") or []
        if not calls:
            return reply.get("content") or ""
        for tool_call in calls:
            name, arguments = tool_call["function"]["name"], _arguments(tool_call["function"]["arguments"])
            if name == FINISH["name"]:
                return str(arguments.get("summary", "")) if isinstance(arguments, dict) else ""
            if isinstance(arguments, dict):
                result = run(name, arguments)
            else:
                result = {"error": f"the arguments are not a JSON object: {arguments}"}
            text = result if isinstance(result, str) else json.dumps(result, default=str)
            messages.append({"role": "tool", "tool_call_id": tool_call["id"], "content": text[:RESULT_LIMIT]})
    raise Stopped(f"gave up: the model neither finished nor answered in {turns} turns (MAX_TURNS)")


def _arguments(text: str | None) -> Any:
    """A tool call's arguments, or why they cannot be read."""
    try:
        return json.loads(text or "{}")
    except ValueError as exc:
        return str(exc)


def _chat(url: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
    try:
        response = httpx.post(
            url,
            headers={"authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")},
            json={"model": os.environ.get("MODEL", "gpt-4o-mini"), "messages": messages, "tools": tools},
            timeout=120,
        )
    except httpx.HTTPError as exc:
        raise Stopped(f"the model at {url} (OPENAI_BASE_URL) could not be reached: {exc}") from None
    if response.is_error:
        raise Stopped(f"the model at {url} answered {response.status_code}: {' '.join(response.text.split())[:300]}")
    return response.json()["choices"][0]["message"]
