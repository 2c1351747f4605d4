"""Third-party MCP servers, installed from npm and run unmodified, complete shipped scenes through the
interception proxy (docs/interception.md, "Node"; docs/mcp.md): the servers call the vendors' real hosts with
Node 20's global fetch (@modelcontextprotocol/server-slack) and the `https` module (server-github's
node-fetch), soundstage's preload sends both through the proxy, and the world logs their REST calls. The
servers are driven over stdio by the official `mcp` SDK's client, as a desktop harness drives them.

The packages are those of package-lock.json, installed once (conftest.py)."""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import subprocess
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from soundstage.rehearsal import LiveWorld, Stage


@pytest.fixture(scope="module")
def intercepted() -> Iterator[Stage]:
    with Stage(intercept=True) as stage:
        yield stage


def agent_env(live: LiveWorld, **more: str) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), **live.env, **more}


def drive(node: Path, server: str, env: dict[str, str], steps: Callable[[Tool], Awaitable[Any]], log: Path) -> Any:
    """`steps` run against the installed server `server` (its command in node_modules/.bin), launched with
    `env`, over stdio; its stderr goes to `log`."""

    async def run() -> Any:
        params = StdioServerParameters(command=str(node / "node_modules" / ".bin" / server), env=env, cwd=node)
        with log.open("w") as errors:
            async with stdio_client(params, errlog=errors) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                return await steps(Tool(session))

    return asyncio.run(run())


class Tool:
    """Calls a tool and answers its result's JSON, failing on the tool's error."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session

    async def __call__(self, name: str, **arguments: Any) -> Any:
        result = await self.session.call_tool(name, arguments)
        assert result.is_error is not True, result.content
        return json.loads(result.content[0].text)


def rest_calls(live: LiveWorld) -> list[tuple[str, str, str, int, bool]]:
    """Every call, as (service, method, path, status, came over soundstage's own MCP endpoint)."""
    return [(c["service"], c["method"], c["path"], c["status"], c.get("mcp") is not None) for c in live.trace()]


async def answer_the_customer(tool: Tool) -> str:
    """csv-export, as examples/agents/csv_export.py does it with the server's tools alone: the question in
    #support, the answer in a channel the bot reads, a reply in the question's thread and a reaction."""
    channels = (await tool("slack_list_channels", limit=200))["channels"]
    support = next(c["id"] for c in channels if c["name"] == "support")
    history = (await tool("slack_get_channel_history", channel_id=support, limit=50))["messages"]
    question = next(m for m in history if "?" in m["text"] and "export" in m["text"].lower())
    answer = None
    for channel in channels:
        if not channel["is_member"] or channel["id"] == support or answer:
            continue
        for message in (await tool("slack_get_channel_history", channel_id=channel["id"], limit=200))["messages"]:
            text = html.unescape(message["text"])  # Slack escapes <, > and & in message text
            if "csv export" in text.lower() and "lives under" in text:
                answer = text
                break
    assert answer is not None
    where = answer.split("lives under", 1)[1].split(".")[0].strip()
    reply = f"The CSV export is under {where}. {answer.split('.', 1)[1].strip()}"
    posted = await tool("slack_reply_to_thread", channel_id=support, thread_ts=question["ts"], text=reply)
    reacted = await tool(
        "slack_add_reaction", channel_id=support, timestamp=question["ts"], reaction="white_check_mark"
    )
    assert (posted["ok"], reacted["ok"]) == (True, True)
    return reply


def test_slacks_reference_server_answers_the_csv_export_question(node_sdks, intercepted, tmp_path):
    live = intercepted.world("csv-export")
    team = live.state()["slack.teams"][0]["id"]  # the server's one setting besides the token
    env = agent_env(live, SLACK_TEAM_ID=team)
    reply = drive(node_sdks, "mcp-server-slack", env, answer_the_customer, tmp_path / "stderr")
    assert reply == (
        "The CSV export is under Reports > Exports. "
        "Exports over 50k rows run in the background and arrive by email within 10 minutes."
    )
    live.finish(output=reply).assert_passed()
    assert live.check().failed == []  # those not required too: no errors, a reasonable effort
    # Its calls reached slack.com: REST calls of the world (none over soundstage's own MCP), none outside.
    assert rest_calls(live) == [
        ("slack", "GET", "/api/conversations.list", 200, False),
        ("slack", "GET", "/api/conversations.history", 200, False),  # support
        ("slack", "GET", "/api/conversations.history", 200, False),  # general
        ("slack", "GET", "/api/conversations.history", 200, False),  # engineering, where the answer is
        ("slack", "POST", "/api/chat.postMessage", 200, False),
        ("slack", "POST", "/api/reactions.add", 200, False),
    ]


BROKEN = ("wrong", "fails", "errors", "broken", "crash")  # words of a bug report, not of a wish


async def triage(tool: Tool) -> str:
    """issue-triage, as examples/agents/issue_triage.py does it with the server's tools alone: the owners
    from CODEOWNERS, then each issue waiting for triage labelled and assigned to its folder's owner."""
    codeowners = await tool("get_file_contents", owner="acme", repo="platform", path=".github/CODEOWNERS")
    owners = dict(re.findall(r"^\s*/?([\w.-]+)/\s+@([\w-]+)", codeowners["content"], re.MULTILINE))
    lines = []
    for issue in await tool("list_issues", owner="acme", repo="platform", state="open", labels=["needs-triage"]):
        text = f"{issue['title']}\n{issue['body']}"
        [folder] = [folder for folder in owners if re.search(rf"\b{re.escape(folder)}/", text)]
        kind = "bug" if any(word in text.lower() for word in BROKEN) else "enhancement"
        number = issue["number"]
        await tool(
            "update_issue",
            owner="acme",
            repo="platform",
            issue_number=number,
            labels=[kind],
            assignees=[owners[folder]],
        )
        lines.append(f"#{number} {kind} -> {owners[folder]}")
    return "\n".join(lines)


def test_githubs_reference_server_triages_the_issues(node_sdks, intercepted, tmp_path):
    live = intercepted.world("issue-triage")
    env = agent_env(live, GITHUB_PERSONAL_ACCESS_TOKEN=live.env["GITHUB_TOKEN"])  # the name the server reads
    output = drive(node_sdks, "mcp-server-github", env, triage, tmp_path / "stderr")
    assert output == "#3 bug -> maya\n#2 enhancement -> alex\n#1 bug -> omar"
    live.finish(output=output).assert_passed()
    assert live.check().failed == []
    assert rest_calls(live) == [
        ("github", "GET", "/repos/acme/platform/contents/.github/CODEOWNERS", 200, False),
        ("github", "GET", "/repos/acme/platform/issues", 200, False),
        *[("github", "PATCH", f"/repos/acme/platform/issues/{n}", 200, False) for n in (3, 2, 1)],
    ]


PROBE = """
name: node-proxy
world: acme
task: Reach Slack, Datadog and another host.
agent: {slack_user: $bot, datadog_user: $bot_dd}
"""


def test_node_20s_fetch_and_https_module_follow_the_proxy_but_for_no_proxy(node_sdks, intercepted):
    """The preload's three roads, for each way of making a request: a vendor's host into the world, another
    host through the proxy (which logs it), soundstage's own https URL around it."""
    live = intercepted.world(scene_yaml=PROBE)
    own = f"{intercepted.hub.tls.base(intercepted.url)}/w/{live.id}/datadog/api/v1/validate"  # type: ignore[union-attr]
    done = subprocess.run(
        ["node", "proxied.js"],
        cwd=node_sdks,
        env=agent_env(live, OWN_URL=own),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    seen = json.loads(done.stdout)
    me = live.state()["slack.users"]
    bot = next(user["id"] for user in me if user["name"] == "stagebot")
    for way in ("fetch", "https"):
        status, answer = seen["vendor"][way]
        assert (status, answer["ok"], answer["user_id"]) == (200, True, bot)
        assert seen["outside"][way][0] == "failed"  # the proxy answered 502: no such host
        assert seen["own"][way] == [200, {"valid": True}]
    assert rest_calls(live) == [
        *[("slack", "GET", "/api/auth.test", 200, False)] * 2,
        *[("outside", "CONNECT", "/soundstage-test.invalid:443", 502, False)] * 2,
        *[("datadog", "GET", "/api/v1/validate", 200, False)] * 2,
    ]
