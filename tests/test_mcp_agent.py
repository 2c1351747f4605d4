"""examples/agents/mcp_agent.py, end to end: `soundstage run` of a shipped scene with the agent that knows only the
world's MCP endpoint, driven by the scripted model of tests/models.py (no network, no key). Every call it makes
is an MCP tool's, kept in the trace with its tool and named by `explain`. That a scene's checks give the same
verdict for the same actions over MCP and over REST is tests/server/test_mcp.py's
test_a_scenes_checks_give_the_same_verdict_over_mcp_and_rest."""

from __future__ import annotations

import html
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.models import AGENTS, History, Script, ScriptedModel, alone, scripted_model
from tests.ports import free_port
from typer.testing import CliRunner

from soundstage.cli import app
from soundstage.results import Trial
from soundstage.runner import run_scenes
from soundstage.services.github.mcp_tools import tools as github_tools
from soundstage.services.slack.mcp_tools import tools as slack_tools

SCENE = AGENTS.parent.parent / "seeds" / "csv-export.yaml"
KEY = "sk-scripted-model-0123456789"
DONE = "Answered the CSV export question in #support and marked it handled"
# What `soundstage explain` prints of the answer posted outside the question's thread (README, "Agents that speak
# MCP").
OUTSIDE_THE_THREAD = [
    "  answered_in_thread (state:slack.message): failed",
    (
        "    expected:    at least one Slack message in C2FJSP4FLTM ($support) from U954GCKR0NM ($bot) in the thread "
        "of 1772458800.000100 ($csv_question) whose text matches /Reports\\s*(>|&gt;)\\s*Exports/"
    ),
    (
        '    actual:      none of 129 messages matched; closest: message 1772460015.000100 ("The CSV export lives '
        'under Reports > Exports. Exports ove…"), but it is not in a thread'
    ),
    "    #5 2026-03-02T14:00:15Z slack POST /api/chat.postMessage 200 via mcp:slack/slack_post_message",
    "    #6 2026-03-02T14:00:15Z slack.messages 1772460015.000100 added, by #5",
]


def csv_export(in_thread: bool) -> Script:
    """The model's turns for seeds/csv-export.yaml over Slack's MCP tools: find #support's question and
    #engineering's note on the CSV export, answer with the note (in the question's thread, or not), react."""

    def next_turn(history: History) -> tuple[str, dict[str, Any]] | str:
        listed = history.result("slack_list_channels")
        if listed is None:
            return "slack_list_channels", {}
        channels = {c["name"]: c["id"] for c in listed["channels"]}
        support, engineering = channels["support"], channels["engineering"]
        for channel in (support, engineering):
            if history.result("slack_get_channel_history", channel_id=channel) is None:
                return "slack_get_channel_history", {"channel_id": channel, "limit": 20}
        read = history.result("slack_get_channel_history", channel_id=support)["messages"]
        question = next(m for m in read if "CSV export" in m["text"] and "?" in m["text"])
        notes = history.result("slack_get_channel_history", channel_id=engineering)["messages"]
        note = next(html.unescape(m["text"]) for m in notes if "CSV export lives under" in m["text"])
        answer = "The CSV export lives under" + note.split("lives under", 1)[1]
        if in_thread and history.result("slack_reply_to_thread") is None:
            return "slack_reply_to_thread", {"channel_id": support, "thread_ts": question["ts"], "text": answer}
        if not in_thread and history.result("slack_post_message") is None:
            return "slack_post_message", {"channel_id": support, "text": answer}
        if history.result("slack_add_reaction") is None:
            reaction = {"channel_id": support, "timestamp": question["ts"], "reaction": "white_check_mark"}
            return "slack_add_reaction", reaction
        return DONE

    return next_turn


def attempt(model: ScriptedModel, out: Path, monkeypatch: pytest.MonkeyPatch) -> Trial:
    """One trial of csv-export by the MCP agent, the model's key passed on as a user passes it."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    run = run_scenes(
        [str(SCENE)],
        shlex.join([sys.executable, str(AGENTS / "mcp_agent.py")]),
        out=out,
        timeout=120,
        pass_env=["OPENAI_API_KEY"],
        env={"OPENAI_BASE_URL": model.url, "MODEL": "scripted"},
    )
    (result,) = run.results
    assert result.exit_code == 0, (Path(result.folder) / "agent.log").read_text()
    return result


def explain(folder: str, *options: str) -> str:
    explained = CliRunner().invoke(app, ["explain", folder, *options])
    assert explained.exit_code == 0, explained.output
    return explained.stdout


def test_the_mcp_agent_passes_a_shipped_scene_through_mcp_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with scripted_model(csv_export(in_thread=True)) as model:
        result = attempt(model, tmp_path, monkeypatch)
    folder = Path(result.folder)
    checks = json.loads((folder / "checks.json").read_text())
    assert (result.outcome, [c["id"] for c in checks if c["passed"] is not True]) == ("passed", [])
    assert (folder / "output.txt").read_text() == DONE + "\n"

    # Every call of the attempt came through a tool of the world's MCP endpoint, and the trace says which.
    trace = [json.loads(line) for line in (folder / "trace.jsonl").read_text().splitlines()]
    assert [(e["service"], e["operation"], e["mcp"]["tool"]) for e in trace] == [
        ("slack", "conversations.list", "slack_list_channels"),
        ("slack", "conversations.history", "slack_get_channel_history"),
        ("slack", "conversations.history", "slack_get_channel_history"),
        ("slack", "chat.postMessage", "slack_reply_to_thread"),
        ("slack", "reactions.add", "slack_add_reaction"),
    ]
    called = History(model.requests[-1]["messages"]).calls
    assert [e["mcp"]["arguments"] for e in trace] == [arguments for _, arguments, _ in called]

    # The model was offered the endpoint's tools as it lists them, and `finish`; the scene's agent has no GitHub
    # user, so none of GitHub's tools.
    first = model.requests[0]
    assert (first["authorization"], first["model"]) == (f"Bearer {KEY}", "scripted")
    offered = {entry["function"]["name"]: entry["function"] for entry in first["tools"]}
    assert {tool.name for tool in slack_tools.all()} | {"finish"} <= set(offered)
    assert not {tool.name for tool in github_tools.all()} & set(offered)
    post = next(tool for tool in slack_tools.all() if tool.name == "slack_reply_to_thread")
    assert offered[post.name]["parameters"] == post.input_schema

    assert explain(result.folder).splitlines()[1] == "  every required check passed"


def test_the_mcp_agent_fails_for_the_stated_reason_and_explain_names_the_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with scripted_model(csv_export(in_thread=False)) as model:
        result = attempt(model, tmp_path, monkeypatch)
    # The answer went to the channel, not the question's thread: the checks of the thread fail, and only they.
    assert (result.outcome, sorted(result.failed_checks)) == (
        "failed",
        ["answered_in_thread", "mentions_email_delivery"],
    )

    lines = explain(result.folder).splitlines()
    start = lines.index(OUTSIDE_THE_THREAD[0])
    assert lines[start : start + len(OUTSIDE_THE_THREAD)] == OUTSIDE_THE_THREAD
    [trial] = json.loads(explain(result.folder, "--json"))["trials"]
    posted = trial["failed"][0]["entries"][0]
    assert (posted["operation"], posted["mcp"]["tool"]) == ("chat.postMessage", "slack_post_message")


def refused(history: History) -> tuple[str, dict[str, Any]] | str:
    """A model that calls a tool the endpoint lacks, then one with arguments its schema refuses, then gives up."""
    if history.result("slack_delete_everything") is None:
        return "slack_delete_everything", {"all": True}
    if history.result("slack_post_message") is None:
        return "slack_post_message", {"channel_id": "C0NOPE", "text": 5}
    return "I could not do it."


def test_refused_tool_calls_are_results_the_model_reads_and_the_agent_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with scripted_model(refused) as model:
        result = attempt(model, tmp_path, monkeypatch)
    assert [(name, answer) for name, _, answer in History(model.requests[-1]["messages"]).calls] == [
        ("slack_delete_everything", "error: Unknown tool: slack_delete_everything"),
        ("slack_post_message", "error: invalid arguments: text: 5 is not of type 'string'"),
    ]
    folder = Path(result.folder)
    assert (folder / "output.txt").read_text() == "I could not do it.\n"
    trace = [json.loads(line) for line in (folder / "trace.jsonl").read_text().splitlines()]
    assert [(e["service"], e["status"], e["mcp"]["tool"]) for e in trace] == [
        ("mcp", 404, "slack_delete_everything"),
        ("slack", 400, "slack_post_message"),
    ]


def test_without_the_mcp_endpoint_or_when_it_cannot_be_reached_the_agent_stops_in_one_line() -> None:
    with scripted_model(csv_export(in_thread=True)) as model:
        unset = alone("mcp_agent", OPENAI_BASE_URL=model.url)
        url = f"http://127.0.0.1:{free_port()}/w/w0/mcp"
        unreachable = alone("mcp_agent", OPENAI_BASE_URL=model.url, SOUNDSTAGE_MCP_URL=url, SOUNDSTAGE_TOKEN="ss-x")
    assert (unset.returncode, unset.stdout, unset.stderr) == (
        2,
        "",
        "mcp_agent: no SOUNDSTAGE_MCP_URL and SOUNDSTAGE_TOKEN: run it with soundstage run, which sets them\n",
    )
    assert (unreachable.returncode, unreachable.stdout, unreachable.stderr) == (
        2,
        "",
        f"mcp_agent: the MCP endpoint at {url} could not be reached or refused: All connection attempts failed\n",
    )
    assert model.requests == []  # it stopped before asking the model anything
