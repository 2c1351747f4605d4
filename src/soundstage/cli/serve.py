"""`soundstage serve`: the control API and every service, in the foreground, until interrupted."""

from __future__ import annotations

import copy
import ipaddress
import json
import os
import socket
from typing import Annotated, Any

import typer
import uvicorn

from ..errors import InfrastructureError, UsageError
from ..server import Hub, create_app
from ..services import SERVICES
from ..spec.discovery import list_scenes
from .output import JsonOption, emit, handles_errors, next_step, quote, say


@handles_errors("serve")
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8750,
    json_output: JsonOption = False,
) -> None:
    """Serve the control API and the services; print their base URLs."""
    token = os.environ.get("SOUNDSTAGE_ADMIN_TOKEN") or None
    if token is None and not _is_loopback(host):
        raise UsageError(f"{host} is reachable from other machines: set SOUNDSTAGE_ADMIN_TOKEN to protect the control API")
    sock = _bind(host, port)
    base = f"http://{_url_host(host)}:{sock.getsockname()[1]}"
    info = _describe(base, token is not None)
    if json_output:
        emit(info)
    else:
        _print(info)
    # Access lines go to stderr too: in JSON mode stdout holds the one document above.
    logging = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    logging["handlers"]["access"]["stream"] = "ext://sys.stderr"
    config = uvicorn.Config(
        create_app(Hub(), admin_token=token), log_config=logging, lifespan="off",
        date_header=False, server_header=False,  # the services send a simulated Date of their own
    )
    uvicorn.Server(config).run(sockets=[sock])


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    """Binds before anything is printed, so a taken port is an error (exit 3), not a half-started server."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InfrastructureError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _describe(base: str, needs_token: bool) -> dict[str, Any]:
    scenes = list_scenes()
    example = {"scene": scenes[0][0] if scenes else "<scene name or path>"}
    command = f"curl -s -X POST {base}/v1/worlds -H 'content-type: application/json'"
    if needs_token:  # double quotes, so the shell puts the token in
        command += ' -H "authorization: Bearer $SOUNDSTAGE_ADMIN_TOKEN"'
    command += f" -d {quote(json.dumps(example))}"
    return {
        "url": base,
        "control": f"{base}/v1/worlds",
        "services": {name: f"{base}/{name}" for name in SERVICES},
        "admin_token_required": needs_token,
        "create_world": command,
    }


def _print(info: dict[str, Any]) -> None:
    say(f"soundstage is serving on {info['url']}")
    say(f"  control API   {info['control']}")
    for name, url in info["services"].items():
        say(f"  {name:<13} {url}  (the world is found from the token)")
    if info["admin_token_required"]:
        say("The control API needs the header `authorization: Bearer $SOUNDSTAGE_ADMIN_TOKEN`.")
    say("Create a live world (the answer holds its URLs and the agent's environment):")
    next_step(info["create_world"])
