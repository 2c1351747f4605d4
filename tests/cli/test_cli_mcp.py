"""`soundstage mcp` (docs/mcp.md, "Over stdio"), launched as a harness launches an MCP server and driven by the
official SDK's stdio client: the tools of a world's endpoint, and each tool call in that world's trace."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from soundstage.services.datadog.mcp_tools import tools as datadog_tools
from soundstage.services.slack.mcp_tools import tools as slack_tools

ROOT = Path(__file__).parents[2]  # where `csv-export` is found, in seeds/
SLACK_TOOLS = [tool.name for tool in slack_tools.all()]
# The endpoint of every service in csv-export: its agent has Slack's tokens and Datadog's keys.
EVERY_TOOL = SLACK_TOOLS + [tool.name for tool in datadog_tools.all()]


def bridged(args: list[str], env: dict[str, str], steps: Callable[[ClientSession], Awaitable[Any]], log: Path) -> Any:
    """`steps` run in a session with `soundstage mcp ARGS` over its stdin and stdout; its stderr goes to `log`."""

    async def run() -> Any:
        command = StdioServerParameters(
            command=sys.executable, args=["-m", "soundstage", "mcp", *args], env=_base_env() | env, cwd=ROOT
        )
        with log.open("w") as errors:
            async with stdio_client(command, errlog=errors) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                return await steps(session)

    return asyncio.run(run())


def _base_env() -> dict[str, str]:
    return {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}


def support_and_question(state: dict[str, Any]) -> tuple[str, str]:
    support = next(c["id"] for c in state["slack.channels"] if c.get("name") == "support")
    question = next(m["ts"] for m in state["slack.messages"] if m["channel"] == support and "CSV export" in m["text"])
    return support, question


def react(support: str, question: str) -> Callable[[ClientSession], Awaitable[Any]]:
    """Lists the tools, then marks the question handled; answers the tools' names and the call's JSON."""

    async def steps(session: ClientSession) -> Any:
        listed = await session.list_tools()
        arguments = {"channel_id": support, "timestamp": question, "reaction": "white_check_mark"}
        result = await session.call_tool("slack_add_reaction", arguments)
        assert result.is_error is False, result.content
        return [tool.name for tool in listed.tools], json.loads(result.content[0].text)

    return steps


def reactions(trace: list[dict[str, Any]]) -> list[tuple[str, str, int, Any]]:
    return [(call["service"], call["path"], call["status"], call["mcp"]) for call in trace]


def test_a_live_world_by_its_control_url(stage, tmp_path):
    live = stage.world(scene="csv-export")
    support, question = support_and_question(live.state())
    control = f"{stage.url}/v1/worlds/{live.id}"
    env = {"SOUNDSTAGE_ADMIN_TOKEN": stage.server.admin_token}
    names, answer = bridged(["--world", control], env, react(support, question), tmp_path / "stderr")
    assert names == EVERY_TOOL
    assert answer == {"ok": True}
    arguments = {"channel_id": support, "timestamp": question, "reaction": "white_check_mark"}
    assert reactions(live.trace()) == [
        ("slack", "/api/reactions.add", 200, {"tool": "slack_add_reaction", "arguments": arguments})
    ]
    assert (tmp_path / "stderr").read_text() == ""
    checks = {check["id"]: check["passed"] for check in live.get("checks")["checks"]}
    assert checks["marked_handled"] is True


def test_one_services_endpoint_from_the_agents_own_environment(stage, tmp_path):
    """A harness run as the agent (`soundstage run --agent ...`) launches `soundstage mcp` with the world's
    variables: no option names the world."""
    live = stage.world(scene="csv-export")
    support, question = support_and_question(live.state())
    names, _ = bridged(["--service", "slack"], live.env, react(support, question), tmp_path / "stderr")
    assert names == SLACK_TOOLS
    [call] = live.trace()
    assert (call["path"], call["status"], call["mcp"]["tool"]) == ("/api/reactions.add", 200, "slack_add_reaction")
    bot = next(u["id"] for u in live.state()["slack.users"] if u["name"] == "stagebot")
    [message] = [m for m in live.state()["slack.messages"] if m["ts"] == question]
    assert [(r["name"], r["users"]) for r in message["reactions"]] == [("white_check_mark", [bot])]  # the bot's


def test_a_scene_made_into_a_world_on_a_running_server(stage, tmp_path):
    before = set(stage.server.hub.worlds)
    env = {"SOUNDSTAGE_ADMIN_TOKEN": stage.server.admin_token}

    async def steps(session: ClientSession) -> Any:
        [made] = set(stage.server.hub.worlds) - before  # the world is made before the harness's first answer
        support, question = support_and_question(stage.server.hub.worlds[made].state())
        return made, await react(support, question)(session)

    made, (names, answer) = bridged(["csv-export", "--server", stage.url], env, steps, tmp_path / "stderr")
    assert (names, answer) == (EVERY_TOOL, {"ok": True})
    world = stage.server.hub.worlds[made]
    assert (world.scene, [call.path for call in world.log.calls()]) == ("csv-export", ["/api/reactions.add"])
    assert (tmp_path / "stderr").read_text() == f"world {made} of csv-export: {stage.url}/v1/worlds/{made}\n"


def test_a_scene_on_a_server_of_its_own_graded_when_stdin_ends(tmp_path):
    log = tmp_path / "stderr"

    async def steps(session: ClientSession) -> Any:
        # The world's control URL and the admin token are on stderr while the bridge runs.
        found = re.match(r"world (\w+) of csv-export: (\S+) \(while this runs; admin token (\S+)\)\n", log.read_text())
        assert found is not None, log.read_text()
        async with httpx.AsyncClient(headers={"authorization": f"Bearer {found[3]}"}, timeout=30) as control:
            state = (await control.get(f"{found[2]}/state")).json()
            await react(*support_and_question(state))(session)
            return (await control.get(f"{found[2]}/trace")).json()

    trace = bridged(["csv-export"], {}, steps, log)
    assert [(call["path"], call["mcp"]["tool"]) for call in trace] == [("/api/reactions.add", "slack_add_reaction")]
    # The grade once stdin ended: only the reaction was done.
    grade = log.read_text().split("\n", 1)[1]
    assert grade.startswith("csv-export: failed\n")
    failed = re.findall(r"^  (\w+) \(", grade, re.MULTILINE)
    assert "marked_handled" not in failed and "answered_in_thread" in failed


def mcp_command(*args: str, env: dict[str, str] | None = None, lines: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "soundstage", "mcp", *args],
        env=_base_env() | (env or {}),
        input=lines,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_what_cannot_be_bridged_is_said_on_stderr(stage):
    live = stage.world(scene="csv-export")
    control = f"{stage.url}/v1/worlds/{live.id}"
    refused = {
        (): "no world to bridge to: give a SCENE or --world, or run this where SOUNDSTAGE_MCP_URL",
        ("--world", control): "answered 401",  # no admin token
        ("--world", control, "csv-export"): "give a SCENE to make a world of, or --world, not both",
        ("--service", "github"): "this world's agent has no github credential",
    }
    for args, said in refused.items():
        env = live.env if args == ("--service", "github") else {}
        done = mcp_command(*args, env=env)
        assert (done.returncode, done.stdout) == (2, ""), args
        assert said in done.stderr, (args, done.stderr)
    done = mcp_command(
        "--world", f"{stage.url}/v1/worlds/wnope", env={"SOUNDSTAGE_ADMIN_TOKEN": stage.server.admin_token}
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert "wnope" in done.stderr
    assert live.trace() == []


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
}


def test_a_line_that_is_no_message_is_skipped_and_what_was_asked_is_answered_after_stdin_ends(stage):
    live = stage.world(scene="csv-export")
    done = mcp_command(env=live.env, lines=f"not json\n{json.dumps(INITIALIZE)}\n")  # then end of file at once
    assert done.returncode == 0, done.stderr
    [answer] = [json.loads(line) for line in done.stdout.splitlines()]
    assert (answer["id"], answer["result"]["serverInfo"]["name"]) == (1, "soundstage")
    assert done.stderr.startswith("soundstage mcp: stdin: ")


def test_an_endpoint_that_cannot_be_reached_exits_3():
    env = {"SOUNDSTAGE_MCP_URL": "http://127.0.0.1:1/w/wnope/mcp", "SOUNDSTAGE_TOKEN": "t"}
    done = mcp_command(env=env, lines=f"{json.dumps(INITIALIZE)}\n")
    assert (done.returncode, done.stdout) == (3, "")
    assert "error: cannot reach http://127.0.0.1:1/w/wnope/mcp" in done.stderr
