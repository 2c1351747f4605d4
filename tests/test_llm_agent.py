"""examples/agents/llm_agent.py, end to end through a scene with people, against a scripted model: a local
OpenAI-compatible chat-completions endpoint whose every reply is decided from the tool results so far (no
network, no key). The model's key reaches the agent by `--pass-env` and is written nowhere."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tests.ports import free_port

from soundstage.runner import run_scenes

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-scripted-model-0123456789"
ASK_LAURA = "Hi Laura, Northwind says they were charged twice. Which invoice is it, and what is the impact on them?"


class History:
    """The tool calls of the conversation so far, with their results."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in messages if m["role"] == "tool"}
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

    def reply_from(self, person: str, channel: str) -> str | None:
        read = self.result("slack_read", channel=channel) or []
        return next((m["text"] for m in reversed(read) if m.get("user") == person), None)


def refund_approval(history: History) -> tuple[str, dict[str, Any]]:
    """The next tool call for seeds/refund-approval.yaml: ask Laura, take her answer to Priya, confirm to
    the customer once Priya approves."""
    channels = history.result("slack_channels")
    if channels is None:
        return "slack_channels", {}
    shared = next(c["id"] for c in channels if c["name"] == "ext-northwind")
    messages = history.result("slack_read", channel=shared)
    if messages is None:
        return "slack_read", {"channel": shared}
    request = next(m for m in messages if "charged twice" in m["text"])
    people = history.result("slack_people")
    if people is None:
        return "slack_people", {}
    laura, priya = (next(p["id"] for p in people if p["name"] == name) for name in ("laura", "priya"))
    for person in (laura, priya):
        opened = history.result("slack_open_dm", user=person)
        if opened is None:
            return "slack_open_dm", {"user": person}
        dm = opened["channel"]
        facts = history.reply_from(laura, history.result("slack_open_dm", user=laura)["channel"])
        question = (
            ASK_LAURA
            if person == laura
            else (
                f"Hi Priya, Northwind was charged twice. Laura says: {facts}\n"
                "Can you approve a refund of the duplicate charge?"
            )
        )
        if history.result("slack_post", channel=dm) is None:
            return "slack_post", {"channel": dm, "text": question}
        if history.reply_from(person, dm) is None:  # not yet: let time pass, then read again
            name, _, _ = history.calls[-1]
            return ("slack_read", {"channel": dm}) if name == "wait" else ("wait", {"duration": "30s"})
    invoice = re.search(r"INV-\d+", facts or "").group(0)  # type: ignore[union-attr]
    if history.result("slack_post", channel=shared) is None:
        text = (
            f"Hi Nina, sorry for the trouble. We have approved a refund of the duplicate charge on invoice {invoice}."
        )
        return "slack_post", {"channel": shared, "thread_ts": request["ts"], "text": text}
    return "finish", {"summary": f"Refund of {invoice} approved by Priya and confirmed to Northwind"}


class ScriptedModel(ThreadingHTTPServer):
    """`POST /v1/chat/completions`, answering one tool call a turn, as OpenAI's API shapes it."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[dict[str, Any]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


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
        name, arguments = refund_approval(History(body["messages"]))
        answer = {
            "id": f"chatcmpl-{turn}",
            "object": "chat.completion",
            "created": 1772460000,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": f"call_{turn}",
                                "type": "function",
                                "function": {"name": name, "arguments": json.dumps(arguments)},
                            }
                        ],
                    },
                }
            ],
        }
        self._answer(200, answer)

    def _answer(self, status: int, answer: dict[str, Any]) -> None:
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def model() -> Iterator[ScriptedModel]:
    server = ScriptedModel()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_the_llm_agent_passes_a_people_scene_against_a_scripted_model(
    model: ScriptedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    command = shlex.join([sys.executable, str(ROOT / "examples" / "agents" / "llm_agent.py")])
    run = run_scenes(
        [str(ROOT / "seeds" / "refund-approval.yaml")],
        command,
        out=tmp_path / "runs",
        timeout=120,
        pass_env=["OPENAI_API_KEY"],
        env={"OPENAI_BASE_URL": model.url, "MODEL": "scripted"},
    )
    (result,) = run.results
    folder = Path(result.folder)
    assert (result.outcome, result.failed_checks, result.exit_code) == ("passed", [], 0), (
        folder / "agent.log"
    ).read_text()
    assert (folder / "output.txt").read_text() == "Refund of INV-20931 approved by Priya and confirmed to Northwind\n"

    first = model.requests[0]
    assert (first["path"], first["authorization"], first["model"]) == (
        "/v1/chat/completions",
        f"Bearer {KEY}",
        "scripted",
    )
    assert first["messages"][1] == {"role": "user", "content": json.loads((folder / "scene.json").read_text())["task"]}
    offered = {entry["function"]["name"] for entry in first["tools"]}
    assert {"slack_channels", "slack_read", "slack_post", "wait", "finish"} <= offered, offered
    # The scene's agent has no GitHub or PagerDuty user, so no token for them (Datadog's keys are every world's).
    assert not any(name.startswith(("github_", "pagerduty_")) for name in offered), offered
    called = [name for name, _, _ in History(model.requests[-1]["messages"]).calls]
    assert called.count("wait") >= 2  # colleagues answered in simulated time
    for path in Path(run.folder).rglob("*"):
        if path.is_file():
            assert KEY not in path.read_text(errors="replace"), path


AGENT = ROOT / "examples" / "agents" / "llm_agent.py"


def _alone(**env: str) -> subprocess.CompletedProcess[str]:
    """The agent run with nothing of a world's or a model's environment but `env`."""
    settings = {"PATH": os.environ.get("PATH", ""), **env}
    return subprocess.run(
        [sys.executable, str(AGENT)],
        input="Say hello.",
        env=settings,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_without_a_key_or_a_model_url_the_agent_stops_at_once_saying_which_variable_to_set() -> None:
    ended = _alone()

    assert (ended.returncode, ended.stdout) == (2, "")
    assert ended.stderr == (
        "llm_agent: set OPENAI_API_KEY (soundstage run ... --pass-env OPENAI_API_KEY), or OPENAI_BASE_URL for a "
        "model that needs no key (--env OPENAI_BASE_URL=http://localhost:11434/v1)\n"
    )


def test_a_model_that_cannot_be_reached_or_refuses_is_one_line_too(model: ScriptedModel) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    unreachable = _alone(OPENAI_BASE_URL=url)
    refused = _alone(OPENAI_BASE_URL=model.url.replace("/v1", "/v0"), OPENAI_API_KEY=KEY)

    assert unreachable.returncode == 2 and unreachable.stderr.startswith(
        f"llm_agent: the model at {url}/chat/completions (OPENAI_BASE_URL) could not be reached: "
    )
    assert (refused.returncode, refused.stderr.count("\n")) == (2, 1)
    assert refused.stderr.startswith(f"llm_agent: the model at {model.url[:-3]}/v0/chat/completions answered 404: ")
