"""What the tests of Google's services share: a scene whose people have Google accounts, and a live world
seen through Google's clients (the official google-api-python-client, unmodified, and raw httpx)."""

from __future__ import annotations

from typing import Any

import httpx

# The clock starts on Monday 2026-03-02 14:00 UTC. Maya (Los Angeles) and Omar (London) are Slack users with
# addresses, so each has a Google account; the bot has none.
SCENE = """
name: google-test
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {google_user: $maya}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: maya, name: maya, real_name: Maya Chen, email: maya@acme.test, tz: America/Los_Angeles}
      - {ref: omar, name: omar, real_name: Omar Haddad, email: omar@acme.test, tz: Europe/London}
"""


class GoogleWorld:
    """A live world seen through one Google API's clients: `api` and `version` as `build` names them, its root
    in the agent's environment variable `url`."""

    def __init__(self, live: Any, api: str, version: str, url: str) -> None:
        self.live = live
        self.api, self.version = api, version
        self.url: str = live.env[url]
        self.token: str = live.env["GOOGLE_OAUTH_TOKEN"]

    def ref(self, name: str) -> str:
        return self.live.world.refs[name]

    def client(self, token: str | None = None) -> Any:
        """The official client, unmodified: `build` with the packaged discovery document, pointed at the world."""
        from google.oauth2.credentials import Credentials
        from googleapiclient.discovery import build

        return build(
            self.api,
            self.version,
            credentials=Credentials(token or self.token),
            client_options={"api_endpoint": self.url},
            static_discovery=True,
            cache_discovery=False,
        )

    def raw(self, method: str, path: str, token: str | None = "", **kwargs: Any) -> httpx.Response:
        """A plain request with `Authorization: Bearer ...` (None: no Authorization at all); `path` is relative
        to the API's root."""
        headers = dict(kwargs.pop("headers", {}))
        if token is not None:
            headers.setdefault("Authorization", f"Bearer {token or self.token}")
        return self.live.http.request(method, self.url + path, headers=headers, **kwargs)
