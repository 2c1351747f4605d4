"""A tool-calling agent that speaks MCP: it knows one MCP endpoint and a credential, nothing of the services' REST
APIs, and lets any OpenAI-compatible chat model use the endpoint's tools.

    soundstage run seeds/csv-export.yaml --agent "python examples/agents/mcp_agent.py" \
        --pass-env OPENAI_API_KEY --env OPENAI_BASE_URL=https://api.openai.com/v1 --env MODEL=gpt-4o-mini

It connects to SOUNDSTAGE_MCP_URL (the world's tools of every service the agent has a credential of; docs/mcp.md)
with the official `mcp` SDK's client over the streamable HTTP transport, sending SOUNDSTAGE_TOKEN as its bearer
token, lists the endpoint's tools and offers them to the model as they are listed (name, description, input
schema). It calls each tool the model calls and hands the model the tool's text back, and ends when the model
calls `finish` or answers without a tool call; what it prints last is its output. It has no tool to let
simulated time pass, so it suits scenes where nobody needs to be waited for.

The model's settings and the conversation are _model.py's, shared with llm_agent.py: OPENAI_BASE_URL,
OPENAI_API_KEY, MODEL, MAX_TURNS. Without them, or without the MCP endpoint, or when the model or the endpoint
cannot be reached or refuses, it stops with one line on stderr saying why, and exit code 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
from _model import Stopped, converse, model_url, stop
from anyio.from_thread import start_blocking_portal
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import PaginatedRequestParams

SYSTEM = (
    "You act in a company's tools through the tools given. Look before you act, change nothing the task does not "
    "ask you to, never share internal information in channels shared with customers, and call `finish` with a "
    "one-line summary when the task is done."
)


@asynccontextmanager
async def connected(url: str, token: str) -> AsyncIterator[ClientSession]:
    """An initialized session of the SDK's client with the endpoint at `url`."""
    async with (
        httpx2.AsyncClient(headers={"authorization": f"Bearer {token}"}, timeout=120) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def listed(session: ClientSession) -> list[dict[str, Any]]:
    """Every tool of the endpoint, page by page, as the model's function schemas."""
    schemas: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
        schemas += [
            {"name": tool.name, "description": tool.description or "", "parameters": tool.input_schema}
            for tool in page.tools
        ]
        cursor = page.next_cursor
        if not cursor:
            return schemas


async def called(session: ClientSession, name: str, arguments: dict[str, Any]) -> str:
    """The text of a tool's result; an error (the tool's own, or the protocol's) is text the model can read."""
    try:
        result = await session.call_tool(name, arguments)
    except MCPError as exc:  # an unknown tool, say: the server answers the protocol's error
        return f"error: {exc}"
    text = "\n".join(block.text for block in result.content if block.type == "text")
    return f"error: {text}" if result.is_error else text


def main() -> None:
    url = os.environ.get("SOUNDSTAGE_MCP_URL")
    try:
        model = model_url()
        if not url or not os.environ.get("SOUNDSTAGE_TOKEN"):
            raise Stopped("no SOUNDSTAGE_MCP_URL and SOUNDSTAGE_TOKEN: run it with soundstage run, which sets them")
        task = sys.stdin.read()
        # The session lives on an event loop in a thread of its own (anyio's blocking portal), so the
        # conversation, shared with llm_agent.py, stays plain synchronous code calling the tools through it.
        with (
            start_blocking_portal() as portal,
            portal.wrap_async_context_manager(connected(url, os.environ["SOUNDSTAGE_TOKEN"])) as session,
        ):
            tools = portal.call(listed, session)

            def run(name: str, arguments: dict[str, Any]) -> str:
                return portal.call(called, session, name, arguments)

            output = converse(model, SYSTEM, task, tools, run)
    # The SDK's task groups wrap what ends the session, however it ends.
    except* Stopped as group:
        stop(_first(group))
    except* (httpx2.HTTPError, MCPError) as group:
        stop(f"the MCP endpoint at {url} could not be reached or refused: {_first(group)}")
    print(output)


def _first(group: BaseExceptionGroup[Any]) -> BaseException:
    """The first exception of a group, however deeply the task groups nested it."""
    found: BaseException = group
    while isinstance(found, BaseExceptionGroup):
        found = found.exceptions[0]
    return found


if __name__ == "__main__":
    main()
