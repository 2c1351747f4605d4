"""The recording layer: the one place an agent's call becomes a `call` event.

It finds the live world (from the `/w/<id>` prefix or from the token), runs the call inside the world's
lifecycle (due events, undo journal, tick), and answers with the vendor's body, a simulated `Date` and
the content type every vendor uses.
"""

from __future__ import annotations

import json
from typing import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from ..clock import http_date
from ..services import SERVICES
from ..services.base import SECRET_PARAMS, Reply, Service, ServiceRequest, parse_query
from ..world import Principal, World
from .hub import Hub

JSON_TYPE = "application/json; charset=utf-8"


def render(reply: Reply, date: str | None = None) -> Response:
    headers = dict(reply.headers)
    if date is not None:
        headers["Date"] = date
    if reply.body is None:
        content = b""
    elif isinstance(reply.body, str):  # a vendor's HTML or text page
        content = reply.body.encode()
    else:
        content = json.dumps(reply.body, ensure_ascii=False, separators=(",", ":")).encode()
    headers.setdefault("Content-Type", JSON_TYPE)
    return Response(content, status_code=reply.status, headers=headers)


async def read_request(request: Request, prefix: str) -> ServiceRequest:
    body = await request.body()
    url = request.url
    return ServiceRequest(
        method=request.method.upper(),
        path="/" + request.path_params.get("path", ""),
        query=parse_query(url.query),
        headers={k.lower(): v for k, v in request.headers.items()},
        body=body,
        base_url=f"{url.scheme}://{url.netloc}{prefix}",
    )


def service_call(name: str) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of `/w/<id>/<name>/...` and `/<name>/...`."""
    service = SERVICES[name]

    async def call(request: Request) -> Response:
        return await _call(request, name, service)

    return call


async def _call(request: Request, name: str, service: Service) -> Response:
    hub: Hub = request.app.state.hub
    world_id = request.path_params.get("world")
    prefix = f"/w/{world_id}/{name}" if world_id else f"/{name}"
    call = await read_request(request, prefix)
    token = service.token(call)
    world = hub.worlds.get(world_id) if world_id else hub.by_token(token)
    if world is None:
        return render(service.unauthorized(call))
    principal = world.tokens.get(token) if token else None
    if principal is not None and principal.service != name:
        principal = None
    return record(world, service, principal, call)


def record(world: World, service: Service, principal: Principal | None, call: ServiceRequest) -> Response:
    """Runs one call against `world` and writes it to the log, under the world's lock."""
    with world.lock:
        return _record(world, service, principal, call)


def _record(world: World, service: Service, principal: Principal | None, call: ServiceRequest) -> Response:
    at = world.begin_call()
    try:
        reply = service.handle(world, principal, call)
    except Exception as exc:  # a handler bug: undo its writes, answer as the vendor does on a server fault
        world.rollback()
        reply = service.internal_error(call, exc)
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
    return render(reply, http_date(at))
