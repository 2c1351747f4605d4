"""calendarList.*: every account's primary calendar, made from the world's people; entries taken off a list and
added back, their own settings changed; every refusal with Google's reason."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError
from tests.services.calendar.conftest import calendar_world
from tests.services.calendar.test_calendars import SHARED, refusal
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


def test_an_entry_taken_off_the_list_and_added_back(stage: Any) -> None:
    world = calendar_world(stage.world(SHARED))
    oncall = world.ref("oncall")
    client = world.client()
    token = client.calendarList().list().execute()["nextSyncToken"]
    assert world.raw("DELETE", f"users/me/calendarList/{oncall}").status_code == 204
    assert [e["id"] for e in client.calendarList().list().execute()["items"]] == ["maya@acme.test"]
    assert world.raw("GET", f"users/me/calendarList/{oncall}").status_code == 404
    gone = client.calendarList().list(syncToken=token).execute()["items"]
    assert [(e["id"], e.get("deleted")) for e in gone] == [(oncall, True)]
    shown = client.calendarList().list(showDeleted=True).execute()["items"]
    assert [(e["id"], e.get("deleted", False)) for e in shown] == [("maya@acme.test", False), (oncall, True)]
    # Her access stays: she adds it back, with her own settings.
    back = client.calendarList().insert(body={"id": oncall, "summaryOverride": "Pager", "colorId": "3"}).execute()
    assert (back["accessRole"], back["summaryOverride"], back["colorId"], back["backgroundColor"]) == (
        "writer",
        "Pager",
        "3",
        "#f83a22",
    )
    again = world.raw("POST", "users/me/calendarList", json={"id": oncall})
    assert refusal(again) == (409, "duplicate", "The requested identifier already exists.")
    unseen = world.raw("POST", "users/me/calendarList", json={"id": "omar@acme.test"})
    assert refusal(unseen) == (404, "notFound", "Not Found")
    assert refusal(world.raw("POST", "users/me/calendarList", json={})) == (400, "required", "Missing id.")
    own = world.raw("DELETE", "users/me/calendarList/primary")
    assert refusal(own) == (403, "cannotChangeOwnPrimarySubscription", "Cannot change your own primary subscription.")


def test_patch_and_update_an_entrys_own_settings(cal: GoogleWorld) -> None:
    client = cal.client()
    token = client.calendarList().list().execute()["nextSyncToken"]
    patched = (
        client.calendarList()
        .patch(
            calendarId="primary",
            body={
                "hidden": True,
                "selected": False,
                "summaryOverride": "Me",
                "defaultReminders": [{"method": "email", "minutes": 30}],
                "notificationSettings": {"notifications": [{"type": "agenda", "method": "email"}]},
                "backgroundColor": "#123456",  # without colorRgbFormat it is not read
            },
        )
        .execute()
    )
    expected = {
        **MAYA_PRIMARY,
        "etag": patched["etag"],
        "summaryOverride": "Me",
        "hidden": True,
        "defaultReminders": [{"method": "email", "minutes": 30}],
        "notificationSettings": {"notifications": [{"type": "agenda", "method": "email"}]},
    }
    del expected["selected"]  # false: left out, as Calendar leaves it out
    assert patched == expected
    assert client.calendarList().list().execute()["items"] == []  # hidden
    assert [e["id"] for e in client.calendarList().list(syncToken=token).execute()["items"]] == ["maya@acme.test"]
    rgb = (
        client.calendarList()
        .patch(
            calendarId="primary", colorRgbFormat=True, body={"backgroundColor": "#F83A22", "foregroundColor": "#ffffff"}
        )
        .execute()
    )
    assert (rgb["colorId"], rgb["backgroundColor"], rgb["foregroundColor"]) == ("3", "#f83a22", "#ffffff")
    own = (
        client.calendarList()
        .patch(calendarId="primary", colorRgbFormat=True, body={"backgroundColor": "#123456"})
        .execute()
    )
    assert ("colorId" in own, own["backgroundColor"]) == (False, "#123456")
    whole = client.calendarList().update(calendarId="primary", body={"selected": True}).execute()
    assert (whole.get("hidden"), whole["selected"], "summaryOverride" in whole, whole["defaultReminders"]) == (
        None,
        True,
        False,
        [],
    )
    assert whole["notificationSettings"] == {"notifications": []}


@pytest.mark.parametrize(
    ("body", "params", "expected"),
    [
        ({"colorId": "25"}, {}, "Invalid value for: colorId"),
        ({"hidden": "yes"}, {}, "Invalid value for: hidden"),
        ({"summaryOverride": 3}, {}, "Invalid value for: summaryOverride"),
        ({"defaultReminders": [{"method": "sms", "minutes": 10}]}, {}, "Invalid value for: defaultReminders"),
        ({"defaultReminders": [{"method": "email", "minutes": 50000}]}, {}, "Invalid value for: defaultReminders"),
        ({"notificationSettings": {"notifications": [{"type": "x"}]}}, {}, "Invalid value for: notificationSettings"),
        ({"notificationSettings": "all"}, {}, "Invalid value for: notificationSettings"),
        ({"backgroundColor": "red"}, {"colorRgbFormat": "true"}, "Invalid value for: backgroundColor"),
    ],
)
def test_entry_changes_refused_as_google_refuses(
    cal_read: GoogleWorld, body: dict[str, Any], params: dict[str, str], expected: str
) -> None:
    before = cal_read.live.state()
    response = cal_read.raw("PATCH", "users/me/calendarList/primary", json=body, params=params)
    assert refusal(response) == (400, "invalid", expected)
    assert cal_read.live.state() == before
