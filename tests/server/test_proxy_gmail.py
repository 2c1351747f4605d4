"""Gmail at its real host behind the interception proxy: the official client, unmodified, sends a message and
reads it back at `gmail.googleapis.com`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.services.google_world import SCENE

from soundstage.server import Server

from .test_proxy import calls, live, python


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(proxy_port=0) as running:
        yield running


def test_the_official_client_sends_and_reads_mail_at_gmail_googleapis_com(server: Server) -> None:
    world, env = live(server, SCENE)
    answered = python(
        env,
        "import base64, json, os\n"
        "from email.message import EmailMessage\n"
        "from google.oauth2.credentials import Credentials\n"
        "from googleapiclient.discovery import build\n"
        "credentials = Credentials(os.environ['GOOGLE_OAUTH_TOKEN'])\n"
        "gmail = build('gmail', 'v1', credentials=credentials, static_discovery=True)\n"
        "message = EmailMessage()\n"
        "message['To'] = 'omar@acme.test'\n"
        "message['Subject'] = 'Through the proxy'\n"
        "message.set_content('Hello')\n"
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
