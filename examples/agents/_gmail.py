"""Gmail's official client (google-api-python-client) for the scripted agents, made from the environment
soundstage gives an agent: apart from _clients.py, so the other agents do not pay for importing it."""

from __future__ import annotations

import os
from typing import Any

from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build


def gmail_client() -> Any:
    """Gmail at the world's GMAIL_API_URL, with the account's token."""
    return build(
        "gmail",
        "v1",
        credentials=Credentials(os.environ["GOOGLE_OAUTH_TOKEN"]),
        client_options={"api_endpoint": os.environ["GMAIL_API_URL"]},
        static_discovery=True,
    )
