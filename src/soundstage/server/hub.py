"""The live worlds one server holds, and the tokens that lead to them."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import NotFound
from ..services import SERVICES
from ..stage import ImageCache, WorldImage
from ..world import World
from .tls import LocalCA


@dataclass(frozen=True)
class TLSPort:
    """Where the server also listens with TLS, and whether every service's URL should use it."""

    port: int
    ca: LocalCA
    everywhere: bool = False

    def base(self, base_url: str) -> str:
        """`http://127.0.0.1:8750` -> `https://127.0.0.1:8751` (the same host name, which the certificate covers)."""
        host = urlsplit(base_url).hostname or "127.0.0.1"
        return f"https://{'[' + host + ']' if ':' in host else host}:{self.port}"


class Hub:
    """Live worlds by id, tokens to worlds, and the image cache they are built from.

    Tokens are credentials, not world data: they come from `secrets`, so no agent can guess another
    world's, and they never enter the event log.
    """

    def __init__(self) -> None:
        self.images = ImageCache()
        self.worlds: dict[str, World] = {}
        self.envs: dict[str, dict[str, str]] = {}
        self._by_token: dict[str, World] = {}
        self._count = 0
        self._lock = threading.Lock()
        self.tls: TLSPort | None = None  # set by the server when it listens with TLS too

    def create_world(self, scene: str | None = None, scene_yaml: str | None = None) -> World:
        image = self.images.load(scene=scene, scene_yaml=scene_yaml)
        return self.add(image)

    def add(self, image: WorldImage) -> World:
        with self._lock:
            self._count += 1
            world_id = f"w{self._count}"
        world = image.instantiate(world_id)
        env: dict[str, str] = {}
        for service in SERVICES.values():
            for credential in service.credentials(world):
                token = credential.prefix + secrets.token_hex(16)
                world.tokens[token] = credential.principal
                self._by_token[token] = world
                env[credential.env] = token
        self.worlds[world_id] = world
        self.envs[world_id] = env
        return world

    def get(self, world_id: str) -> World:
        world = self.worlds.get(world_id)
        if world is None:
            raise NotFound(f"no live world {world_id!r}")
        return world

    def by_token(self, token: str | None) -> World | None:
        return self._by_token.get(token) if token else None

    def drop(self, world_id: str) -> None:
        world = self.get(world_id)
        for token in world.tokens:
            self._by_token.pop(token, None)
        world.log.close()
        del self.worlds[world_id]
        del self.envs[world_id]

    def environment(self, world: World, base_url: str) -> dict[str, Any]:
        """The agent's environment (docs/http.md) for `world`, with URLs on `base_url` (`http://host:port`)."""
        env = {
            "SOUNDSTAGE_TASK": world.task,
            "SOUNDSTAGE_URL": f"{base_url}/v1/worlds/{world.id}",
        }
        for name, url in self.urls(world, base_url).items():
            env.update(SERVICES[name].environment(world, url))
        env.update(self.envs[world.id])
        if self.tls is not None:
            env["SSL_CERT_FILE"] = env["REQUESTS_CA_BUNDLE"] = str(self.tls.ca.bundle)
        return env

    def urls(self, world: World, base_url: str) -> dict[str, str]:
        """Each service's base URL in `world`: https on the TLS port for every service under `--tls`, and
        for the services whose official clients accept nothing else."""
        urls = {}
        for name, service in SERVICES.items():
            secure = self.tls is not None and (self.tls.everywhere or getattr(service, "https_only", False))
            urls[name] = f"{self.tls.base(base_url) if secure else base_url}/w/{world.id}/{name}"  # type: ignore[union-attr]
        return urls
