"""The Starlette application: the control API and every impersonated service."""

from __future__ import annotations

import secrets

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..results import ResultsSink, RunLibrary
from . import control
from .control import AGENT, PUBLIC, endpoint, error_response
from .hub import Hub
from .library import Shelf
from .mcp import mcp_target, serve_mcp
from .recording import Receive, Scope, Send, serve_call, service_target
from .runs import Runs
from .viewer import viewer_routes


async def not_found(request: Request, exc: Exception) -> Response:
    return error_response(404, "not_found", f"no route for {request.method} {request.url.path}")


def create_app(
    hub: Hub | None = None,
    admin_token: str | None = None,
    results: ResultsSink | None = None,
    libraries: list[RunLibrary] | None = None,
    public_url: str | None = None,
) -> App:
    """The app over `hub`. The control API asks for `admin_token` (a random one when None: read it from
    `app.state.admin_token`); a world's own agent tokens may only finish it and move its clock. Runs over
    HTTP are written to `results` (the results store) as well, when given; `GET /v1/runs` lists the runs of
    `libraries` (the store, run folders) besides the server's own. `public_url` is the base of the URLs a
    world's `env` and `urls` hold, where the server is reached at another address than its own (a
    container's mapped port); without it, the address each request was sent to."""
    world = "/v1/worlds/{world}"
    routes = [
        Route("/healthz", endpoint(control.healthz, allow=PUBLIC), methods=["GET"]),
        Route("/v1/ca.pem", endpoint(control.ca_certificate, allow=PUBLIC), methods=["GET"]),
        Route("/v1/scenes", endpoint(control.scenes), methods=["GET"]),
        Route("/v1/worlds", endpoint(control.create_world, status=201), methods=["POST"]),
        Route("/v1/worlds", endpoint(control.list_worlds), methods=["GET"]),
        Route(world, endpoint(control.get_world), methods=["GET"]),
        Route(world, endpoint(control.delete_world), methods=["DELETE"]),
        Route(world + "/fork", endpoint(control.fork_world, status=201), methods=["POST"]),
        Route(world + "/snapshot", endpoint(control.snapshot), methods=["GET"]),
        Route(world + "/trace", endpoint(control.trace), methods=["GET"]),
        Route(world + "/events", endpoint(control.events), methods=["GET"]),
        Route(world + "/state", endpoint(control.state), methods=["GET"]),
        Route(world + "/diff", endpoint(control.diff), methods=["GET"]),
        Route(world + "/clock", endpoint(control.clock, allow=AGENT), methods=["POST"]),
        Route(world + "/checks", endpoint(control.checks), methods=["GET"]),
        Route(world + "/checks", endpoint(control.custom_checks), methods=["POST"]),
        Route(world + "/finish", endpoint(control.finish, allow=AGENT), methods=["POST"]),
        Route(world + "/tools", endpoint(control.tools), methods=["GET"]),
        Route(world + "/step", endpoint(control.step), methods=["POST"]),
        Route("/v1/runs", endpoint(control.create_run, status=201), methods=["POST"]),
        Route("/v1/runs", endpoint(control.list_runs), methods=["GET"]),
        Route("/v1/runs/{run}", endpoint(control.get_run), methods=["GET"]),
        Route("/v1/runs/{run}/trials/{trial}", endpoint(control.get_trial), methods=["GET"]),
        Route("/v1/compare", endpoint(control.compare), methods=["GET"]),
        *viewer_routes(),
    ]
    api = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found})
    api.state.hub = hub or Hub()
    api.state.admin_token = admin_token or secrets.token_urlsafe(32)
    api.state.public_url = public_url.rstrip("/") if public_url else None
    api.state.runs = Runs(results)
    api.state.shelf = Shelf(api.state.runs, libraries or [])
    return App(api)


class App:
    """The ASGI entry point: agent calls go straight to the recording layer, the rest to the control API."""

    def __init__(self, control: Starlette) -> None:
        self.control = control
        self.state = control.state
        self.hub: Hub = control.state.hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            target = service_target(scope["path"])
            if target is not None:
                await serve_call(self.hub, target, scope, receive, send)
                return
            endpoint = mcp_target(scope["path"])
            if endpoint is not None:
                await serve_mcp(self.hub, endpoint, scope, receive, send)
                return
        await self.control(scope, receive, send)
