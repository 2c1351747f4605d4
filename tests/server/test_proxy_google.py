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
        ("www.googleapis.com", "/batch/gmail/v1", "gmail"),
        ("www.googleapis.com", "/batch/calendar/v3", "calendar"),
        ("www.googleapis.com", "/batch", None),  # Google's global batch endpoint, turned down in 2020
        ("gmail.googleapis.com", "/batch", "gmail"),
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


def test_googles_client_batches_at_its_real_hosts(server: Server) -> None:
    """`new_batch_http_request()` unmodified: Gmail's at gmail.googleapis.com/batch, Calendar's at
    www.googleapis.com/batch/calendar/v3; and Gmail's guide's path at www.googleapis.com/batch/gmail/v1."""
    world, env = live(server, SCENE)
    answered = python(
        env,
        "import json, os, httpx\n"
        "from google.oauth2.credentials import Credentials\n"
        "from googleapiclient.discovery import build\n"
        "credentials = Credentials(os.environ['GOOGLE_OAUTH_TOKEN'])\n"
        "calendar = build('calendar', 'v3', credentials=credentials, static_discovery=True)\n"
        "gmail = build('gmail', 'v1', credentials=credentials, static_discovery=True)\n"
        "got = {}\n"
        "def answered(request_id, response, exception):\n"
        "    got[request_id] = exception.resp.status if exception else response\n"
        "batch = gmail.new_batch_http_request(callback=answered)\n"
        "batch.add(gmail.users().getProfile(userId='me'), request_id='profile')\n"
        "batch.add(gmail.users().labels().get(userId='me', id='Label_404'), request_id='missing')\n"
        "batch.execute()\n"
        "batch = calendar.new_batch_http_request(callback=answered)\n"
        "batch.add(calendar.calendarList().list(), request_id='calendars')\n"
        "batch.add(calendar.colors().get(), request_id='colors')\n"
        "batch.execute()\n"
        "body = ('--b\\r\\nContent-Type: application/http\\r\\nContent-ID: <one>\\r\\n\\r\\n'\n"
        "        'GET /gmail/v1/users/me/profile\\r\\n\\r\\n--b--\\r\\n')\n"
        "headers = {'Authorization': 'Bearer ' + os.environ['GOOGLE_OAUTH_TOKEN'],\n"
        "           'Content-Type': 'multipart/mixed; boundary=b'}\n"
        "raw = httpx.post('https://www.googleapis.com/batch/gmail/v1', content=body, headers=headers)\n"
        "print(json.dumps({'address': got['profile']['emailAddress'], 'missing': got['missing'],\n"
        "                  'calendars': [c['id'] for c in got['calendars']['items']],\n"
        "                  'colors': sorted(got['colors']),\n"
        "                  'raw': [raw.status_code, 'Content-ID: <response-one>' in raw.text]}))",
    )
    assert answered == {
        "address": "maya@acme.test",
        "missing": 404,
        "calendars": ["maya@acme.test"],
        "colors": ["calendar", "event", "kind", "updated"],
        "raw": [200, True],
    }
    assert calls(world) == [
        ("gmail", "GET", "/gmail/v1/users/me/profile", 200),
        ("gmail", "GET", "/gmail/v1/users/me/labels/Label_404", 404),
        ("calendar", "GET", "/calendar/v3/users/me/calendarList", 200),
        ("calendar", "GET", "/calendar/v3/colors", 200),
        ("gmail", "GET", "/gmail/v1/users/me/profile", 200),
    ]
