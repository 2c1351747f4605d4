"""The MCP protocol of an endpoint (`mcp.py` finds it and checks the caller), spoken by the official SDK: a
low-level server made for the one request, stateless with JSON answers, so nothing outlives the request and the
world is never shared between callers. A tool call runs its REST call through the recording layer, where it is
logged once with the tool's name and arguments; a tool the endpoint lacks, or arguments its schema refuses, is
logged too (`record_refused_tool`).
"""

from __future__ import annotations

from typing import Any

import anyio
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError

from .. import collector
from ..services import SERVICES
from ..services.base import Reply
from ..services.mcp import Tool
from .mcp import TOOLED, Endpoint, rest_request
from .recording import Receive, Scope, Send, record, record_refused_tool, tool_call

# A validator per tool (its schema never changes), made on the tool's first call.
_VALIDATORS: dict[str, Draft202012Validator] = {}
# How much of a refused argument's description an error quotes.
_QUOTED = 300


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
    world, principal = endpoint.world, endpoint.principal
    served = endpoint.tools.get(name)
    if served is None:
        message = f"Unknown tool: {name[:200]}"
        record_refused_tool(world, endpoint.log_name, principal, tool_call(name, arguments), 404, message)
        raise MCPError(types.INVALID_PARAMS, message)
    tool, headers = served
    problem = _problem(tool, arguments)
    call = None
    if problem is None:
        try:
            call = tool.call(arguments)
        except (KeyError, TypeError, ValueError) as exc:
            problem = f"invalid arguments: {str(exc)[:_QUOTED]}"
    if call is None:
        record_refused_tool(world, tool.service, principal, tool_call(tool.name, arguments), 400, problem or "")
        return _text(problem or "", error=True)
    service = SERVICES[tool.service]
    request = rest_request(endpoint, tool, headers, call)
    token = service.token(request)
    caller = world.tokens.get(token) if token else None
    if caller is not None and caller.service != service.name:  # as the REST side: a token of another service
        caller = None
    identity = TOOLED[tool.service].caller
    if caller is not None and identity is not None:
        with world.lock:
            request.headers = {**request.headers, **identity(world, caller)}
    # Logged under the tool's own name, which a trace check names, whatever the endpoint served it as.
    reply, content, _, real_delay_ms = record(world, service, caller, request, mcp=tool_call(tool.name, arguments))
    if real_delay_ms:  # a slow api fault, held outside the world's lock as on the REST side
        await anyio.sleep(real_delay_ms / 1000)
    return _result(reply, content)


def _problem(tool: Tool, arguments: dict[str, Any]) -> str | None:
    """Why the arguments do not meet the tool's input schema, or None."""
    validator = _VALIDATORS.get(tool.qualified)
    if validator is None:
        validator = _VALIDATORS[tool.qualified] = Draft202012Validator(dict(tool.input_schema))
    error = best_match(validator.iter_errors(arguments))
    if error is None:
        return None
    where = ".".join(str(part) for part in error.absolute_path) or "arguments"
    return f"invalid arguments: {where}: {error.message[:_QUOTED]}"


def _result(reply: Reply, content: bytes) -> types.CallToolResult:
    """The REST answer as the tool's result: its body as text (JSON as the vendor sends it); a failure is the
    tool's error, with the wait a rate limit asks for."""
    failed = reply.error or reply.status >= 400
    result = _text(content.decode("utf-8", "replace"), error=failed)
    retry_after = next((v for k, v in reply.headers.items() if k.lower() == "retry-after"), None)
    if failed and retry_after is not None:
        result.content.append(types.TextContent(type="text", text=f"Retry-After: {retry_after} seconds"))
    return result


def _text(text: str, error: bool) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)
