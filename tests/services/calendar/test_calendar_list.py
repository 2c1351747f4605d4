"""calendarList.list: every account's primary calendar, made from the world's people."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError
from tests.services.google_world import GoogleWorld

MAYA_PRIMARY = {
    "kind": "calendar#calendarListEntry",
    "etag": '"1772460000000000"',
    "id": "maya@acme.test",
    "summary": "maya@acme.test",
    "timeZone": "America/Los_Angeles",
    "colorId": "14",
    "backgroundColor": "#9fe1e7",
    "foregroundColor": "#000000",
    "selected": True,
    "accessRole": "owner",
    "defaultReminders": [{"method": "popup", "minutes": 10}],
    "notificationSettings": {
        "notifications": [
            {"type": "eventCreation", "method": "email"},
            {"type": "eventChange", "method": "email"},
            {"type": "eventCancellation", "method": "email"},
            {"type": "eventResponse", "method": "email"},
        ]
    },
    "primary": True,
    "conferenceProperties": {"allowedConferenceSolutionTypes": ["hangoutsMeet"]},
}


def test_the_official_client_lists_the_primary_calendar(cal_read: GoogleWorld) -> None:
    listed = cal_read.client().calendarList().list().execute()
    token = listed.pop("nextSyncToken")
    assert listed == {"kind": "calendar#calendarList", "etag": '"1772460000000000"', "items": [MAYA_PRIMARY]}
    assert cal_read.client().calendarList().list(syncToken=token).execute()["items"] == []
    stale = cal_read.raw("GET", "users/me/calendarList", params={"syncToken": "stale"})
    assert stale.status_code == 410 and stale.json()["error"]["errors"][0]["reason"] == "fullSyncRequired"


def test_raw_http_gets_the_same(cal_read: GoogleWorld) -> None:
    response = cal_read.raw("GET", "users/me/calendarList", params={"minAccessRole": "owner"})
    assert response.status_code == 200
    assert response.json()["items"] == [MAYA_PRIMARY]


def test_every_person_with_an_address_has_a_primary_calendar(cal_read: GoogleWorld) -> None:
    ids = sorted(record["id"] for record in cal_read.live.state()["calendar.calendars"])
    assert ids == ["maya@acme.test", "omar@acme.test"]


@pytest.mark.parametrize(
    ("params", "status", "reason", "location"),
    [
        ({"maxResults": "x"}, 400, "invalidParameter", "maxResults"),
        ({"maxResults": "0"}, 400, "invalid", "maxResults"),
        ({"minAccessRole": "boss"}, 400, "invalidParameter", "minAccessRole"),
        ({"showHidden": "yes"}, 400, "invalidBoolean", "showHidden"),
        ({"pageToken": "nonsense"}, 400, "invalid", "pageToken"),
    ],
)
def test_bad_parameters_get_googles_reasons(
    cal_read: GoogleWorld, params: dict[str, str], status: int, reason: str, location: str
) -> None:
    response = cal_read.raw("GET", "users/me/calendarList", params=params)
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == status and error["status"] == "INVALID_ARGUMENT"
    assert error["errors"][0]["reason"] == reason
    assert error["errors"][0]["location"] == location


def test_pages_follow_next_page_tokens(cal_read: GoogleWorld) -> None:
    first = cal_read.raw("GET", "users/me/calendarList", params={"maxResults": "1"}).json()
    assert "nextPageToken" not in first  # one calendar: one page
    assert [item["id"] for item in first["items"]] == ["maya@acme.test"]


@pytest.mark.parametrize(
    ("token", "reason", "message", "challenge"),
    [
        (None, "required", "Login Required.", 'Bearer realm="https://accounts.google.com/"'),
        (
            "ya29.wrong",
            "authError",
            "Invalid Credentials",
            'Bearer realm="https://accounts.google.com/", error="invalid_token"',
        ),
    ],
)
def test_a_missing_or_bad_token_gets_googles_401(
    cal_read: GoogleWorld, token: str | None, reason: str, message: str, challenge: str
) -> None:
    response = cal_read.raw("GET", "users/me/calendarList", token=token)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == challenge
    error: dict[str, Any] = response.json()["error"]
    assert error["status"] == "UNAUTHENTICATED"
    assert error["errors"] == [
        {
            "message": message,
            "domain": "global",
            "reason": reason,
            "location": "Authorization",
            "locationType": "header",
        }
    ]


def test_the_client_raises_googles_error(cal_read: GoogleWorld) -> None:
    with pytest.raises(HttpError) as raised:
        cal_read.client().calendarList().list(maxResults=0).execute()
    assert raised.value.status_code == 400
    assert raised.value.error_details == [
        {
            "message": "Invalid Value",
            "domain": "global",
            "reason": "invalid",
            "location": "maxResults",
            "locationType": "parameter",
        }
    ]
