"""Shared fixtures: a real soundstage server on a free port, and live worlds built on it from scene text."""

from __future__ import annotations

import json
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

import soundstage.clock
from soundstage.clock import parse_time
from soundstage.server import Server
from soundstage.world import World

# hand-made attempts; the results stores to test against; how the tests are spread over xdist's workers
pytest_plugins = ["tests.attempts", "tests.stores", "tests.scheduling"]


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


class AdminAuth(httpx.Auth):
    """The admin token on control API calls that carry no credential of their own, as a user's harness
    sends it; service calls go as the agent sends them."""

    def __init__(self, token: str) -> None:
        self.token = token

    def auth_flow(self, request: httpx.Request) -> Iterator[httpx.Request]:
        if request.url.path.startswith("/v1/") and "authorization" not in request.headers:
            request.headers["authorization"] = f"Bearer {self.token}"
        yield request


class Stage:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.url = server.url
        # One client per port for every test: making a client (its SSL context) costs tens of milliseconds.
        self.http = httpx.Client(base_url=server.url, auth=AdminAuth(server.admin_token), timeout=30)
        assert server.hub.tls is not None
        self.https = httpx.Client(verify=ssl.create_default_context(cafile=server.hub.tls.ca.bundle), timeout=30)

    def world(self, scene_yaml: str | None = None, scene: str | None = None) -> LiveWorld:
        body = {"scene_yaml": scene_yaml} if scene_yaml is not None else {"scene": scene}
        response = self.http.post("/v1/worlds", json=body)
        assert response.status_code == 201, response.text
        return LiveWorld(self, response.json())


class Wall:
    """A wall clock that moves only when a test moves it, read by realtime worlds in place of the machine's."""

    def __init__(self, at: str) -> None:
        self.ns = parse_time(at) * 1000

    def __call__(self) -> int:
        return self.ns

    def move(self, seconds: float) -> None:
        self.ns += round(seconds * 1_000_000_000)


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> Wall:
    """The wall clock of this process's realtime worlds (the in-process server's too) during the test: it
    starts at 2026-03-02T15:30:00.25Z and moves by `wall.move(seconds)`."""
    fake = Wall("2026-03-02T15:30:00.25Z")
    monkeypatch.setattr(soundstage.clock, "wall_ns", fake)
    return fake


@pytest.fixture(scope="session", autouse=True)
def soundstage_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where the tests' servers keep the local certificate authority: apart from the user's own, and one
    per test process, so that the workers of a parallel run do not race each other making it."""
    with pytest.MonkeyPatch.context() as patch:
        home = tmp_path_factory.mktemp("soundstage-home")
        patch.setenv("SOUNDSTAGE_HOME", str(home))
        yield home


# The session's server, once a test asked for it (`stage`).
_SERVING: list[Server] = []


@pytest.fixture(scope="session")
def stage() -> Any:
    server = Server().start()
    _SERVING.append(server)
    stage = Stage(server)
    yield stage
    _SERVING.remove(server)
    stage.http.close()
    stage.https.close()
    server.stop()


@pytest.fixture(autouse=True)
def _drop_the_tests_worlds() -> Iterator[None]:
    """The worlds a test made on the session's server are dropped after it, or a worker that runs many tests
    reaches the server's limit of live worlds. Those of wider fixtures (a module's world) were made before this
    one is set up, and stay."""
    before = {id(server): set(server.hub.worlds) for server in _SERVING}
    yield
    for server in _SERVING:
        for world_id in set(server.hub.worlds) - before.get(id(server), set()):
            if world_id in server.hub.worlds:
                server.hub.drop(world_id)


class FakeChatModel:
    """An OpenAI-compatible chat-completions endpoint on a free port. It answers `content` as a chat
    completion (or `reply` exactly, when set) with HTTP `status`, and keeps every request it got."""

    def __init__(self) -> None:
        self.url = ""
        self.requests: list[dict[str, Any]] = []
        self.status = 200
        self.content = ""
        self.reply: Any = None

    def body(self) -> bytes:
        if isinstance(self.reply, bytes):
            return self.reply
        if self.reply is not None:
            return json.dumps(self.reply).encode()
        if self.status != 200:
            return b'{"error": "overloaded"}'
        message = {"role": "assistant", "content": self.content}
        return json.dumps(
            {"id": "c1", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}
        ).encode()


@pytest.fixture
def chat_model() -> Iterator[FakeChatModel]:
    fake = FakeChatModel()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            fake.requests.append({"path": self.path, "authorization": self.headers.get("Authorization"), "body": body})
            data = fake.body()
            self.send_response(fake.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield fake
    server.shutdown()
    server.server_close()
