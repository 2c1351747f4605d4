"""GitHub test scenes and helpers: live worlds on the shared test server, driven by githubkit, PyGithub
and raw httpx."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.world import World

SCENE = """
name: github-test
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {github_user: $bot_gh}
seed:
  github:
    users:
      - {ref: bot_gh, login: stagebot, name: Stage Bot, email: bot@acme.test, type: Bot}
      - {ref: maya_gh, login: maya, name: Maya Chen, email: maya@acme.test}
    repos:
      - ref: orders
        full_name: acme/orders
        description: The orders API
        default_branch: main
        files:
          README.md: "# orders\\n"
          src/app.py: "def total(order):\\n    return sum(order)\\n"
          src/util/money.py: "CENTS = 100\\n"
        commits:
          - ref: bad_commit
            message: Cache order totals
            author: $maya_gh
            files: {src/app.py: "cache_totals=True\\ndef total(order):\\n    return sum(order)\\n"}
          - {ref: docs_commit, message: Document caching, files: {docs/cache.md: "Totals are cached.\\n"}}
        branches: {feature: $bad_commit}
        production: $bad_commit
        deploy_on_merge: true
        labels:
          - {name: bug, color: d73a4a, description: Something is broken}
      - {full_name: acme/empty, private: true}
      - {full_name: maya/notes, files: {notes.txt: "hello\\n"}}
"""


class GitHubWorld:
    """A live world seen through the GitHub clients."""

    def __init__(self, live: Any) -> None:
        self.live = live
        self.url: str = live.env["GITHUB_API_URL"]
        self.token: str = live.env["GITHUB_TOKEN"]

    def kit(self) -> Any:
        from githubkit import GitHub

        return GitHub(self.token, base_url=self.url, http_cache=False)

    def py(self) -> Any:
        from github import Auth, Github

        return Github(
            auth=Auth.Token(self.token), base_url=self.url, seconds_between_requests=0, seconds_between_writes=0
        )

    def raw(self, method: str, path: str, token: str | None = "", **kwargs: Any) -> httpx.Response:
        headers = {"User-Agent": "test", **kwargs.pop("headers", {})}
        if token is not None:
            headers.setdefault("Authorization", f"token {token or self.token}")
        return self.live.http.request(method, self.url + path, headers=headers, **kwargs)

    def state(self, collection: str) -> dict[str, Any]:
        return {k: dict(v) for k, v in self.live.world[collection]._records.items()}


def call(world: World, method: str, path: str, query: dict[str, str] | None = None, body: Any = None) -> Any:
    """A successful call as the agent's user, through the recording layer as the server makes it, without
    HTTP: its `Link` header and its JSON answer (None for an empty one)."""
    principal = next(p for p in world.tokens.values() if p.service == "github" and p.token_type == "user")
    headers = {"user-agent": "test", "content-type": "application/json"}
    content = json.dumps(body).encode() if body is not None else b""
    request = ServiceRequest(method, path, query or {}, headers, content, "http://127.0.0.1:8750/w/x/github")
    reply = record(world, SERVICES["github"], principal, request)
    assert reply[0].status < 300, reply[1]
    return reply[0].headers.get("Link"), json.loads(reply[1]) if reply[1] else None


@pytest.fixture
def gh(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(SCENE))
