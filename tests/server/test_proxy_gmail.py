"""Gmail at its real host behind the interception proxy: the official client, unmodified, sends a message and
reads it back at `gmail.googleapis.com`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.services.google_world import SCENE

from soundstage.server import Server

from .test_proxy import calls, live, python


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(proxy_port=0) as running:
        yield running


# The agent's script up to its message: the official client, unmodified, and a message to Omar.
CLIENT = (
    "import base64, json, os\n"
    "from email.message import EmailMessage\n"
    "from google.oauth2.credentials import Credentials\n"
    "from googleapiclient.discovery import build\n"
    "credentials = Credentials(os.environ['GOOGLE_OAUTH_TOKEN'])\n"
    "gmail = build('gmail', 'v1', credentials=credentials, static_discovery=True)\n"
    "message = EmailMessage()\n"
    "message['To'] = 'omar@acme.test'\n"
    "message['Subject'] = '{subject}'\n"
    "message.set_content('Hello')\n"
)


def agent(server: Server, subject: str, script: str) -> tuple[Any, Any]:
    """A fresh world, and what the agent's script printed after `CLIENT` made its message."""
    world, env = live(server, SCENE)
    return world, python(env, CLIENT.format(subject=subject) + script)


def test_the_official_client_sends_and_reads_mail_at_gmail_googleapis_com(server: Server) -> None:
    world, answered = agent(
        server,
        "Through the proxy",
        "raw = base64.urlsafe_b64encode(message.as_bytes()).decode()\n"
        "sent = gmail.users().messages().send(userId='me', body={'raw': raw}).execute()\n"
        "listed = gmail.users().messages().list(userId='me', q='subject:proxy in:sent').execute()\n"
        "print(json.dumps({'sent': sent['labelIds'], 'found': [m['id'] for m in listed['messages']] == [sent['id']]}))",
    )
    assert answered == {"sent": ["SENT"], "found": True}
    assert calls(world) == [
        ("gmail", "POST", "/gmail/v1/users/me/messages/send", 200),
        ("gmail", "GET", "/gmail/v1/users/me/messages", 200),
    ]


def test_the_official_client_uploads_mail_through_the_proxy(server: Server) -> None:
    """A `media_body` goes to https://gmail.googleapis.com/upload/gmail/v1/..., Gmail's too."""
    world, answered = agent(
        server,
        "Uploaded",
        "from googleapiclient.http import MediaInMemoryUpload\n"
        "media = MediaInMemoryUpload(message.as_bytes(), mimetype='message/rfc822')\n"
        "sent = gmail.users().messages().send(userId='me', body={}, media_body=media).execute()\n"
        "print(json.dumps(sent['labelIds']))",
    )
    assert answered == ["SENT"]
    assert calls(world) == [("gmail", "POST", "/upload/gmail/v1/users/me/messages/send", 200)]
