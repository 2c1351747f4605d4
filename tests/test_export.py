"""`soundstage export RUN` (docs/cli.md): runs of the scripted example agent, and of the MCP agent whose model calls
go through the interception proxy (captured with their bodies, or capped), exported as JSONL that a plain reader
takes line by line and whose every record replays its trial's trace."""

from __future__ import annotations

import json
import shlex
import ssl
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme
from tests.models import AGENTS, ScriptedModel, scripted_model
from tests.test_mcp_agent import DONE, KEY, csv_export
from typer.testing import CliRunner

from soundstage.cli import app
from soundstage.results import Run
from soundstage.results.export import ExportFilter, tool_arguments, tool_name
from soundstage.runner import run_scenes
from soundstage.server.model_calls import ModelCapture

SCENE = AGENTS.parent.parent / "seeds" / "csv-export.yaml"
MODEL_HOST = "127.0.0.2"  # loopback, but not one the agent's NO_PROXY sends around the proxy


def export(*arguments: str) -> list[dict[str, Any]]:
    done = CliRunner().invoke(app, ["export", *arguments])
    assert done.exit_code == 0, done.output
    return [json.loads(line) for line in done.stdout.splitlines()]


def trace(record: dict[str, Any], run: Run) -> list[dict[str, Any]]:
    (trial,) = [t for t in run.results if (t.scene, t.trial) == (record["scene"], record["trial"])]
    return [json.loads(line) for line in (Path(trial.folder) / "trace.jsonl").read_text().splitlines()]


def tool_calls(messages: list[dict[str, Any]]) -> list[tuple[str, Any, Any]]:
    """Each tool call of a conversation: its name, its arguments and its result, decoded."""
    results = {m["tool_call_id"]: m["content"] for m in messages if m["role"] == "tool"}
    return [
        (call["function"]["name"], json.loads(call["function"]["arguments"]), json.loads(results[call["id"]]))
        for m in messages
        if m["role"] == "assistant"
        for call in m.get("tool_calls") or []
    ]


def test_a_run_of_the_scripted_agent_exports_its_trace_as_tool_calls(tmp_path: Path) -> None:
    run = run_scenes([str(SCENE)], shlex.join([sys.executable, str(AGENTS / "csv_export.py")]), trials=2, out=tmp_path)
    assert [t.outcome for t in run.results] == ["passed", "passed"]
    file = tmp_path / "export.jsonl"

    done = CliRunner().invoke(app, ["export", run.folder, "--output", str(file)])

    assert done.exit_code == 0, done.output
    records = [json.loads(line) for line in file.read_text().splitlines()]
    assert [
        (r["run"], r["scene"], r["trial"], r["outcome"], r["score"], r["source"], r["capped"]) for r in records
    ] == [(run.run_id, "csv-export", n, "passed", 1.0, "trace", False) for n in (1, 2)]
    for record in records:
        messages = record["messages"]
        calls = trace(record, run)
        folder = Path(run.folder) / "csv-export" / str(record["trial"])
        task = json.loads((folder / "scene.json").read_text())["task"]
        assert messages[0] == {"role": "user", "content": task}
        assert messages[-1] == {"role": "assistant", "content": (folder / "output.txt").read_text()}
        # Every call, in order: its name, arguments and answer as the trace holds them.
        assert tool_calls(messages) == [(tool_name(c), tool_arguments(c), c["response"]) for c in calls]
        assert [name for name, _, _ in tool_calls(messages)][:2] == ["slack_auth_test", "slack_conversations_list"]
    # The same run, by its id under --out, to stdout: the same bytes; filters.
    assert file.read_text() == CliRunner().invoke(app, ["export", run.run_id, "--out", str(tmp_path)]).stdout
    assert export(run.folder, "--passed") == records
    assert export(run.folder, "--scene", "csv-export") == records
    assert export(run.folder, "--scene", "another") == []
    assert export(run.folder, "--min-score", "1") == records
    scored = [run.results[0].model_copy(update={"score": score}) for score in (0.5, 0.75, None)]
    assert [ExportFilter(min_score=0.75).keeps(trial) for trial in scored] == [False, True, False]
    refused = CliRunner().invoke(app, ["export", run.folder, "--min-score", "1.5"])
    assert (refused.exit_code, "--min-score is a score from 0 to 1, not 1.5" in refused.output) == (2, True)


@pytest.fixture
def model_ca(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ssl.SSLContext:
    """The scripted model's TLS certificate for 127.0.0.2; the run's process (the proxy's) trusts its CA."""
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(tmp_path / "model-ca.pem"))
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "model-ca.pem"))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(MODEL_HOST).configure_cert(context)
    return context


@pytest.fixture
def model(model_ca: ssl.SSLContext) -> Iterator[ScriptedModel]:
    with scripted_model(csv_export(in_thread=True), model_ca, MODEL_HOST) as running:
        yield running


def intercepted(model: ScriptedModel, out: Path, monkeypatch: pytest.MonkeyPatch, capture: ModelCapture) -> Run:
    """One trial of csv-export by the MCP agent, its model reached through the interception proxy."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return run_scenes(
        [str(SCENE)],
        shlex.join([sys.executable, str(AGENTS / "mcp_agent.py")]),
        out=out,
        timeout=120,
        pass_env=["OPENAI_API_KEY"],
        env={"OPENAI_BASE_URL": model.url, "MODEL": "scripted"},
        intercept=True,
        capture=capture,
    )


def test_the_mcp_agents_own_conversation_is_exported_when_its_bodies_were_captured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model: ScriptedModel
) -> None:
    host = f"{MODEL_HOST}:{model.server_address[1]}"
    run = intercepted(model, tmp_path, monkeypatch, ModelCapture.of([host], bodies=True))
    (result,) = run.results
    assert (result.outcome, result.exit_code) == ("passed", 0), (Path(result.folder) / "agent.log").read_text()
    # Six model calls (five tools, then the answer) of 2, 4... 12 messages: 10 tokens a message read, 5 written.
    assert (result.counts.model_calls, result.counts.model_tokens, result.counts.model_refused) == (6, 450, 0)

    (own,) = export(run.folder)
    (seen,) = export(run.folder, "--messages", "trace")

    calls = [event for event in trace(own, run) if event["kind"] == "call" and event["service"] != "outside"]
    assert own["source"] == "model" and seen["source"] == "trace"
    assert own["messages"] == [*model.requests[-1]["messages"], {"role": "assistant", "content": DONE}]
    assert own["tools"] == model.requests[-1]["tools"]
    # Both replay the trace's MCP calls: the same tools, in the same order, with the same arguments.
    mcp = [(c["mcp"]["tool"], c["mcp"]["arguments"]) for c in calls]
    assert [(name, arguments) for name, arguments, _ in tool_calls(own["messages"])] == mcp
    assert [(name, arguments) for name, arguments, _ in tool_calls(seen["messages"])] == mcp
    assert seen["messages"][-1] == {"role": "assistant", "content": DONE + "\n"}


def test_a_trial_past_its_token_cap_is_refused_its_next_model_call_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model: ScriptedModel
) -> None:
    host = f"{MODEL_HOST}:{model.server_address[1]}"
    run = intercepted(model, tmp_path, monkeypatch, ModelCapture.of([host], max_tokens=50))
    (result,) = run.results

    # 25 then 45 tokens: the third call is refused, and the agent stops, saying why.
    assert len(model.requests) == 2
    assert (result.counts.model_calls, result.counts.model_tokens, result.counts.model_refused) == (3, 70, 1)
    assert result.exit_code == 2 and "token_cap" in (Path(result.folder) / "agent.log").read_text()
    saved = json.loads((Path(result.folder) / "result.json").read_text())
    assert saved["counts"]["model_refused"] == 1
    explained = CliRunner().invoke(app, ["explain", result.folder])
    assert "  model calls: 3, 70 tokens, 1 refused at its token cap" in explained.stdout.splitlines()
    (record,) = export(run.folder)
    assert (record["source"], record["capped"], record["outcome"]) == ("trace", True, result.outcome)
    with pytest.raises(AssertionError, match="no model call with its bodies"):
        export(run.folder, "--messages", "model")
