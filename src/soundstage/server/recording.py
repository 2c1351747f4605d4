"""The recording layer: the one place an agent's call becomes a `call` event.

Service calls are dispatched straight from the ASGI scope: `/w/<id>/<service>/...` and `/<service>/...`
are recognised by splitting the path once and two dict lookups, whatever the number of routes, and never
pass through the control API's router. The layer finds the live world (from the prefix or the token),
runs the call inside the world's lifecycle (due events, undo journal, tick) under the world's lock, and
answers with the vendor's body, a simulated `Date` and the content type every vendor uses.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, MutableMapping

import orjson

from ..clock import http_date
from ..services import SERVICES
from ..services.base import SECRET_PARAMS, Reply, Service, ServiceRequest, parse_query
from ..world import Principal, World
from .hub import Hub

JSON_TYPE = "application/json; charset=utf-8"
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def service_target(path: str) -> tuple[str | None, str, str] | None:
    """`(world id or None, service name, path within the service)` for a service URL, else None."""
    if path.startswith("/w/"):
        parts = path.split("/", 4)  # "", "w", id, service, rest
        if len(parts) >= 4 and parts[3] in SERVICES and parts[2]:
            return parts[2], parts[3], "/" + (parts[4] if len(parts) == 5 else "")
        return None
    parts = path.split("/", 2)  # "", service, rest
    if len(parts) >= 2 and parts[1] in SERVICES:
        return None, parts[1], "/" + (parts[2] if len(parts) == 3 else "")
    return None


def encode(reply: Reply) -> bytes:
    if reply.body is None:
        return b""
    if isinstance(reply.body, str):  # a vendor's HTML or text page
        return reply.body.encode()
    return orjson.dumps(reply.body)


async def serve_call(hub: Hub, target: tuple[str | None, str, str], scope: Scope, receive: Receive, send: Send) -> None:
    """Answers one agent call."""
    world_id, name, path = target
    service = SERVICES[name]
    call = await _read(scope, receive, world_id, name, path)
    token = service.token(call)
    world = hub.worlds.get(world_id) if world_id else hub.by_token(token)
    if world is None:
        reply, date = service.unauthorized(call), None
        content = encode(reply)
    else:
        principal = world.tokens.get(token) if token else None
        if principal is not None and principal.service != name:
            principal = None
        reply, content, date = record(world, service, principal, call)
    await _send(send, reply, content, date)


def record(
    world: World, service: Service, principal: Principal | None, call: ServiceRequest
) -> tuple[Reply, bytes, str]:
    """Runs one call against `world` and writes it to the log, under the world's lock; answers the reply,
    its encoded body and the call's simulated HTTP date."""
    with world.lock:
        at = world.begin_call()
        try:
            reply = service.handle(world, principal, call)
            content = encode(reply)  # before the call is logged: a body that cannot be sent is a failure too
        except Exception as exc:  # a handler bug: undo its writes, answer as the vendor does on a server fault
            world.rollback()
            reply = service.internal_error(call, exc)
            content = encode(reply)
        world.end_call(
            at,
            service=service.name,
            method=call.method,
            path=call.path,
            operation=reply.operation,
            query={k: v for k, v in call.query.items() if k not in SECRET_PARAMS},
            body=reply.trace_body,
            status=reply.status,
            response=reply.body,
            error=reply.error,
            unimplemented=reply.unimplemented,
            actor=principal.user if principal is not None else None,
        )
    return reply, content, http_date(at)


async def _read(scope: Scope, receive: Receive, world_id: str | None, name: str, path: str) -> ServiceRequest:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    host = headers.get("host") or "{}:{}".format(*scope.get("server") or ("127.0.0.1", 80))
    prefix = f"/w/{world_id}/{name}" if world_id else f"/{name}"
    return ServiceRequest(
        method=scope["method"].upper(),
        path=path,
        query=parse_query(scope.get("query_string", b"").decode("latin-1")),
        headers=headers,
        body=b"".join(chunks),
        base_url=f"{scope.get('scheme', 'http')}://{host}{scope.get('root_path', '')}{prefix}",
    )


async def _send(send: Send, reply: Reply, content: bytes, date: str | None) -> None:
    headers = {k.lower(): v for k, v in reply.headers.items()}
    headers.setdefault("content-type", JSON_TYPE)
    if date is not None:
        headers["date"] = date
    headers["content-length"] = str(len(content))
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": reply.status, "headers": raw})
    await send({"type": "http.response.body", "body": content})
