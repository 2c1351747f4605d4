"""The MCP endpoints (docs/mcp.md), through the official SDK's own client: tools listed and called, each call one
logged call of its REST operation; refusals; trace checks naming tools; a scene's verdict the same over MCP and
over REST."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from tests.server.test_isolation import EVERY_SERVICE

from soundstage.checks.explaining import entry_line
from soundstage.services.calendar.mcp_tools import tools as calendar_tools
from soundstage.services.datadog.mcp_tools import tools as datadog_tools
from soundstage.services.github.mcp_tools import tools as github_tools
from soundstage.services.pagerduty.mcp_tools import tools as pagerduty_tools
from soundstage.services.slack.mcp_tools import tools as slack_tools

Steps = Callable[[ClientSession], Awaitable[Any]]
# Every service's tools, in the order the endpoint of every service lists them.
SERVED = {t.service: t for t in (slack_tools, github_tools, datadog_tools, pagerduty_tools)}
# And Google Calendar's, whose account that world's agent does not have.
REGISTERED = {**SERVED, calendar_tools.service: calendar_tools}


def over_mcp(url: str, token: str | None, steps: Steps) -> Any:
    """`steps` run in a session of the SDK's client with `url`, the token sent as a bearer."""

    async def run() -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            try:
                return await steps(session)
            except MCPError as exc:  # raised here, not inside the client's task groups
                return exc

    answer = asyncio.run(run())
    if isinstance(answer, MCPError):
        raise answer
    return answer


def call(url: str, token: str, tool: str, arguments: dict[str, Any]) -> Any:
    return over_mcp(url, token, lambda session: session.call_tool(tool, arguments))


def ids(live) -> dict[str, str]:
    """The csv-export world's channel ids by name and the customer's question's ts."""
    state = live.state()
    channels = {c["name"]: c["id"] for c in state["slack.channels"] if c.get("name")}
    question = next(
        m for m in state["slack.messages"] if "CSV export" in m["text"] and m["channel"] == channels["support"]
    )
    return {**channels, "question": question["ts"]}


def test_the_environment_names_the_endpoints_of_the_services_the_agent_has(stage):
    live = stage.world(scene="csv-export")
    base = f"{stage.url}/w/{live.id}/mcp"
    assert {k: v for k, v in live.env.items() if k.endswith("_MCP_URL")} == {
        "SOUNDSTAGE_MCP_URL": base,
        "SLACK_MCP_URL": f"{base}/slack",
        "DATADOG_MCP_URL": f"{base}/datadog",  # the scene's world has Datadog's records, so the agent its keys
    }
    every = stage.world(EVERY_SERVICE)
    assert {k: v for k, v in every.env.items() if k.endswith("_MCP_URL")} == {
        "SOUNDSTAGE_MCP_URL": f"{stage.url}/w/{every.id}/mcp",
        **{f"{name.upper()}_MCP_URL": f"{stage.url}/w/{every.id}/mcp/{name}" for name in SERVED},
    }


def test_tools_are_listed_with_their_schemas(stage):
    live = stage.world(scene="csv-export")
    listed = over_mcp(live.env["SLACK_MCP_URL"], live.token, lambda s: s.list_tools())
    assert [t.name for t in listed.tools] == [t.name for t in slack_tools.all()]
    post = next(t for t in listed.tools if t.name == "slack_post_message")
    assert post.input_schema == {
        "type": "object",
        "properties": {
            "channel_id": {"type": "string", "description": "The channel's id."},
            "text": {"type": "string", "description": "The message's text."},
        },
        "required": ["channel_id", "text"],
    }
    assert live.trace() == []  # listing is no call on the world


def test_a_tool_call_is_one_logged_call_of_its_rest_operation(stage):
    live = stage.world(scene="csv-export")
    where = ids(live)
    before = live.world.log.last_seq
    result = call(
        live.env["SLACK_MCP_URL"], live.token, "slack_post_message", {"channel_id": where["support"], "text": "hi"}
    )
    answer = json.loads(result.content[0].text)
    assert result.is_error is False
    assert answer["ok"] is True and answer["channel"] == where["support"] and answer["message"]["text"] == "hi"
    [event] = live.trace(after=before)
    assert event["seq"] == before + 1
    assert (event["service"], event["method"], event["path"], event["operation"], event["status"]) == (
        "slack",
        "POST",
        "/api/chat.postMessage",
        "chat.postMessage",
        200,
    )
    assert event["mcp"] == {"tool": "slack_post_message", "arguments": {"channel_id": where["support"], "text": "hi"}}
    assert event["body"] == {"channel": where["support"], "text": "hi"}
    assert event["response"] == answer
    assert [m["text"] for m in live.state()["slack.messages"] if m["ts"] == answer["ts"]] == ["hi"]


def test_a_failed_rest_call_is_the_tools_error_with_the_vendors_answer(stage):
    live = stage.world(scene="csv-export")
    result = call(live.env["SLACK_MCP_URL"], live.token, "slack_post_message", {"channel_id": "C0NOPE", "text": "hi"})
    assert result.is_error is True
    assert json.loads(result.content[0].text) == {"ok": False, "error": "channel_not_found"}
    [event] = live.trace()
    assert event["error"] is True and event["mcp"]["tool"] == "slack_post_message"


def test_an_unknown_tool_is_mcps_error_and_counted_as_unimplemented(stage):
    live = stage.world(scene="csv-export")
    with pytest.raises(MCPError) as raised:
        call(live.env["SLACK_MCP_URL"], live.token, "slack_delete_everything", {"all": True})
    assert (raised.value.code, raised.value.message) == (-32602, "Unknown tool: slack_delete_everything")
    [event] = live.trace()
    assert (event["service"], event["path"], event["status"], event["unimplemented"]) == ("slack", "/mcp", 404, True)
    assert event["mcp"] == {"tool": "slack_delete_everything", "arguments": {"all": True}}


def test_arguments_the_schema_refuses_are_the_tools_error_and_change_nothing(stage):
    live = stage.world(scene="csv-export")
    where = ids(live)
    messages = len(live.state()["slack.messages"])
    result = call(
        live.env["SLACK_MCP_URL"], live.token, "slack_post_message", {"channel_id": where["support"], "text": 5}
    )
    assert result.is_error is True
    assert result.content[0].text == "invalid arguments: text: 5 is not of type 'string'"
    [event] = live.trace()
    assert (event["status"], event["error"], event["unimplemented"]) == (400, True, False)
    assert len(live.state()["slack.messages"]) == messages


def _initialize(stage, url: str, token: str | None) -> httpx.Response:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "probe", "version": "1"},
        },
    }
    return httpx.post(url, json=body, headers=headers, timeout=30)


@pytest.mark.parametrize("credential", ["none", "another world's", "another service's"])
def test_a_request_without_the_endpoints_credential_never_reaches_the_world(stage, credential):
    live = stage.world(EVERY_SERVICE)
    other = stage.world(EVERY_SERVICE)
    token = {"none": None, "another world's": other.token, "another service's": live.env["GITHUB_TOKEN"]}[credential]
    response = _initialize(stage, live.env["SLACK_MCP_URL"], token)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == 'Bearer error="invalid_token"'
    assert response.json()["error"] == "invalid_token"
    assert [e for e in live.events() if e["kind"] in ("call", "after_finish")] == []


def test_an_unknown_world_is_refused(stage):
    live = stage.world(scene="csv-export")
    url = live.env["SLACK_MCP_URL"].replace(live.id, "w" + "0" * 32)
    assert _initialize(stage, url, live.token).status_code == 401


def test_a_finished_world_refuses_and_logs_the_attempt_as_after_finish(stage):
    live = stage.world(scene="csv-export")
    finished = stage.http.post(f"{live.control}/finish", json={"output": ""})
    assert finished.status_code == 200
    response = _initialize(stage, live.env["SLACK_MCP_URL"], live.token)
    assert response.status_code == 401
    assert [(e["kind"], e["service"], e["status"]) for e in live.events() if e["kind"] == "after_finish"] == [
        ("after_finish", "slack", 401)
    ]
    assert live.trace() == []


def test_the_endpoint_of_every_service_gives_each_tool_its_services_credential(stage):
    live = stage.world(EVERY_SERVICE)
    url = live.env["SOUNDSTAGE_MCP_URL"]

    async def steps(session: ClientSession) -> Any:
        listed = await session.list_tools()
        me = await session.call_tool("get_me", {})
        search = await session.call_tool("conversations_search_messages", {"search_query": "CSV"})
        return listed, me, search

    listed, me, search = over_mcp(url, live.env["SOUNDSTAGE_TOKEN"], steps)
    shared = {"list_incidents", "get_incident"}  # Datadog's and PagerDuty's
    assert [t.name for t in listed.tools] == [
        f"{tools.service}_{t.name}" if t.name in shared else t.name for tools in SERVED.values() for t in tools.all()
    ]
    assert json.loads(me.content[0].text)["login"] == "stagebot"
    assert json.loads(search.content[0].text)["ok"] is True  # search.messages takes the user token alone
    trace = live.trace()
    assert [(e["service"], e["path"], e["mcp"]["tool"]) for e in trace] == [
        ("github", "/user", "get_me"),
        ("slack", "/api/search.messages", "conversations_search_messages"),
    ]
    with pytest.raises(MCPError):
        call(url, live.env["SOUNDSTAGE_TOKEN"], "nope", {})
    assert [(e["service"], e["unimplemented"]) for e in live.trace()][-1] == ("mcp", True)


def _solve_over_mcp(live) -> None:
    where = ids(live)
    url, token = live.env["SLACK_MCP_URL"], live.token

    async def steps(session: ClientSession) -> None:
        await session.call_tool("slack_get_channel_history", {"channel_id": where["engineering"]})
        reply = "It is under Reports > Exports; big exports arrive by email within 10 minutes."
        await session.call_tool(
            "slack_reply_to_thread", {"channel_id": where["support"], "thread_ts": where["question"], "text": reply}
        )
        await session.call_tool(
            "slack_add_reaction",
            {"channel_id": where["support"], "timestamp": where["question"], "reaction": "white_check_mark"},
        )

    over_mcp(url, token, steps)


def _solve_over_rest(live) -> None:
    where = ids(live)
    slack = live.slack()
    slack.conversations_history(channel=where["engineering"], limit=10)
    reply = "It is under Reports > Exports; big exports arrive by email within 10 minutes."
    slack.chat_postMessage(channel=where["support"], thread_ts=where["question"], text=reply)
    slack.reactions_add(channel=where["support"], timestamp=where["question"], name="white_check_mark")


def test_a_scenes_checks_give_the_same_verdict_over_mcp_and_rest(stage):
    over, rest = stage.world(scene="csv-export"), stage.world(scene="csv-export")
    _solve_over_mcp(over)
    _solve_over_rest(rest)
    verdicts = [{c["id"]: c["passed"] for c in live.get("checks")["checks"]} for live in (over, rest)]
    assert verdicts[0] == verdicts[1]
    assert all(verdicts[0].values()), verdicts[0]


def test_trace_checks_name_tools(stage):
    over, rest = stage.world(scene="csv-export"), stage.world(scene="csv-export")
    _solve_over_mcp(over)
    _solve_over_rest(rest)
    checks = [
        {"id": "replied", "trace": {"called": "mcp:slack/slack_reply_to_thread"}},
        {"id": "any_tool", "trace": {"called": "mcp:slack/slack_*", "times": {"exactly": 3}}},
        {"id": "rest", "trace": {"called": "slack:POST /api/reactions.add"}},
    ]

    def run(live) -> dict[str, Any]:
        response = stage.http.post(f"{live.control}/checks", json={"checks": checks})
        assert response.status_code == 200, response.text
        return {c["id"]: c for c in response.json()["checks"]}

    over_results, rest_results = run(over), run(rest)
    assert {k: c["passed"] for k, c in over_results.items()} == {"replied": True, "any_tool": True, "rest": True}
    assert {k: c["passed"] for k, c in rest_results.items()} == {"replied": False, "any_tool": False, "rest": True}
    assert rest_results["replied"]["actual"] == "none of 3 calls came through a slack MCP tool"


def test_explain_names_the_tool_of_a_call():
    event = {"seq": 4, "t": "T", "kind": "call", "service": "github", "method": "GET", "path": "/user", "status": 200}
    assert (
        entry_line({**event, "mcp": {"tool": "get_me", "arguments": {}}})
        == "#4 T github GET /user 200 via mcp:github/get_me"
    )
    assert entry_line(event) == "#4 T github GET /user 200"


@pytest.mark.parametrize(
    ("name", "license"),
    [("slack", "MIT"), ("github", "MIT"), ("datadog", "Apache-2.0"), ("pagerduty", "Apache-2.0"), ("calendar", "MIT")],
)
def test_every_tool_of_the_facts_file_is_bound_to_a_rest_call(name, license):
    tools = REGISTERED[name]
    assert [tool.name for tool in tools.all()] == list(tools.facts)
    assert {tools.source(tool.name)["license"] for tool in tools.all()} == {license}
    assert not set(tools.omitted) & set(tools.facts)  # a tool left out is not served as well


def test_github_issue_tools_write_and_read_as_rest_does(stage):
    live = stage.world(EVERY_SERVICE)
    url, token = live.env["GITHUB_MCP_URL"], live.env["GITHUB_TOKEN"]

    async def steps(session: ClientSession) -> Any:
        created = await session.call_tool("create_issue", {"owner": "acme", "repo": "orders", "title": "Probe"})
        number = json.loads(created.content[0].text)["number"]
        read = await session.call_tool("get_issue", {"owner": "acme", "repo": "orders", "issue_number": number})
        return created, read

    created, read = over_mcp(url, token, steps)
    issue = json.loads(created.content[0].text)
    assert created.is_error is False and issue["title"] == "Probe" and issue["user"]["login"] == "stagebot"
    assert json.loads(read.content[0].text)["number"] == issue["number"]
    assert [(e["method"], e["path"], e["status"], e["mcp"]["tool"]) for e in live.trace()] == [
        ("POST", "/repos/acme/orders/issues", 201, "create_issue"),
        ("GET", f"/repos/acme/orders/issues/{issue['number']}", 200, "get_issue"),
    ]
