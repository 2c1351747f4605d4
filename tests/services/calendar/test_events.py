"""events.insert, get, list, patch, update, delete and move: through the official client and raw HTTP, every
refusal with Google's reason."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError
from tests.services.google_world import GoogleWorld

from soundstage.services.calendar import events

STANDUP = {
    "summary": "Orders standup",
    "location": "Room 4",
    "start": {"dateTime": "2026-03-03T09:00:00-08:00"},
    "end": {"dateTime": "2026-03-03T09:30:00-08:00"},
    "attendees": [{"email": "omar@acme.test"}, {"email": "maya@acme.test"}],
}


def reason(error: HttpError) -> tuple[int, str]:
    return error.status_code, error.error_details[0]["reason"]


def test_insert_then_get_through_the_client(cal: GoogleWorld) -> None:
    client = cal.client()
    made = client.events().insert(calendarId="primary", body=STANDUP).execute()
    event_id = made["id"]
    assert len(event_id) == 26 and set(event_id) <= set("0123456789abcdefghijklmnopqrstuv")
    assert made == {
        "kind": "calendar#event",
        "etag": made["etag"],
        "id": event_id,
        "status": "confirmed",
        "htmlLink": made["htmlLink"],
        "created": "2026-03-02T14:00:00.000Z",
        "updated": "2026-03-02T14:00:00.000Z",
        "summary": "Orders standup",
        "location": "Room 4",
        "creator": {"email": "maya@acme.test", "self": True},
        "organizer": {"email": "maya@acme.test", "self": True},
        "start": {"dateTime": "2026-03-03T09:00:00-08:00"},
        "end": {"dateTime": "2026-03-03T09:30:00-08:00"},
        "iCalUID": f"{event_id}@google.com",
        "sequence": 0,
        "attendees": [
            {"email": "omar@acme.test", "responseStatus": "needsAction"},
            {"email": "maya@acme.test", "self": True, "organizer": True, "responseStatus": "accepted"},
        ],
        "reminders": {"useDefault": True},
        "eventType": "default",
    }
    assert made["etag"] == '"1772460000000000"'
    got = client.events().get(calendarId="maya@acme.test", eventId=event_id).execute()
    assert got == made
    in_london = client.events().get(calendarId="primary", eventId=event_id, timeZone="Europe/London").execute()
    assert in_london["start"] == {"dateTime": "2026-03-03T17:00:00Z"}


def test_the_same_ids_every_time(stage: Any) -> None:
    from tests.services.calendar.conftest import calendar_world
    from tests.services.google_world import SCENE

    ids = []
    for _ in range(2):
        world = calendar_world(stage.world(SCENE))
        ids.append(world.raw("POST", "calendars/primary/events", json=STANDUP).json()["id"])
    assert ids[0] == ids[1]


def test_the_organizers_patch_gives_the_attendees_whole(cal: GoogleWorld) -> None:
    made = cal.raw("POST", "calendars/primary/events", json=STANDUP).json()
    patched = cal.raw(
        "PATCH",
        f"calendars/primary/events/{made['id']}",
        json={"attendees": [{"email": "maya@acme.test", "responseStatus": "tentative"}, {"email": "Lee@Acme.test"}]},
    ).json()
    assert [(a["email"], a["responseStatus"]) for a in patched["attendees"]] == [
        ("maya@acme.test", "tentative"),
        ("lee@acme.test", "needsAction"),
    ]


@pytest.mark.parametrize(
    ("body", "status", "expected"),
    [
        ({"summary": "x"}, 400, "required"),
        ({"start": {"dateTime": "2026-03-03T10:00:00Z"}}, 400, "required"),
        ({"start": {"dateTime": "2026-03-03T10:00:00"}, "end": {"dateTime": "2026-03-03T11:00:00"}}, 400, "required"),
        ({"start": {"dateTime": "nope"}, "end": {"dateTime": "2026-03-03T11:00:00Z"}}, 400, "invalid"),
        (
            {"start": {"dateTime": "2026-03-03T12:00:00Z"}, "end": {"dateTime": "2026-03-03T11:00:00Z"}},
            400,
            "timeRangeEmpty",
        ),
        ({"start": {"date": "2026-03-03"}, "end": {"dateTime": "2026-03-03T11:00:00Z"}}, 400, "invalid"),
        (
            {
                "start": {"dateTime": "2026-03-03T10:00:00", "timeZone": "Mars/Olympus"},
                "end": {"dateTime": "2026-03-03T11:00:00Z"},
            },
            400,
            "invalid",
        ),
        ({**STANDUP, "id": "UPPER_case"}, 400, "invalid"),
        ({**STANDUP, "attendees": [{"displayName": "no address"}]}, 400, "required"),
        ({**STANDUP, "attendees": [{"email": "not an address"}]}, 400, "invalid"),
        ({**STANDUP, "recurrence": ["RRULE:FREQ=SOMETIMES"]}, 400, "invalid"),
        ({**STANDUP, "colorId": "12"}, 400, "invalid"),
    ],
)
def test_insert_refuses_what_google_refuses(
    cal_read: GoogleWorld, body: dict[str, Any], status: int, expected: str
) -> None:
    before = len(cal_read.live.state().get("calendar.events", []))
    response = cal_read.raw("POST", "calendars/primary/events", json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["errors"][0]["reason"] == expected
    assert len(cal_read.live.state().get("calendar.events", [])) == before


def test_a_given_id_twice_is_a_conflict(cal: GoogleWorld) -> None:
    first = cal.raw("POST", "calendars/primary/events", json={**STANDUP, "id": "standup20260303"})
    assert first.status_code == 200 and first.json()["id"] == "standup20260303"
    again = cal.raw("POST", "calendars/primary/events", json={**STANDUP, "id": "standup20260303"})
    assert again.status_code == 409 and again.json()["error"]["errors"][0]["reason"] == "duplicate"


def test_a_calendar_not_on_the_list_is_not_found(cal_read: GoogleWorld) -> None:
    for method, path in (("GET", "calendars/omar@acme.test/events"), ("POST", "calendars/nobody@acme.test/events")):
        response = cal_read.raw(method, path, json=STANDUP)
        assert response.status_code == 404
        assert response.json()["error"]["status"] == "NOT_FOUND"
    with pytest.raises(HttpError) as raised:
        cal_read.client().events().get(calendarId="primary", eventId="nosuchevent").execute()
    assert reason(raised.value) == (404, "notFound")


def test_list_by_time_words_and_order(cal: GoogleWorld) -> None:
    client = cal.client()
    for day, summary in (("05", "Roadmap review"), ("03", "Orders standup"), ("04", "Lunch with Omar")):
        body = {
            "summary": summary,
            "start": {"dateTime": f"2026-03-{day}T12:00:00Z"},
            "end": {"dateTime": f"2026-03-{day}T13:00:00Z"},
        }
        client.events().insert(calendarId="primary", body=body).execute()
    listed = client.events().list(calendarId="primary", singleEvents=True, orderBy="startTime").execute()
    assert [e["summary"] for e in listed["items"]] == ["Orders standup", "Lunch with Omar", "Roadmap review"]
    assert listed["kind"] == "calendar#events" and listed["timeZone"] == "America/Los_Angeles"
    assert listed["accessRole"] == "owner" and "nextSyncToken" in listed
    window = (
        client.events()
        .list(calendarId="primary", timeMin="2026-03-04T00:00:00Z", timeMax="2026-03-05T12:00:00Z")
        .execute()
    )
    assert [e["summary"] for e in window["items"]] == ["Lunch with Omar"]
    assert [e["summary"] for e in client.events().list(calendarId="primary", q="omar").execute()["items"]] == [
        "Lunch with Omar"
    ]
    first = client.events().list(calendarId="primary", maxResults=2, orderBy="startTime", singleEvents=True).execute()
    second = (
        client.events()
        .list(
            calendarId="primary", maxResults=2, orderBy="startTime", singleEvents=True, pageToken=first["nextPageToken"]
        )
        .execute()
    )
    assert [e["summary"] for e in first["items"] + second["items"]] == [
        "Orders standup",
        "Lunch with Omar",
        "Roadmap review",
    ]
    assert "nextPageToken" not in second


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"orderBy": "startTime"}, "badRequest"),
        ({"orderBy": "size"}, "invalidParameter"),
        ({"timeMin": "2026-03-04"}, "badRequest"),
        ({"timeMin": "2026-03-04T00:00:00"}, "badRequest"),
        ({"timeMin": "2026-03-05T00:00:00Z", "timeMax": "2026-03-04T00:00:00Z"}, "timeRangeEmpty"),
        ({"timeZone": "Nowhere/Town"}, "invalid"),
        ({"maxResults": "0"}, "invalid"),
        ({"singleEvents": "maybe"}, "invalidBoolean"),
    ],
)
def test_list_refuses_bad_parameters(cal_read: GoogleWorld, params: dict[str, str], expected: str) -> None:
    response = cal_read.raw("GET", "calendars/primary/events", params=params)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["errors"][0]["reason"] == expected


def test_a_sync_token_lists_what_changed_since(cal: GoogleWorld) -> None:
    client = cal.client()
    first = client.events().insert(calendarId="primary", body=STANDUP).execute()
    token = client.events().list(calendarId="primary").execute()["nextSyncToken"]
    second = client.events().insert(calendarId="primary", body={**STANDUP, "summary": "Retro"}).execute()
    client.events().delete(calendarId="primary", eventId=first["id"]).execute()
    changed = client.events().list(calendarId="primary", syncToken=token).execute()
    assert [(e["id"], e["status"]) for e in changed["items"]] == [
        (first["id"], "cancelled"),
        (second["id"], "confirmed"),
    ]
    stale = cal.raw("GET", "calendars/primary/events", params={"syncToken": "garbage"})
    assert stale.status_code == 410 and stale.json()["error"]["errors"][0]["reason"] == "fullSyncRequired"


def test_patch_update_and_delete(cal: GoogleWorld) -> None:
    client = cal.client()
    made = client.events().insert(calendarId="primary", body=STANDUP).execute()
    patched = (
        client.events()
        .patch(
            calendarId="primary",
            eventId=made["id"],
            body={
                "summary": "Orders standup (moved)",
                "start": {"dateTime": "2026-03-03T10:00:00-08:00"},
                "end": {"dateTime": "2026-03-03T10:30:00-08:00"},
            },
        )
        .execute()
    )
    assert patched["summary"] == "Orders standup (moved)" and patched["location"] == "Room 4"
    assert patched["sequence"] == 1 and patched["updated"] > made["updated"]
    assert patched["attendees"] == made["attendees"]
    updated = (
        client.events()
        .update(
            calendarId="primary",
            eventId=made["id"],
            body={"summary": "Standup", "start": STANDUP["start"], "end": STANDUP["end"]},
        )
        .execute()
    )
    assert "location" not in updated and "attendees" not in updated and updated["summary"] == "Standup"
    client.events().delete(calendarId="primary", eventId=made["id"]).execute()
    assert client.events().get(calendarId="primary", eventId=made["id"]).execute()["status"] == "cancelled"
    assert client.events().list(calendarId="primary").execute()["items"] == []
    with pytest.raises(HttpError) as raised:
        client.events().delete(calendarId="primary", eventId=made["id"]).execute()
    assert reason(raised.value) == (410, "deleted")
    bad = cal.raw("PATCH", f"calendars/primary/events/{made['id']}", json={"end": {"dateTime": "2026-03-01T00:00:00Z"}})
    assert bad.status_code == 400 and bad.json()["error"]["errors"][0]["reason"] == "timeRangeEmpty"


def test_the_trace_names_the_calls(cal: GoogleWorld) -> None:
    made = cal.raw("POST", "calendars/primary/events", json=STANDUP).json()
    cal.raw("GET", f"calendars/primary/events/{made['id']}")
    trace = cal.live.trace()
    assert [(c["service"], c["method"], c["operation"], c["status"]) for c in trace] == [
        ("calendar", "POST", "POST /calendar/v3/calendars/{calendarId}/events", 200),
        ("calendar", "GET", "GET /calendar/v3/calendars/{calendarId}/events/{eventId}", 200),
    ]


def test_pages_of_an_endless_series_with_changed_instances(cal: GoogleWorld) -> None:
    client = cal.client()
    body = {
        "summary": "Daily",
        "start": {"dateTime": "2026-03-03T09:00:00Z"},
        "end": {"dateTime": "2026-03-03T09:30:00Z"},
        "recurrence": ["RRULE:FREQ=DAILY"],
    }
    unzoned = cal.raw("POST", "calendars/primary/events", json=body)  # a recurring event names its zone
    assert unzoned.status_code == 400 and unzoned.json()["error"]["errors"][0]["reason"] == "required"
    body["start"] = {**body["start"], "timeZone": "UTC"}
    daily = client.events().insert(calendarId="primary", body=body).execute()["id"]
    client.events().delete(calendarId="primary", eventId=f"{daily}_20260304T090000Z").execute()
    late = {"start": {"dateTime": "2026-03-07T12:00:00Z"}, "end": {"dateTime": "2026-03-07T12:30:00Z"}}
    client.events().patch(calendarId="primary", eventId=f"{daily}_20260305T090000Z", body=late).execute()
    seen, token = [], None
    for _ in range(3):
        page = (
            client.events()
            .list(calendarId="primary", singleEvents=True, orderBy="startTime", maxResults=2, pageToken=token)
            .execute()
        )
        seen += [e["start"]["dateTime"] for e in page["items"]]
        token = page["nextPageToken"]
    assert seen == [
        "2026-03-03T09:00:00Z",  # in its own zone, UTC
        "2026-03-06T09:00:00Z",  # the fourth cancelled
        "2026-03-07T09:00:00Z",
        "2026-03-07T04:00:00-08:00",  # the fifth's, moved to 12:00 UTC: its start names no zone of its own
        "2026-03-08T09:00:00Z",
        "2026-03-09T09:00:00Z",
    ]


def test_instances_of_an_endless_series_page_on(cal: GoogleWorld) -> None:
    body = {
        "summary": "Weekly",
        "start": {"dateTime": "2026-03-03T09:00:00", "timeZone": "Europe/London"},
        "end": {"dateTime": "2026-03-03T09:30:00", "timeZone": "Europe/London"},
        "recurrence": ["RRULE:FREQ=WEEKLY"],
    }
    weekly = cal.client().events().insert(calendarId="primary", body=body).execute()["id"]
    first = cal.client().events().instances(calendarId="primary", eventId=weekly, maxResults=2).execute()
    second = (
        cal.client()
        .events()
        .instances(calendarId="primary", eventId=weekly, maxResults=2, pageToken=first["nextPageToken"])
        .execute()
    )
    assert [i["start"]["dateTime"] for i in first["items"] + second["items"]] == [
        "2026-03-03T09:00:00Z",
        "2026-03-10T09:00:00Z",
        "2026-03-17T09:00:00Z",
        "2026-03-24T09:00:00Z",
    ]
    assert "nextPageToken" in second


def test_import_keeps_a_private_copy_by_its_ical_uid(cal: GoogleWorld) -> None:
    client = cal.client()
    body = {
        "iCalUID": "launch-2026@partner.test",
        "summary": "Partner launch",
        "start": {"dateTime": "2026-03-04T10:00:00Z"},
        "end": {"dateTime": "2026-03-04T11:00:00Z"},
        "organizer": {"email": "Jo@partner.test", "displayName": "Jo"},
        "attendees": [{"email": "jo@partner.test", "responseStatus": "accepted"}, {"email": "omar@acme.test"}],
        "sequence": 2,
    }
    copy = client.events().import_(calendarId="primary", body=body).execute()
    assert (copy["iCalUID"], copy["organizer"], copy["sequence"], copy["status"]) == (
        "launch-2026@partner.test",
        {"email": "jo@partner.test", "displayName": "Jo"},
        2,
        "confirmed",
    )
    assert [(a["email"], a["responseStatus"]) for a in copy["attendees"]] == [
        ("jo@partner.test", "accepted"),
        ("omar@acme.test", "needsAction"),
    ]
    listed = client.events().list(calendarId="primary", iCalUID="launch-2026@partner.test").execute()["items"]
    assert [e["id"] for e in listed] == [copy["id"]]
    # A private copy: not on Omar's calendar, though he attends.
    assert events.on(cal.live.world, "omar@acme.test") == []
    again = client.events().import_(calendarId="primary", body={**body, "summary": "Partner launch, moved"}).execute()
    assert (again["id"], again["summary"]) == (copy["id"], "Partner launch, moved")
    assert len(cal.live.state()["calendar.events"]) == 1


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {"start": {"dateTime": "2026-03-04T10:00:00Z"}, "end": {"dateTime": "2026-03-04T11:00:00Z"}},
            (400, "required", "Missing iCalUID."),
        ),
        (
            {"iCalUID": "x@partner.test", "end": {"dateTime": "2026-03-04T11:00:00Z"}},
            (400, "required", "Missing start time."),
        ),
        (
            {
                "iCalUID": "x@partner.test",
                "organizer": {"email": "nobody"},
                "start": {"date": "2026-03-04"},
                "end": {"date": "2026-03-05"},
            },
            (400, "invalid", "Invalid value for: organizer"),
        ),
        (
            {
                "iCalUID": "x@partner.test",
                "sequence": -1,
                "start": {"date": "2026-03-04"},
                "end": {"date": "2026-03-05"},
            },
            (400, "invalid", "Invalid value for: sequence"),
        ),
    ],
)
def test_import_refuses_what_google_refuses(cal_read: GoogleWorld, body: dict[str, Any], expected: Any) -> None:
    before = cal_read.live.state()
    response = cal_read.raw("POST", "calendars/primary/events/import", json=body)
    error = response.json()["error"]["errors"][0]
    assert (response.status_code, error["reason"], error["message"]) == expected
    assert cal_read.live.state() == before
