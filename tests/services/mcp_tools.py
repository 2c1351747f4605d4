"""Calling a service's MCP tools as an agent does, through the official SDK's client on the service's own
endpoint with the service's own credential, and reading the one logged call each tool call makes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult


def credential_headers(live: Any, service: str) -> dict[str, str]:
    """The headers the service's REST API takes its agent's credential in."""
    env = live.env
    return {
        "slack": {"Authorization": f"Bearer {env.get('SLACK_BOT_TOKEN')}"},
        "github": {"Authorization": f"Bearer {env.get('GITHUB_TOKEN')}"},
        "datadog": {"DD-API-KEY": env.get("DD_API_KEY", ""), "DD-APPLICATION-KEY": env.get("DD_APP_KEY", "")},
        "pagerduty": {"Authorization": f"Token token={env.get('PAGERDUTY_TOKEN')}"},
        "calendar": {"Authorization": f"Bearer {env.get('GOOGLE_OAUTH_TOKEN')}"},
        "gmail": {"Authorization": f"Bearer {env.get('GOOGLE_OAUTH_TOKEN')}"},
    }[service]


def call_tool_result(url: str, headers: dict[str, str], tool: str, arguments: dict[str, Any]) -> CallToolResult:
    async def run() -> CallToolResult:
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await session.call_tool(tool, arguments)

    return asyncio.run(run())


class Called:
    """A tool call's result (its text, and as JSON where it is JSON) and the one call it logged."""

    def __init__(self, result: CallToolResult, event: dict[str, Any]) -> None:
        self.result = result
        self.text: str = result.content[0].text  # type: ignore[union-attr]
        self.error = result.is_error
        self.event = event

    @property
    def json(self) -> Any:
        return json.loads(self.text)


def call(
    live: Any, service: str, tool: str, arguments: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> Called:
    """`tool` called on the service's endpoint (with the service's credential, or `headers`); asserts it logged
    exactly one call, through that tool."""
    before = live.world.log.last_seq
    url = live.env[f"{service.upper()}_MCP_URL"]
    result = call_tool_result(url, headers or credential_headers(live, service), tool, arguments or {})
    events = live.trace(after=before)
    assert len(events) == 1, events
    [event] = events
    assert (event["service"], event["mcp"]) == (service, {"tool": tool, "arguments": arguments or {}})
    return Called(result, event)


def rest(live: Any, service: str, method: str, path: str, **kwargs: Any) -> Any:
    """The JSON answer of the service's REST API to a call made directly, as the agent would, at the service's
    URL in the world (whose answers' links hang from it, as the tools' do)."""
    url = live.urls[service] + path
    client = live.stage.https if url.startswith("https:") else live.stage.http
    headers = {
        **credential_headers(live, service),
        "User-Agent": "probe",
        "Content-Type": "application/json; charset=utf-8",  # as the MCP tools send it
        **kwargs.pop("headers", {}),
    }
    return client.request(method, url, headers=headers, **kwargs).json()
