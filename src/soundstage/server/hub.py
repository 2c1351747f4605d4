"""The live worlds one server holds, the tokens that lead to them, and how long they may live.

World ids and tokens are credentials, not world data: they come from `secrets` (128 random bits or
more), so no agent can guess another world's; a scene's seed fixes every id *inside* a world, never the
world's own. The hub also bounds what a server holds: at most `max_worlds` live worlds, and a world
nobody has called for `idle_ttl` seconds (or finished `finished_ttl` seconds ago) is dropped. Those
times are the server's wall clock, which never enters a world.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import NotFound
from ..services import SERVICES
from ..stage import ImageCache, WorldImage
from ..world import Principal, World
from .model_calls import Budget, ModelCapture
from .tls import LocalCA

# What a server holds by default: the number of live worlds a 1 GiB process keeps comfortably, and
# how long a world may sit unused (an agent thinking between calls) or finished (its result being read).
MAX_WORLDS = 1000
MAX_BODY = 10 * 1024 * 1024  # bytes of a request body; past it, the vendor's 413
IDLE_TTL = 3600.0
FINISHED_TTL = 600.0


class TooManyWorlds(Exception):
    """The hub holds `max_worlds` live worlds, none of them expired."""


@dataclass(frozen=True)
class TLSPort:
    """Where the server also listens with TLS, and whether every service's URL should use it."""

    port: int
    ca: LocalCA
    everywhere: bool = False
    public: str | None = None  # where clients reach this port when it is mapped elsewhere (`--public-tls-url`)

    def base(self, base_url: str) -> str:
        """`http://127.0.0.1:8750` -> `https://127.0.0.1:8751` (the same host name, which the certificate
        covers), or the public TLS URL when there is one."""
        if self.public is not None:
            return self.public
        host = urlsplit(base_url).hostname or "127.0.0.1"
        return f"https://{'[' + host + ']' if ':' in host else host}:{self.port}"


@dataclass(frozen=True)
class ProxyPort:
    """Where the server also listens as the interception proxy (proxy.py)."""

    port: int
    ca: LocalCA

    def environment(self, base_url: str, control_token: str) -> dict[str, str]:
        """What an agent's runtime needs to go through the proxy, as its world (the proxy credential is the
        world's control token), and to trust the certificates it shows."""
        host = urlsplit(base_url).hostname or "127.0.0.1"
        proxy = f"http://agent:{control_token}@{'[' + host + ']' if ':' in host else host}:{self.port}"
        return {
            **{name: proxy for name in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy")},
            # soundstage's own URLs go straight to it.
            **{name: "127.0.0.1,localhost,::1" for name in ("NO_PROXY", "no_proxy")},
            **trust(self.ca),
            **NODE_PROXY,
        }


# Node reads no proxy variable by itself: from 22.21 and 24.5 it does when told so, and older releases load
# soundstage's preload, which does it for them (node_proxy.cjs; docs/interception.md, "Node").
NODE_PRELOAD = Path(__file__).with_name("node_proxy.cjs")
NODE_PROXY = {
    "NODE_USE_ENV_PROXY": "1",
    # NODE_OPTIONS splits on spaces outside double quotes, inside which `\` escapes.
    "NODE_OPTIONS": '--require "{}"'.format(str(NODE_PRELOAD).replace("\\", "\\\\").replace('"', '\\"')),
}


# Python's ssl and requests, curl, git and httplib2 (under Google's Python client) read a bundle (the usual
# authorities and soundstage's); Node adds the CA alone to its own authorities.
BUNDLE_VARIABLES = ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "HTTPLIB2_CA_CERTS")
TRUST_VARIABLES = (*BUNDLE_VARIABLES, "NODE_EXTRA_CA_CERTS")


def trust(ca: LocalCA) -> dict[str, str]:
    """The variables through which the common runtimes trust soundstage's certificate authority."""
    return {**{name: str(ca.bundle) for name in BUNDLE_VARIABLES}, "NODE_EXTRA_CA_CERTS": str(ca.ca)}


def new_world_id() -> str:
    """`w` and 32 hex digits: 128 random bits."""
    return "w" + secrets.token_hex(16)


class Hub:
    """Live worlds by id, tokens to worlds, and the image cache they are built from.

    `idle_ttl` and `finished_ttl` (seconds; None: never) drop worlds left behind; a runner that drops its
    own worlds passes None, so a slow agent's world is never taken from under it.
    """

    def __init__(
        self,
        max_worlds: int = MAX_WORLDS,
        idle_ttl: float | None = IDLE_TTL,
        finished_ttl: float | None = FINISHED_TTL,
        max_body: int = MAX_BODY,
        wall: Callable[[], float] = time.monotonic,
    ) -> None:
        self.images = ImageCache()
        self.worlds: dict[str, World] = {}
        self.envs: dict[str, dict[str, str]] = {}
        self.budgets: dict[str, Budget] = {}  # each world's model-call capture (model_calls.py)
        self.max_worlds = max_worlds
        self.idle_ttl = idle_ttl
        self.finished_ttl = finished_ttl
        self.max_body = max_body
        self._wall = wall
        self._used: dict[str, float] = {}  # world id -> when it was last called or finished
        self._by_token: dict[str, World] = {}
        self._lock = threading.Lock()
        self.tls: TLSPort | None = None  # set by the server when it listens with TLS too
        self.proxy: ProxyPort | None = None  # set by the server when it listens as the interception proxy

    def add(self, image: WorldImage, capture: ModelCapture | None = None) -> World:
        """A new live world of `image`, its agent's model calls captured as `capture` says (by default, the
        default hosts', without bodies or cap). Raises TooManyWorlds when the hub is full of live, unexpired
        worlds."""
        return self._hold(image.instantiate, Budget(capture or ModelCapture()))

    def fork(self, world_id: str) -> World:
        """A new live world in the state of world `world_id` (`World.fork`), with credentials of its own: the
        parent's agent tokens never reach the fork, nor the fork's the parent. Its model calls are captured as
        the parent's are, the tokens they used so far counted against its cap too. Raises NotFound,
        TooManyWorlds, or ValueError for a finished world."""
        parent = self.get(world_id)
        handed = set(self.envs[parent.id].values())
        budget = Budget(self.budgets[parent.id].capture)
        budget.used = self.budgets[parent.id].used

        def forked(new_id: str) -> World:
            world = parent.fork(new_id)
            for token in handed:
                del world.tokens[token]
            return world

        return self._hold(forked, budget)

    def _hold(self, make: Callable[[str], World], budget: Budget) -> World:
        """Holds the world `make` makes under a new id, with the agent's credentials and `budget` for its model
        calls; TooManyWorlds when full."""
        self.expire()
        with self._lock:
            if len(self.worlds) >= self.max_worlds:
                raise TooManyWorlds(
                    f"this server holds its limit of {self.max_worlds} live worlds; delete finished ones "
                    "(DELETE /v1/worlds/<id>) or raise the limit (--max-worlds)"
                )
            world_id = new_world_id()
            world = make(world_id)
            # The agent's credential for its own control routes (finish, the clock), apart from any service's.
            control = "ss-" + secrets.token_hex(16)
            world.tokens[control] = world.handed[control] = Principal("soundstage", "agent", "control")
            self._by_token[control] = world
            env: dict[str, str] = {"SOUNDSTAGE_TOKEN": control}
            for service in SERVICES.values():
                for credential in service.credentials(world):
                    # Services sharing an account (`Service.account`) share its token: made once per variable.
                    if world.tokens.get(env.get(credential.env, "")) == credential.principal:
                        continue
                    token = credential.prefix + secrets.token_hex(16)
                    world.tokens[token] = world.handed[token] = credential.principal
                    self._by_token[token] = world
                    env[credential.env] = token
            self.worlds[world_id] = world
            self.envs[world_id] = env
            self.budgets[world_id] = budget
            self._used[world_id] = self._wall()
        return world

    def get(self, world_id: str) -> World:
        world = self.worlds.get(world_id)
        if world is None:
            raise NotFound(f"no live world {world_id[:40]!r}")
        return world

    def by_token(self, token: str | None) -> World | None:
        return self._by_token.get(token) if token else None

    def touch(self, world: World) -> None:
        """`world` was used now: its idle time starts again."""
        self._used[world.id] = self._wall()

    def drop(self, world_id: str) -> None:
        with self._lock:
            world = self.get(world_id)
            for token in world.tokens:
                self._by_token.pop(token, None)
            with world.lock:  # after a call in flight is logged, not while
                world.log.close()
            del self.worlds[world_id]
            del self.envs[world_id]
            del self.budgets[world_id]
            self._used.pop(world_id, None)

    def expire(self) -> list[str]:
        """Drops the worlds idle for `idle_ttl` or finished for `finished_ttl`; answers their ids."""
        now = self._wall()
        expired = [
            world_id
            for world_id, world in list(self.worlds.items())
            if (ttl := self.finished_ttl if world.finished else self.idle_ttl) is not None
            and now - self._used.get(world_id, now) >= ttl
        ]
        for world_id in expired:
            if world_id in self.worlds:
                self.drop(world_id)
        return expired

    def environment(self, world: World, base_url: str) -> dict[str, Any]:
        """The agent's environment (docs/http.md) for `world`, with URLs on `base_url` (`http://host:port`)."""
        env = {
            "SOUNDSTAGE_TASK": world.task,
            "SOUNDSTAGE_URL": f"{base_url}/v1/worlds/{world.id}",
        }
        for name, url in self.urls(world, base_url).items():
            env.update(SERVICES[name].environment(world, url))
        env.update(self.mcp_urls(world, base_url))
        env.update(self.envs[world.id])
        if self.tls is not None:
            env.update(trust(self.tls.ca))
        if self.proxy is not None:
            env.update(self.proxy.environment(base_url, env["SOUNDSTAGE_TOKEN"]))
            for service in SERVICES.values():  # for the vendors' tools, which now reach their real hosts
                behind_proxy = getattr(service, "behind_proxy", None)
                if behind_proxy is not None:
                    env.update(behind_proxy(env))
        return env

    def mcp_urls(self, world: World, base_url: str) -> dict[str, str]:
        """The MCP endpoints of `world` (docs/mcp.md), by environment variable: one per service with tools that
        the agent has a credential of (`SLACK_MCP_URL`), and one for all of them (`SOUNDSTAGE_MCP_URL`); https on
        the TLS port under `--tls`."""
        base = self.tls.base(base_url) if self.tls is not None and self.tls.everywhere else base_url
        urls = {"SOUNDSTAGE_MCP_URL": f"{base}/w/{world.id}/mcp"}
        for name, service in SERVICES.items():
            if getattr(service, "tools", None) is not None and service.credentials(world):
                urls[f"{name.upper()}_MCP_URL"] = f"{base}/w/{world.id}/mcp/{name}"
        return urls

    def urls(self, world: World, base_url: str) -> dict[str, str]:
        """Each service's base URL in `world`: https on the TLS port for every service under `--tls`, and
        for the services whose official clients accept nothing else."""
        urls = {}
        for name, service in SERVICES.items():
            secure = self.tls is not None and (self.tls.everywhere or getattr(service, "https_only", False))
            urls[name] = f"{self.tls.base(base_url) if secure else base_url}/w/{world.id}/{name}"  # type: ignore[union-attr]
        return urls
