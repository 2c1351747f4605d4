"""calendars.insert, patch, update, delete and clear, and settings.list and get: through the official client and
raw HTTP, every refusal with Google's reason, and what the checks and a list's sync token see of them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from googleapiclient.errors import HttpError
from tests.services.calendar.conftest import calendar_world
from tests.services.google_world import SCENE as GOOGLE_SCENE
from tests.services.google_world import GoogleWorld

from soundstage.checks import score_custom

SHARED = (
    GOOGLE_SCENE
    + """  calendar:
    calendars:
      - {ref: oncall, owner: $omar, summary: On-call, time_zone: UTC, shared_with: [{person: $maya, role: writer}]}
    events:
      - {ref: handover, calendar: $oncall, summary: On-call handover, in: 2d, duration: 30m}
"""
)
ID = re.compile(r"^c_[0-9a-f]{64}@group\.calendar\.google\.com$")


def reason(error: HttpError) -> tuple[int, str]:
    return error.status_code, error.error_details[0]["reason"]


def refusal(response: Any) -> tuple[int, str, str]:
    error = response.json()["error"]["errors"][0]
    return response.status_code, error["reason"], error["message"]


@pytest.fixture
def shared(stage: Any) -> GoogleWorld:
    return calendar_world(stage.world(SHARED))


def test_insert_makes_a_secondary_calendar_its_maker_owns(cal: GoogleWorld) -> None:
    client = cal.client()
    token = client.calendarList().list().execute()["nextSyncToken"]
    made = (
        client.calendars()
        .insert(body={"summary": "Launch", "description": "The launch", "timeZone": "Europe/London"})
        .execute()
    )
    assert ID.match(made["id"])
    assert made == {
        "kind": "calendar#calendar",
        "etag": made["etag"],
        "id": made["id"],
        "summary": "Launch",
        "description": "The launch",
        "timeZone": "Europe/London",
        "conferenceProperties": {"allowedConferenceSolutionTypes": ["hangoutsMeet"]},
    }
    assert client.calendars().get(calendarId=made["id"]).execute() == made
    entry = client.calendarList().get(calendarId=made["id"]).execute()
    assert (entry["accessRole"], entry["summary"], "primary" in entry) == ("owner", "Launch", False)
    changed = client.calendarList().list(syncToken=token).execute()["items"]
    assert [item["id"] for item in changed] == [made["id"]]
    rules = client.acl().list(calendarId=made["id"]).execute()["items"]
    assert [(r["id"], r["scope"], r["role"]) for r in rules] == [
        ("user:maya@acme.test", {"type": "user", "value": "maya@acme.test"}, "owner")
    ]
    # Without a zone it is UTC's; and the generic record check sees the new calendar.
    plain = cal.raw("POST", "calendars", json={"summary": "Plain"}).json()
    assert plain["timeZone"] == "UTC" and plain["id"] != made["id"]
    client.events().insert(
        calendarId=made["id"],
        body={"summary": "Go", "start": {"date": "2026-03-04"}, "end": {"date": "2026-03-05"}},
    ).execute()
    checks: list[dict[str, Any]] = [
        {"id": "made", "state": {"record": {"collection": "calendar.calendars", "where": {"summary": "Launch"}}}},
        {"id": "event", "state": {"calendar.event": {"calendar": made["id"], "summary_contains": "Go"}}},
        {"id": "elsewhere", "state": {"calendar.event": {"calendar": plain["id"], "summary_contains": "Go"}}},
    ]
    assert [(c.id, c.passed) for c in score_custom(cal.live.world, checks).checks] == [
        ("made", True),
        ("event", True),
        ("elsewhere", False),
    ]


def test_the_same_calendar_ids_every_time(stage: Any) -> None:
    ids = []
    for _ in range(2):
        world = calendar_world(stage.world(GOOGLE_SCENE))
        ids.append([world.raw("POST", "calendars", json={"summary": s}).json()["id"] for s in ("a", "b")])
    assert ids[0] == ids[1] and ids[0][0] != ids[0][1]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, (400, "required", "Missing title.")),
        ({"summary": ""}, (400, "required", "Missing title.")),
        ({"summary": 5}, (400, "invalid", "Invalid value for: summary")),
        ({"summary": "x", "timeZone": "Mars/Olympus"}, (400, "invalid", "Invalid time zone definition.")),
    ],
)
def test_insert_refuses_what_google_refuses(cal_read: GoogleWorld, body: dict[str, Any], expected: Any) -> None:
    before = len(cal_read.live.state()["calendar.calendars"])
    assert refusal(cal_read.raw("POST", "calendars", json=body)) == expected
    assert len(cal_read.live.state()["calendar.calendars"]) == before


def test_patch_and_update_by_the_owner(cal: GoogleWorld) -> None:
    client = cal.client()
    made = client.calendars().insert(body={"summary": "Launch", "location": "Lisbon"}).execute()
    patched = client.calendars().patch(calendarId=made["id"], body={"description": "Go live"}).execute()
    assert (patched["summary"], patched["description"], patched["location"]) == ("Launch", "Go live", "Lisbon")
    updated = client.calendars().update(calendarId=made["id"], body={"summary": "Launch v2"}).execute()
    assert (updated["summary"], "description" in updated, "location" in updated) == ("Launch v2", False, False)
    assert updated["timeZone"] == "UTC"
    renamed = client.calendars().patch(calendarId="primary", body={"timeZone": "Europe/Lisbon"}).execute()
    assert (renamed["id"], renamed["timeZone"]) == ("maya@acme.test", "Europe/Lisbon")
    with pytest.raises(HttpError) as raised:
        client.calendars().update(calendarId=made["id"], body={"description": "no title"}).execute()
    assert reason(raised.value) == (400, "required")


def test_a_writer_may_not_change_delete_or_clear_a_calendar(shared: GoogleWorld) -> None:
    oncall = shared.ref("oncall")
    before = shared.live.state()
    for method, path, body in (
        ("PATCH", f"calendars/{oncall}", {"summary": "Mine"}),
        ("PUT", f"calendars/{oncall}", {"summary": "Mine"}),
        ("DELETE", f"calendars/{oncall}", None),
        ("POST", f"calendars/{oncall}/clear", None),
    ):
        assert refusal(shared.raw(method, path, json=body)) == (
            403,
            "requiredAccessLevel",
            "You need to have owner access to this calendar.",
        )
    assert shared.raw("DELETE", "calendars/omar@acme.test").status_code == 404  # not on Maya's list
    assert shared.live.state() == before


def test_delete_a_secondary_calendar_and_not_a_primary_one(shared: GoogleWorld) -> None:
    client = shared.client()
    made = client.calendars().insert(body={"summary": "Launch"}).execute()
    event = (
        client.events()
        .insert(
            calendarId=made["id"],
            body={
                "summary": "Go",
                "start": {"dateTime": "2026-03-04T10:00:00Z"},
                "end": {"dateTime": "2026-03-04T11:00:00Z"},
                "attendees": [{"email": "omar@acme.test"}],
            },
        )
        .execute()
    )
    token = client.calendarList().list().execute()["nextSyncToken"]
    assert shared.raw("DELETE", f"calendars/{made['id']}").status_code == 204
    assert shared.raw("GET", f"calendars/{made['id']}").status_code == 404
    assert [e["id"] for e in client.calendarList().list().execute()["items"]] == [
        "maya@acme.test",
        shared.ref("oncall"),
    ]
    changed = client.calendarList().list(syncToken=token).execute()["items"]
    assert changed == [
        {"kind": "calendar#calendarListEntry", "etag": changed[0]["etag"], "id": made["id"], "deleted": True}
    ]
    stored = {e["id"]: e for e in shared.live.state()["calendar.events"]}
    assert stored[f"{made['id']}/{event['id']}"]["status"] == "cancelled"  # off Omar's calendar too
    assert refusal(shared.raw("DELETE", "calendars/primary")) == (
        403,
        "cannotDeletePrimaryCalendar",
        "Cannot delete primary calendar.",
    )
    assert shared.raw("DELETE", f"calendars/{made['id']}").status_code == 404


def test_clear_cancels_a_primary_calendars_events_only(cal: GoogleWorld) -> None:
    client = cal.client()
    body = {
        "summary": "Mine",
        "start": {"dateTime": "2026-03-04T10:00:00Z"},
        "end": {"dateTime": "2026-03-04T11:00:00Z"},
    }
    client.events().insert(calendarId="primary", body=body).execute()
    made = client.calendars().insert(body={"summary": "Launch"}).execute()
    kept = client.events().insert(calendarId=made["id"], body=body).execute()
    assert cal.raw("POST", "calendars/primary/clear").status_code == 204
    assert client.events().list(calendarId="primary").execute()["items"] == []
    assert [e["id"] for e in client.events().list(calendarId=made["id"]).execute()["items"]] == [kept["id"]]
    assert refusal(cal.raw("POST", f"calendars/{made['id']}/clear")) == (
        400,
        "invalid",
        "Cannot clear primary calendar.",
    )


def test_settings_are_the_accounts(cal: GoogleWorld) -> None:
    client = cal.client()
    listed = client.settings().list().execute()
    token = listed.pop("nextSyncToken")
    tag = '"1772460000000000"'
    assert listed == {
        "kind": "calendar#settings",
        "etag": tag,
        "items": [
            {"kind": "calendar#setting", "etag": tag, "id": name, "value": value}
            for name, value in (
                ("autoAddHangouts", "false"),
                ("dateFieldOrder", "MDY"),
                ("defaultEventLength", "60"),
                ("format24HourTime", "false"),
                ("hideInvitations", "false"),
                ("hideWeekends", "false"),
                ("locale", "en"),
                ("remindOnRespondedEventsOnly", "false"),
                ("showDeclinedEvents", "true"),
                ("timezone", "America/Los_Angeles"),
                ("useKeyboardShortcuts", "true"),
                ("weekStart", "0"),
            )
        ],
    }
    assert client.settings().get(setting="timezone").execute()["value"] == "America/Los_Angeles"
    assert client.settings().list(syncToken=token).execute()["items"] == []
    client.calendars().patch(calendarId="primary", body={"timeZone": "Europe/Paris"}).execute()
    assert client.settings().get(setting="timezone").execute()["value"] == "Europe/Paris"
    assert len(client.settings().list(syncToken=token).execute()["items"]) == 12
    page = cal.raw("GET", "users/me/settings", params={"maxResults": "5"}).json()
    assert len(page["items"]) == 5 and "nextPageToken" in page and "nextSyncToken" not in page
    assert refusal(cal.raw("GET", "users/me/settings/nosuch")) == (404, "notFound", "Not Found")
    stale = cal.raw("GET", "users/me/settings", params={"syncToken": "stale"})
    assert refusal(stale)[:2] == (410, "fullSyncRequired")
