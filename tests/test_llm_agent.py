"""examples/agents/llm_agent.py, end to end through a scene with people, against a scripted model (tests/models.py:
a local OpenAI-compatible endpoint whose every reply is decided from the tool results so far; no network, no
key). The model's key reaches the agent by `--pass-env` and is written nowhere."""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.models import History, ScriptedModel, alone, scripted_model
from tests.ports import free_port

from soundstage.runner import run_scenes

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-scripted-model-0123456789"
ASK_LAURA = "Hi Laura, Northwind says they were charged twice. Which invoice is it, and what is the impact on them?"


def reply_from(history: History, person: str, channel: str) -> str | None:
    read = history.result("slack_read", channel=channel) or []
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
        facts = reply_from(history, laura, history.result("slack_open_dm", user=laura)["channel"])
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
        if reply_from(history, person, dm) is None:  # not yet: let time pass, then read again
            name, _, _ = history.calls[-1]
            return ("slack_read", {"channel": dm}) if name == "wait" else ("wait", {"duration": "30s"})
    invoice = re.search(r"INV-\d+", facts or "").group(0)  # type: ignore[union-attr]
    if history.result("slack_post", channel=shared) is None:
        text = (
            f"Hi Nina, sorry for the trouble. We have approved a refund of the duplicate charge on invoice {invoice}."
        )
        return "slack_post", {"channel": shared, "thread_ts": request["ts"], "text": text}
    return "finish", {"summary": f"Refund of {invoice} approved by Priya and confirmed to Northwind"}


@pytest.fixture
def model() -> Iterator[ScriptedModel]:
    with scripted_model(refund_approval) as server:
        yield server


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


def test_without_a_key_or_a_model_url_the_agent_stops_at_once_saying_which_variable_to_set() -> None:
    ended = alone("llm_agent")

    assert (ended.returncode, ended.stdout) == (2, "")
    assert ended.stderr == (
        "llm_agent: set OPENAI_API_KEY (soundstage run ... --pass-env OPENAI_API_KEY), or OPENAI_BASE_URL for a "
        "model that needs no key (--env OPENAI_BASE_URL=http://localhost:11434/v1)\n"
    )


def test_a_model_that_cannot_be_reached_or_refuses_is_one_line_too(model: ScriptedModel) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    unreachable = alone("llm_agent", OPENAI_BASE_URL=url)
    refused = alone("llm_agent", OPENAI_BASE_URL=model.url.replace("/v1", "/v0"), OPENAI_API_KEY=KEY)

    assert unreachable.returncode == 2 and unreachable.stderr.startswith(
        f"llm_agent: the model at {url}/chat/completions (OPENAI_BASE_URL) could not be reached: "
    )
    assert (refused.returncode, refused.stderr.count("\n")) == (2, 1)
    assert refused.stderr.startswith(f"llm_agent: the model at {model.url[:-3]}/v0/chat/completions answered 404: ")
