"""Google's hosts behind the interception proxy: `www.googleapis.com` split by path between Calendar and Gmail,
`gmail.googleapis.com` Gmail's, Google's own Python client at its default root URLs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.services.google_world import SCENE

from soundstage.server import Server, proxy

from .test_proxy import calls, live, python


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(proxy_port=0) as running:
        yield running


@pytest.mark.parametrize(
    ("host", "path", "service"),
    [
        ("www.googleapis.com", "/calendar/v3/users/me/calendarList", "calendar"),
        ("www.googleapis.com", "/gmail/v1/users/me/profile", "gmail"),
        ("WWW.googleapis.com.", "/gmail/v1/users/me/labels", "gmail"),
        ("www.googleapis.com", "/drive/v3/files", None),
        ("www.googleapis.com", "/", None),
        ("gmail.googleapis.com", "/gmail/v1/users/me/profile", "gmail"),
        ("oauth2.googleapis.com", "/token", None),
    ],
)
def test_a_shared_host_is_split_by_path(host: str, path: str, service: str | None) -> None:
    assert proxy.vendor(host, path) == service


def test_googles_client_at_its_real_hosts(server: Server) -> None:
    world, env = live(server, SCENE)
    answered = python(
        env,
        "import json, os\n"
        "from google.oauth2.credentials import Credentials\n"
        "from googleapiclient.discovery import build\n"
        "credentials = Credentials(os.environ['GOOGLE_OAUTH_TOKEN'])\n"
        "calendar = build('calendar', 'v3', credentials=credentials, static_discovery=True)\n"  # www.googleapis.com
        "gmail = build('gmail', 'v1', credentials=credentials, static_discovery=True)\n"  # gmail.googleapis.com
        "listed = calendar.calendarList().list().execute()\n"
        "profile = gmail.users().getProfile(userId='me').execute()\n"
        "print(json.dumps({'calendars': [c['id'] for c in listed['items']], 'address': profile['emailAddress']}))",
    )
    assert answered == {"calendars": ["maya@acme.test"], "address": "maya@acme.test"}
    assert calls(world) == [
        ("calendar", "GET", "/calendar/v3/users/me/calendarList", 200),
        ("gmail", "GET", "/gmail/v1/users/me/profile", 200),
    ]


def test_gmail_under_www_googleapis_com_and_a_path_no_service_takes(server: Server) -> None:
    world, env = live(server, SCENE)
    answered = python(
        env,
        "import json, os, httpx\n"
        "headers = {'Authorization': 'Bearer ' + os.environ['GOOGLE_OAUTH_TOKEN']}\n"
        "with httpx.Client(headers=headers) as http:\n"
        "    labels = http.get('https://www.googleapis.com/gmail/v1/users/me/labels')\n"
        "    drive = http.get('https://www.googleapis.com/drive/v3/files')\n"
        "print(json.dumps([labels.status_code, len(labels.json()['labels']), drive.status_code, drive.text]))",
    )
    assert answered == [200, 14, 404, "Not Found"]
    assert calls(world) == [("gmail", "GET", "/gmail/v1/users/me/labels", 200)]
