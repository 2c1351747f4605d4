"""The MCP protocol of an endpoint (`mcp.py` finds it and checks the caller), spoken by the official SDK: a
low-level server made for the one request, stateless with JSON answers, so nothing outlives the request and the
world is never shared between callers. A tool call runs its REST call through the recording layer, where it is
logged once with the tool's name and arguments; a tool the endpoint lacks, or arguments its schema refuses, is
logged too (`record_refused_tool`).
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError

from .. import collector
from .mcp import Endpoint, UnknownTool, call_tool
from .recording import Receive, Scope, Send


async def serve(endpoint: Endpoint, scope: Scope, receive: Receive, send: Send) -> None:
    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(name=name, description=tool.description, input_schema=dict(tool.input_schema))
                for name, (tool, _) in endpoint.tools.items()
            ]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await _call(endpoint, params.name, params.arguments or {})

    server: Server[Any] = Server("soundstage", on_list_tools=list_tools, on_call_tool=call_tool)
    manager = StreamableHTTPSessionManager(
        server, json_response=True, stateless=True, max_request_body_size=endpoint.hub.max_body
    )
    with collector.transient():  # the SDK's server and session refer to themselves (collector.py)
        async with manager.run():
            await manager.handle_request(scope, receive, send)


async def _call(endpoint: Endpoint, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    try:
        result = call_tool(endpoint, name, arguments)
    except UnknownTool as exc:
        raise MCPError(types.INVALID_PARAMS, str(exc)) from None
    if result.real_delay_ms:  # a slow api fault, held outside the world's lock as on the REST side
        await anyio.sleep(result.real_delay_ms / 1000)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text) for text in result.texts], is_error=result.is_error
    )
