"""`soundstage mcp`: a world's MCP endpoint over stdio, for a harness that launches its MCP servers as commands
(docs/mcp.md, "Over stdio")."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import anyio
import httpx
import typer

from ..errors import InfrastructureError, NotFound, UsageError
from .output import handles_errors


@handles_errors("mcp")
def mcp(
    scene: Annotated[
        str | None,
        typer.Argument(
            metavar="[SCENE]",
            help="A scene (a name or a file) to make a fresh world of, on --server or on a server in this process.",
            show_default=False,
        ),
    ] = None,
    world: Annotated[
        str | None,
        typer.Option(
            "--world", help="A live world's control URL, http://HOST:PORT/v1/worlds/<id>.", show_default=False
        ),
    ] = None,
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            help="With SCENE: the soundstage server to make the world on, http://HOST:PORT [default: one in this "
            "process, for as long as the bridge runs].",
            show_default=False,
        ),
    ] = None,
    service: Annotated[
        str | None,
        typer.Option("--service", help="One service's tools (slack, github...) [default: every service's]."),
    ] = None,
) -> None:
    """Bridge stdin and stdout to a world's MCP endpoint, until stdin ends: the world of --world, a fresh
    world of SCENE, or else the world of this environment (SOUNDSTAGE_MCP_URL, as an agent has it). Nothing but
    the protocol is written on stdout; notes go to stderr."""
    if scene is not None and world is not None:
        raise UsageError("give a SCENE to make a world of, or --world, not both")
    if server is not None and scene is None:
        raise UsageError("--server is where a SCENE's world is made: give the SCENE")
    if world is not None:
        _serve(_control("GET", world), service)
    elif scene is not None and server is not None:
        made = _control("POST", server.rstrip("/") + "/v1/worlds", _scene_body(scene))
        _note(f"world {made['id']} of {made['scene']}: {server.rstrip('/')}/v1/worlds/{made['id']}")
        _serve(made, service)
    elif scene is not None:
        _serve_in_process(scene, service)
    else:
        _serve({"env": dict(os.environ)}, service)


def _serve(world: Mapping[str, Any], service: str | None) -> None:
    import httpx2

    from ..server.mcp_bridge import bridge

    url, headers = _endpoint(world["env"], service)
    try:
        anyio.run(bridge, url, headers)
    except* httpx2.TransportError as group:  # the SDK's client lets the endpoint's absence end its session
        raise InfrastructureError(f"cannot reach {url}: {group.exceptions[0]}") from None


def _serve_in_process(scene: str, service: str | None) -> None:
    """A server in this process with one fresh world of `scene`, for as long as the bridge runs; then the
    world's grade on stderr, as the scene's checks see what the harness did."""
    from ..rehearsal import Stage

    with Stage() as stage:
        live = stage.world(scene)
        _note(
            f"world {live.id} of {live.scene}: {stage.url}/v1/worlds/{live.id} "
            f"(while this runs; admin token {stage.admin_token})"
        )
        _serve({"env": live.env}, service)
        _note(live.finish().explain())


def _endpoint(env: Mapping[str, str], service: str | None) -> tuple[str, dict[str, str]]:
    """The endpoint's URL and the credential headers it takes, from a world's environment for its agent."""
    if service is None:
        if "SOUNDSTAGE_MCP_URL" not in env:
            raise UsageError(
                "no world to bridge to: give a SCENE or --world, or run this where SOUNDSTAGE_MCP_URL and "
                "SOUNDSTAGE_TOKEN are set (an agent's environment)"
            )
        return env["SOUNDSTAGE_MCP_URL"], {"authorization": f"Bearer {env['SOUNDSTAGE_TOKEN']}"}
    from ..server.mcp import TOOLED

    tools = TOOLED.get(service)
    if tools is None:
        raise UsageError(f"no MCP tools for the service {service!r}: there are {', '.join(TOOLED)}")
    url = env.get(f"{service.upper()}_MCP_URL")
    if url is None:
        raise UsageError(f"this world's agent has no {service} credential, so no {service} MCP endpoint")
    # The credential the service's tools take by default (Slack's bot token, not the user token of its search).
    default = next(tool for tool in tools.all() if tool.credential is None)
    return url, tools.headers(env, default)


def _control(method: str, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A control API call with SOUNDSTAGE_ADMIN_TOKEN: a world's description (its `env` among it)."""
    token = os.environ.get("SOUNDSTAGE_ADMIN_TOKEN")
    headers = {"authorization": f"Bearer {token}"} if token else {}
    try:
        response = httpx.request(method, url, json=body, headers=headers, timeout=60)
    except httpx.HTTPError as exc:
        raise InfrastructureError(f"cannot reach {url}: {exc}") from None
    try:
        answer = response.json()
    except ValueError:
        answer = {}
    error = answer.get("error") if isinstance(answer, dict) else None
    message = error.get("message", response.text[:200]) if isinstance(error, dict) else response.text[:200]
    if response.status_code == 404:
        raise NotFound(f"{url}: {message}")
    if response.status_code not in (200, 201) or not isinstance(answer, dict) or "env" not in answer:
        hint = " (set SOUNDSTAGE_ADMIN_TOKEN to the server's admin token)" if response.status_code == 401 else ""
        raise UsageError(f"{method} {url} answered {response.status_code}: {message}{hint}")
    return answer


def _scene_body(scene: str) -> dict[str, str]:
    """A known scene by its name; a file by its text, which the server does not read itself."""
    path = Path(scene)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        return {"scene_yaml": path.read_text(encoding="utf-8")}
    return {"scene": scene}


def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
