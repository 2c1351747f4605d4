"""Shared fixtures: a real soundstage server on a free port, and live worlds built on it from scene text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import os
import tempfile

import httpx
import pytest

from soundstage.server import Server
from soundstage.world import World

ROOT = Path(__file__).resolve().parent.parent
# The local certificate authority of the tests' servers lives apart from the user's own.
os.environ.setdefault("SOUNDSTAGE_HOME", tempfile.mkdtemp(prefix="soundstage-tests-"))
SPECS = ROOT.parent / "shared" / "specs"


class LiveWorld:
    """A live world on the test server, seen the way an agent and a user see it."""

    def __init__(self, stage: Stage, described: dict[str, Any]) -> None:
        self.stage = stage
        self.id: str = described["id"]
        self.env: dict[str, str] = described["env"]
        self.urls: dict[str, str] = described["urls"]
        self.described = described
        self.http = stage.http
        self.control = f"/v1/worlds/{self.id}"

    @property
    def world(self) -> World:
        return self.stage.server.hub.worlds[self.id]

    @property
    def token(self) -> str:
        return self.env["SLACK_BOT_TOKEN"]

    @property
    def user_token(self) -> str:
        return self.env["SLACK_USER_TOKEN"]

    def slack(self, token: str | None = None, **kwargs: Any) -> Any:
        from slack_sdk import WebClient

        return WebClient(token=token or self.token, base_url=self.env["SLACK_API_URL"], **kwargs)

    def get(self, what: str, **params: Any) -> Any:
        response = self.http.get(f"{self.control}/{what}", params=params)
        response.raise_for_status()
        return response.json()

    def state(self) -> dict[str, list[dict[str, Any]]]:
        return self.get("state")

    def diff(self) -> dict[str, Any]:
        return self.get("diff")

    def trace(self, after: int = 0) -> list[dict[str, Any]]:
        return self.get("trace", after=after)

    def events(self, after: int = 0) -> list[dict[str, Any]]:
        return self.get("events", after=after)

    def advance(self, duration: str) -> dict[str, Any]:
        response = self.http.post(f"{self.control}/clock", json={"advance": duration})
        response.raise_for_status()
        return response.json()


class Stage:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.url = server.url
        self.http = httpx.Client(base_url=server.url, timeout=30)

    def world(self, scene_yaml: str | None = None, scene: str | None = None) -> LiveWorld:
        body = {"scene_yaml": scene_yaml} if scene_yaml is not None else {"scene": scene}
        response = self.http.post("/v1/worlds", json=body)
        assert response.status_code == 201, response.text
        return LiveWorld(self, response.json())


@pytest.fixture(scope="session")
def stage() -> Any:
    server = Server().start()
    stage = Stage(server)
    yield stage
    stage.http.close()
    server.stop()
