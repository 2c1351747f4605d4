"""`soundstage serve`: the control API and every service, in the foreground, until interrupted."""

from __future__ import annotations

import copy
import ipaddress
import json
import os
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer
import uvicorn

from ..errors import UsageError
from ..server import Hub, Server
from ..server.hub import FINISHED_TTL, IDLE_TTL, MAX_WORLDS
from ..server.stack import Stack
from ..services import SERVICES
from ..spec.discovery import list_scenes
from .output import JsonOption, emit, handles_errors, next_step, quote, say

if TYPE_CHECKING:
    from ..store import Store


@handles_errors("serve")
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8750,
    tls_port: Annotated[int, typer.Option("--tls-port", min=0, max=65535, help="Port to listen on with TLS.")] = 8751,
    tls: Annotated[
        bool, typer.Option("--tls", help="Give every service an https URL (PagerDuty's always is).")
    ] = False,
    proxy_port: Annotated[
        int | None,
        typer.Option(
            "--proxy-port",
            min=0,
            max=65535,
            help="Also listen as the interception proxy on this port (0: a free one) [default: no proxy].",
            show_default=False,
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            envvar="SOUNDSTAGE_PUBLIC_URL",
            help="Where clients reach the http port, when that is not where it listens (a container's mapped "
            "port): the base of every URL handed out [default: the address each request was sent to].",
            show_default=False,
        ),
    ] = None,
    public_tls_url: Annotated[
        str | None,
        typer.Option(
            "--public-tls-url",
            envvar="SOUNDSTAGE_PUBLIC_TLS_URL",
            help="Where clients reach the https port, when mapped elsewhere [default: the http host, --tls-port].",
            show_default=False,
        ),
    ] = None,
    access_log: Annotated[
        bool, typer.Option("--access-log", help="Log every request on stderr (it costs CPU on each call).")
    ] = False,
    max_worlds: Annotated[int, typer.Option("--max-worlds", min=1, help="Live worlds held at once.")] = MAX_WORLDS,
    idle_ttl: Annotated[
        float, typer.Option("--idle-ttl", min=1, help="Seconds an unused live world is kept.")
    ] = IDLE_TTL,
    finished_ttl: Annotated[
        float, typer.Option("--finished-ttl", min=1, help="Seconds a finished world is kept.")
    ] = FINISHED_TTL,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="SOUNDSTAGE_DB",
            help="A results store: runs over HTTP are written to it, and its runs are shown: "
            "postgresql://USER@HOST/DB or sqlite:///FILE [default: none].",
            show_default=False,
        ),
    ] = None,
    http: Annotated[
        str,
        typer.Option(
            "--http",
            envvar="SOUNDSTAGE_HTTP",
            help="The HTTP parser: auto (httptools where installed, else h11), httptools or h11.",
        ),
    ] = "auto",
    loop: Annotated[
        str,
        typer.Option(
            "--loop",
            envvar="SOUNDSTAGE_LOOP",
            help="The event loop: auto (uvloop where installed, else asyncio), uvloop or asyncio.",
        ),
    ] = "auto",
    json_output: JsonOption = False,
) -> None:
    """Serve the control API and the services on http and https; print their base URLs."""
    token = os.environ.get("SOUNDSTAGE_ADMIN_TOKEN") or None
    if token is None and not is_loopback(host):
        raise UsageError(
            f"{host} is reachable from other machines: set SOUNDSTAGE_ADMIN_TOKEN to protect the control API"
        )
    for option, url in (("--public-url", public_url), ("--public-tls-url", public_tls_url)):
        _check_url(option, url, "https" if option == "--public-tls-url" else "http")
    # The server's lines (and access lines, when asked for) go to stderr: in JSON mode stdout holds the one
    # document below.
    logging = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    logging["handlers"]["access"]["stream"] = "ext://sys.stderr"
    hub = Hub(max_worlds=max_worlds, idle_ttl=idle_ttl, finished_ttl=finished_ttl)
    results = _store(db)  # reached and migrated before the server listens
    server = Server(
        hub,
        host,
        port,
        tls_port,
        tls_everywhere=tls,
        admin_token=token,
        log_config=logging,
        access_log=access_log,
        results=results,
        libraries=[results] if results is not None else None,  # the store's other runs are shown too
        proxy_port=proxy_port,
        public_url=public_url,
        public_tls_url=public_tls_url,
        stack=Stack.choose(http, loop),
    )
    info = _describe(server, token is None)
    if json_output:
        emit(info)
    else:
        _print(info)
    server.run()


def _check_url(option: str, url: str | None, scheme: str) -> None:
    """A public URL is a base: `scheme://host[:port]`, nothing after it."""
    if url is None:
        return
    parts = urlsplit(url)
    if parts.scheme != scheme or not parts.hostname or parts.path.strip("/") or parts.query or parts.fragment:
        raise UsageError(f"{option} must be a base URL like {scheme}://localhost:18750, not {url!r}")


def _store(db: str | None) -> Store | None:
    if not db:
        return None
    from ..store import open_store  # SQLAlchemy and Alembic, loaded only for a server that writes results

    return open_store(db)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _describe(server: Server, made: bool) -> dict[str, Any]:
    """What the server listens on, and how to call it. A token the server `made` is printed (nothing
    else knows it); one from SOUNDSTAGE_ADMIN_TOKEN is not."""
    base = server.url
    scenes = list_scenes()
    example = {"scene": scenes[0][0] if scenes else "<scene name>"}
    # Double quotes around a variable, so the shell puts the token in; a made token is written out.
    credential = (
        quote(f"authorization: Bearer {server.admin_token}")
        if made
        else '"authorization: Bearer $SOUNDSTAGE_ADMIN_TOKEN"'
    )
    command = f"curl -s -X POST {base}/v1/worlds -H 'content-type: application/json' -H {credential}"
    command += f" -d {quote(json.dumps(example))}"
    return {
        "url": base,
        "tls_url": server.tls_url,
        "ca_bundle": str(server.hub.tls.ca.bundle) if server.hub.tls else None,
        "proxy_url": server.proxy_url,
        "control": f"{base}/v1/worlds",
        "services": {name: f"{base}/{name}" for name in SERVICES},
        "admin_token_required": True,
        "admin_token": server.admin_token if made else None,
        "max_worlds": server.hub.max_worlds,
        "stack": {"http": server.stack.http, "loop": server.stack.loop},
        "create_world": command,
        # The web viewer; a made token goes in the part after `#`, which the browser never sends.
        "ui": f"{base}/ui/" + (f"#token={server.admin_token}" if made else ""),
    }


def _print(info: dict[str, Any]) -> None:
    stack = info["stack"]
    say(f"soundstage is serving on {info['url']} and {info['tls_url']} ({stack['http']} on {stack['loop']})")
    say(f"  control API   {info['control']}")
    for name, url in info["services"].items():
        say(f"  {name:<13} {url}  (the world is found from the token)")
    say(f"HTTPS clients trust {info['ca_bundle']} (the usual authorities and soundstage's own);")
    say(f"  elsewhere, fetch soundstage's certificate authority from {info['url']}/v1/ca.pem")
    if info["proxy_url"]:
        say(f"  proxy         {info['proxy_url']}  (a world's `env` holds HTTPS_PROXY with its credential)")
    if info["admin_token"]:
        say(
            f"The control API needs `authorization: Bearer {info['admin_token']}` "
            "(made now; set SOUNDSTAGE_ADMIN_TOKEN to choose it)."
        )
    else:
        say("The control API needs the header `authorization: Bearer $SOUNDSTAGE_ADMIN_TOKEN`.")
    say("Keep it from the agent: with it, an agent could read its own grades.")
    say(f"The web viewer of this server's runs: {info['ui']}")
    say("Create a live world (the answer holds its URLs and the agent's environment):")
    next_step(info["create_world"])
