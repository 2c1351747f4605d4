"""MCP endpoints (docs/mcp.md): a world's services as MCP tools, `/w/<id>/mcp/<service>` for one service and
`/w/<id>/mcp` for every service that has tools.

This module finds the endpoint and checks the caller before anything else: the world's own credentials, under
the same rules as a REST call. A request with none of them, with another world's, or for a world that is not
live is refused with HTTP 401 and never reaches the world; one for a finished world is refused the same way and
logged as a revoked token's call is (`after_finish`). Protocol requests (`initialize`, `tools/list`, pings) are
not calls of the agent's on the world: nothing is logged for them. A tool call is: `mcp_session` serves the
protocol with the official SDK, imported on the first MCP request only (it takes half a second to import).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from ..clock import iso
from ..events import AfterFinishEvent
from ..services import SERVICES
from ..services.base import ServiceRequest, account
from ..services.mcp import Tool, Tools
from ..world import Principal, World
from .hub import Hub
from .recording import JSON_TYPE, MCP_PATH, Receive, Scope, Send, record, record_refused_tool, tool_call

# The services that have tools, by name.
TOOLED: dict[str, Tools] = {name: tools for name, s in SERVICES.items() if (tools := getattr(s, "tools", None))}
# The name the endpoint of every service goes by in the log, where a call names no one service.
EVERY = "mcp"
# A validator per tool (its schema never changes), made on the tool's first call.
_VALIDATORS: dict[str, Draft202012Validator] = {}
# How much of a refused argument's description an error quotes.
_QUOTED = 300
# The headers of the MCP transport itself, which the REST call a tool stands for does not carry.
TRANSPORT_HEADERS = frozenset(
    ("host", "content-type", "content-length", "accept", "connection", "transfer-encoding", "last-event-id")
)


@dataclass(frozen=True)
class Endpoint:
    """An authenticated MCP request: the world, the endpoint's service (None: every service), who calls, and the
    tools it serves, each with the credential headers its REST calls carry."""

    hub: Hub
    world: World
    service: str | None
    principal: Principal
    tools: dict[str, tuple[Tool, dict[str, str]]]
    base: str  # `scheme://host`, where the services' URLs hang from

    @property
    def log_name(self) -> str:
        return self.service or EVERY


@dataclass(frozen=True)
class ToolResult:
    """What a tool call came to: the result's text parts (the REST answer's body as the vendor sends it, then the
    wait a rate limit asks for), whether it is the tool's error, the seq of the call's event, and the real time
    (ms) an api fault holds the answer for, which the caller waits outside the world's lock."""

    texts: list[str]
    is_error: bool
    seq: int
    real_delay_ms: int = 0


class UnknownTool(Exception):
    """A tool the endpoint does not serve: logged (404, counted as unimplemented), and the protocol's error."""

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message)
        self.seq = seq


def call_tool(endpoint: Endpoint, name: str, arguments: dict[str, Any]) -> ToolResult:
    """Runs one tool call on the endpoint's world through the recording layer, where it is logged once with the
    tool's name and arguments; arguments its schema refuses are logged too and answered as the tool's error.
    Raises UnknownTool for a tool the endpoint lacks. The MCP endpoints and the environment (environment.py) both
    call tools through here."""
    world = endpoint.world
    with world.lock:  # the seq of the call's event: nothing else reaches the world meanwhile
        before = world.log.last_seq
        result = _call(endpoint, name, arguments)
        seq = next((event.seq for event in world.log.after(before) if event.kind in _CALL_KINDS), before)
    if isinstance(result, str):
        raise UnknownTool(result, seq)
    texts, is_error, real_delay_ms = result
    return ToolResult(texts, is_error, seq, real_delay_ms)


# The events a tool call is logged as: a call, or one after the attempt ended.
_CALL_KINDS = frozenset(("call", "after_finish"))


def _call(endpoint: Endpoint, name: str, arguments: dict[str, Any]) -> tuple[list[str], bool, int] | str:
    world, principal = endpoint.world, endpoint.principal
    served = endpoint.tools.get(name)
    if served is None:
        message = f"Unknown tool: {name[:200]}"
        record_refused_tool(world, endpoint.log_name, principal, tool_call(name, arguments), 404, message)
        return message
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
        return [problem or ""], True, 0
    service = SERVICES[tool.service]
    request = rest_request(endpoint, tool, headers, call)
    token = service.token(request)
    caller = world.tokens.get(token) if token else None
    if caller is not None and caller.service != account(service):  # as the REST side: another account's token
        caller = None
    identity = TOOLED[tool.service].caller
    if caller is not None and identity is not None:
        with world.lock:
            request.headers = {**request.headers, **identity(world, caller)}
    # Logged under the tool's own name, which a trace check names, whatever the endpoint served it as.
    reply, content, _, real_delay_ms = record(world, service, caller, request, mcp=tool_call(tool.name, arguments))
    # The REST answer as the tool's result: a failure is the tool's error, with the wait a rate limit asks for.
    failed = reply.error or reply.status >= 400
    texts = [content.decode("utf-8", "replace")]
    retry_after = next((v for k, v in reply.headers.items() if k.lower() == "retry-after"), None)
    if failed and retry_after is not None:
        texts.append(f"Retry-After: {retry_after} seconds")
    return texts, failed, real_delay_ms


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


def mcp_target(path: str) -> tuple[str, str | None] | None:
    """`(world id, service or None for every service)` for an MCP endpoint's path, else None."""
    if not path.startswith("/w/"):
        return None
    parts = path.rstrip("/").split("/")  # "", "w", id, "mcp"[, service]
    if len(parts) < 4 or parts[3] != "mcp" or not parts[2] or len(parts) > 5:
        return None
    if len(parts) == 4:
        return parts[2], None
    return (parts[2], parts[4]) if parts[4] in TOOLED else None


async def serve_mcp(hub: Hub, target: tuple[str, str | None], scope: Scope, receive: Receive, send: Send) -> None:
    """Answers one request to an MCP endpoint."""
    world_id, name = target
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    world = hub.worlds.get(world_id)
    principal = _caller(hub, world, name, headers) if world is not None else None
    if world is None or principal is None:
        await _refuse(send, "the request carries no credential of this world for this endpoint")
        return
    if world.finished:
        with world.lock:
            world.note(("after_finish", name or EVERY, scope["method"]))
            world.log.emit(
                AfterFinishEvent,
                t=iso(world.now()),
                service=name or EVERY,
                method=scope["method"],
                path=MCP_PATH,
                status=401,
            )
        await _refuse(send, "the token was revoked: the attempt has ended")
        return
    hub.touch(world)
    host = headers.get("host") or "{}:{}".format(*scope.get("server") or ("127.0.0.1", 80))
    endpoint = Endpoint(
        hub, world, name, principal, served_tools(hub, world, name, headers), f"{scope.get('scheme', 'http')}://{host}"
    )
    await import_module(f"{__package__}.mcp_session").serve(endpoint, scope, receive, send)


def _caller(hub: Hub, world: World, name: str | None, headers: Mapping[str, str]) -> Principal | None:
    """Who the request's credential speaks for: one the world handed its agent, of the endpoint's service (any
    of them on the endpoint of every service); else None."""
    handed = set(hub.envs.get(world.id, {}).values())
    for service_name in [name] if name else list(TOOLED):
        token = _token(service_name, headers)
        principal = world.tokens.get(token) if token in handed else None
        if principal is not None and (name is None or principal.service == account(SERVICES[name])):
            return principal
    bearer = _bearer(headers)
    if name is None and bearer in handed:  # the control token, or another service's
        return world.tokens.get(bearer)
    return None


def _token(service: str, headers: Mapping[str, str]) -> str | None:
    """The credential the service reads from these headers, or the bearer token."""
    try:
        token = SERVICES[service].token(ServiceRequest("POST", "/", {}, headers))
    except Exception:  # noqa: BLE001 (a credential that cannot be read is no credential)
        token = None
    return token or _bearer(headers)


def _bearer(headers: Mapping[str, str]) -> str | None:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def served_tools(
    hub: Hub, world: World, name: str | None, headers: Mapping[str, str]
) -> dict[str, tuple[Tool, dict[str, str]]]:
    """The tools the endpoint serves, by name, each with the credential headers its REST call carries: on one
    service's endpoint, those the agent sent; on the endpoint of every service, the world's own credential for the
    tool's service, for the tools whose credential the world handed the agent."""
    if name is not None:
        forwarded = {k: v for k, v in headers.items() if k not in TRANSPORT_HEADERS and not k.startswith("mcp-")}
        return {tool.name: (tool, forwarded) for tool in TOOLED[name].all()}
    env = hub.envs.get(world.id, {})
    offered: list[tuple[Tool, dict[str, str]]] = []
    for tools in TOOLED.values():
        for tool in tools.all():
            try:
                offered.append((tool, tools.headers(env, tool)))
            except KeyError:  # the world has no credential of this tool's: not served
                continue
    # Two services' tools of one name (Datadog's and PagerDuty's list_incidents) go by their service's name too.
    counts = Counter(tool.name for tool, _ in offered)
    return {
        tool.name if counts[tool.name] == 1 else f"{tool.service}_{tool.name}": (tool, headers)
        for tool, headers in offered
    }


def function_schemas(names: list[tuple[str, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Tools as OpenAI's chat API takes them: `{"type": "function", "function": {name, description, parameters}}`."""
    return [
        {"type": "function", "function": {"name": name, "description": text, "parameters": schema}}
        for name, text, schema in names
    ]


def offered(endpoint: Endpoint) -> list[tuple[str, str, dict[str, Any]]]:
    """The endpoint's tools as `(name, description, input schema)`, by the names the endpoint serves them under."""
    return [(name, tool.description, dict(tool.input_schema)) for name, (tool, _) in endpoint.tools.items()]


def every_service(hub: Hub, world: World, base: str) -> Endpoint:
    """The MCP endpoint of every service of `world` as its agent's control token reaches it: the tools whose
    credential the world handed its agent."""
    principal = world.tokens[hub.envs[world.id]["SOUNDSTAGE_TOKEN"]]
    return Endpoint(hub, world, None, principal, served_tools(hub, world, None, {}), base)


async def _refuse(send: Send, reason: str) -> None:
    # As the SDK's own bearer authentication refuses: OAuth's invalid_token, with the challenge MCP clients read.
    body = orjson.dumps({"error": "invalid_token", "error_description": reason})
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"www-authenticate", b'Bearer error="invalid_token"'),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def rest_request(endpoint: Endpoint, tool: Tool, headers: dict[str, str], call: Any) -> ServiceRequest:
    """The REST request a tool call stands for, as the recording layer takes a call from the wire."""
    body = b"" if call.body is None else orjson.dumps(call.body)
    return ServiceRequest(
        method=call.method,
        path=call.path,
        query={k: _text(v) for k, v in call.query.items() if v is not None},
        # The MCP server makes the REST call, and names itself as the vendors' servers do (GitHub refuses a
        # call without a User-Agent).
        headers={**headers, "content-type": JSON_TYPE, "accept": "application/json", "user-agent": "soundstage-mcp"},
        body=body,
        # The service's own URL in the world, as the agent's environment names it (https for PagerDuty): its
        # answers link there.
        base_url=endpoint.hub.urls(endpoint.world, endpoint.base)[tool.service],
    )


def _text(value: Any) -> Any:
    """A query value as it comes in a URL: text (a list: the parameter repeated)."""
    if isinstance(value, list):
        return [_text(item) for item in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
