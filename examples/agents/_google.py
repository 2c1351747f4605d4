"""Google's official client (google-api-python-client) for the scripted agents, Gmail and Calendar, made from the
environment soundstage gives an agent: apart from _clients.py, so the other agents do not pay for importing it."""

from __future__ import annotations

import os
from typing import Any

from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build


def gmail_client() -> Any:
    """Gmail at the world's GMAIL_API_URL, with the account's token."""
    return _client("gmail", "v1", "GMAIL_API_URL")


def calendar_client() -> Any:
    """Google Calendar at the world's GOOGLE_CALENDAR_API_URL, with the account's token (the same one)."""
    return _client("calendar", "v3", "GOOGLE_CALENDAR_API_URL")


def _client(api: str, version: str, url: str) -> Any:
    return build(
        api,
        version,
        credentials=Credentials(os.environ["GOOGLE_OAUTH_TOKEN"]),
        client_options={"api_endpoint": os.environ[url]},
        static_discovery=True,
    )
