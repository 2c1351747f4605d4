"""A world's calendars and events by ref, and what reads them: free/busy, recurring events and their instances,
an attendee's answer, quickAdd, move, the ACL, colours, and the `calendar.event` check."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError
from tests.services.calendar.conftest import calendar_world
from tests.services.google_world import SCENE as GOOGLE_SCENE
from tests.services.google_world import GoogleWorld

from soundstage.checks import score_custom

SCENE = (
    GOOGLE_SCENE
    + """  calendar:
    calendars:
      - {ref: oncall, owner: $omar, summary: On-call, description: Who carries the pager, location: London,
         time_zone: UTC, shared_with: [{person: $maya, role: writer}]}
    events:
      - ref: review
        calendar: $omar
        summary: Orders design review
        start: "2026-03-03T15:00:00Z"
        duration: 1h
        attendees: [$maya, {person: jo@partner.test, response: accepted}]
      - ref: standup
        calendar: $maya
        summary: Standup
        start: "2026-03-02T09:00:00-08:00"
        duration: 15m
        time_zone: America/Los_Angeles
        recurrence: ["RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;COUNT=10"]
      - {ref: handover, calendar: $oncall, summary: On-call handover, in: 2d, duration: 30m}
      - {ref: offsite, calendar: $maya, summary: Offsite, start: "2026-03-09", transparency: transparent}
"""
)


@pytest.fixture
def seeded(stage: Any) -> GoogleWorld:
    return calendar_world(stage.world(SCENE))


def test_the_calendar_list_has_the_shared_calendar(seeded: GoogleWorld) -> None:
    listed = seeded.client().calendarList().list().execute()["items"]
    assert [(c["id"], c["summary"], c["accessRole"]) for c in listed] == [
        ("maya@acme.test", "maya@acme.test", "owner"),
        (seeded.ref("oncall"), "On-call", "writer"),
    ]
    entry = seeded.client().calendarList().get(calendarId=seeded.ref("oncall")).execute()
    assert entry["id"] == seeded.ref("oncall") and "primary" not in entry
    calendar = seeded.client().calendars().get(calendarId="primary").execute()
    assert calendar == {
        "kind": "calendar#calendar",
        "etag": '"1772460000000000"',
        "id": "maya@acme.test",
        "summary": "maya@acme.test",
        "timeZone": "America/Los_Angeles",
        "conferenceProperties": {"allowedConferenceSolutionTypes": ["hangoutsMeet"]},
    }
    with pytest.raises(HttpError) as raised:
        seeded.client().calendars().get(calendarId="omar@acme.test").execute()
    assert raised.value.status_code == 404


def test_an_invitation_shows_on_the_attendees_calendar_and_the_agent_answers_it(seeded: GoogleWorld) -> None:
    review = seeded.ref("review")
    shown = seeded.client().events().get(calendarId="primary", eventId=review).execute()
    assert shown["organizer"] == {"email": "omar@acme.test"}
    assert shown["start"] == {"dateTime": "2026-03-03T07:00:00-08:00"}
    assert [(a["email"], a["responseStatus"]) for a in shown["attendees"]] == [
        ("maya@acme.test", "needsAction"),
        ("jo@partner.test", "accepted"),
    ]
    answered = (
        seeded.client()
        .events()
        .patch(
            calendarId="primary",
            eventId=review,
            body={"attendees": [{"email": "maya@acme.test", "responseStatus": "declined"}]},
        )
        .execute()
    )
    assert [(a["email"], a["responseStatus"]) for a in answered["attendees"]] == [
        ("maya@acme.test", "declined"),
        ("jo@partner.test", "accepted"),
    ]
    refused = seeded.raw("PATCH", f"calendars/primary/events/{review}", json={"summary": "Mine now"})
    assert refused.status_code == 403
    assert refused.json()["error"]["errors"][0]["reason"] == "forbiddenForNonOrganizer"
    assert passes(seeded.live.world, {"event": review, "responses": {"$maya": "declined"}})


def test_recurring_events_expand_into_instances(seeded: GoogleWorld) -> None:
    client = seeded.client()
    standup = seeded.ref("standup")
    week = (
        client.events()
        .list(
            calendarId="primary",
            singleEvents=True,
            orderBy="startTime",
            timeMin="2026-03-02T00:00:00Z",
            timeMax="2026-03-07T00:00:00Z",
        )
        .execute()["items"]
    )
    assert [(e["id"], e["start"]["dateTime"]) for e in week if e["summary"] == "Standup"] == [
        (f"{standup}_20260302T170000Z", "2026-03-02T09:00:00-08:00"),
        (f"{standup}_20260303T170000Z", "2026-03-03T09:00:00-08:00"),
        (f"{standup}_20260304T170000Z", "2026-03-04T09:00:00-08:00"),
        (f"{standup}_20260305T170000Z", "2026-03-05T09:00:00-08:00"),
        (f"{standup}_20260306T170000Z", "2026-03-06T09:00:00-08:00"),
    ]
    # Daylight saving time begins in Los Angeles on 2026-03-08: the standup stays at 09:00 there.
    instances = client.events().instances(calendarId="primary", eventId=standup).execute()["items"]
    assert len(instances) == 10
    assert instances[5]["start"] == {"dateTime": "2026-03-09T09:00:00-07:00", "timeZone": "America/Los_Angeles"}
    assert instances[5]["recurringEventId"] == standup
    assert instances[5]["originalStartTime"] == instances[5]["start"]
    one = instances[1]["id"]
    moved = (
        client.events()
        .patch(
            calendarId="primary",
            eventId=one,
            body={"start": {"dateTime": "2026-03-03T10:00:00-08:00"}, "end": {"dateTime": "2026-03-03T10:15:00-08:00"}},
        )
        .execute()
    )
    assert moved["id"] == one and moved["start"]["dateTime"] == "2026-03-03T10:00:00-08:00"
    client.events().delete(calendarId="primary", eventId=instances[2]["id"]).execute()
    after = client.events().instances(calendarId="primary", eventId=standup).execute()["items"]
    assert len(after) == 9
    assert after[1]["start"]["dateTime"] == "2026-03-03T10:00:00-08:00"
    master = client.events().list(calendarId="primary", q="standup").execute()["items"]
    assert master[0]["id"] == standup and master[0]["recurrence"] == ["RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;COUNT=10"]


def test_free_busy_of_the_worlds_people(seeded: GoogleWorld) -> None:
    body = {
        "timeMin": "2026-03-02T00:00:00Z",
        "timeMax": "2026-03-04T00:00:00Z",
        "items": [{"id": "primary"}, {"id": "omar@acme.test"}, {"id": "nobody@acme.test"}],
    }
    answered = seeded.client().freebusy().query(body=body).execute()
    assert answered == {
        "kind": "calendar#freeBusy",
        "timeMin": "2026-03-02T00:00:00.000Z",
        "timeMax": "2026-03-04T00:00:00.000Z",
        "calendars": {
            "primary": {
                "busy": [
                    {"start": "2026-03-02T17:00:00Z", "end": "2026-03-02T17:15:00Z"},
                    {"start": "2026-03-03T15:00:00Z", "end": "2026-03-03T16:00:00Z"},
                    {"start": "2026-03-03T17:00:00Z", "end": "2026-03-03T17:15:00Z"},
                ]
            },
            "omar@acme.test": {"busy": [{"start": "2026-03-03T15:00:00Z", "end": "2026-03-03T16:00:00Z"}]},
            "nobody@acme.test": {"errors": [{"domain": "global", "reason": "notFound"}], "busy": []},
        },
    }
    for wrong, expected in (
        ({"timeMax": "2026-03-04T00:00:00Z", "items": []}, "required"),
        ({"timeMin": "2026-03-04T00:00:00Z", "timeMax": "2026-03-03T00:00:00Z", "items": []}, "timeRangeEmpty"),
        ({"timeMin": "tomorrow", "timeMax": "2026-03-03T00:00:00Z", "items": []}, "badRequest"),
    ):
        response = seeded.raw("POST", "freeBusy", json=wrong)
        assert response.status_code == 400 and response.json()["error"]["errors"][0]["reason"] == expected


def test_quick_add_reads_the_day_and_time(seeded: GoogleWorld) -> None:
    made = seeded.client().events().quickAdd(calendarId="primary", text="Lunch with Omar tomorrow at 12:30pm").execute()
    assert made["summary"] == "Lunch with Omar"
    assert made["start"] == {"dateTime": "2026-03-03T12:30:00-08:00"}
    assert made["end"] == {"dateTime": "2026-03-03T13:30:00-08:00"}
    all_day = seeded.client().events().quickAdd(calendarId="primary", text="Offsite prep March 12").execute()
    assert (all_day["start"], all_day["end"]) == ({"date": "2026-03-12"}, {"date": "2026-03-13"})
    missing = seeded.raw("POST", "calendars/primary/events/quickAdd")
    assert missing.status_code == 400 and missing.json()["error"]["errors"][0]["reason"] == "required"


def test_move_to_a_shared_calendar(seeded: GoogleWorld) -> None:
    made = seeded.client().events().quickAdd(calendarId="primary", text="Pager drill Friday 3pm").execute()
    moved = (
        seeded.client()
        .events()
        .move(calendarId="primary", eventId=made["id"], destination=seeded.ref("oncall"))
        .execute()
    )
    assert moved["id"] == made["id"] and moved["organizer"] == {"email": seeded.ref("oncall"), "displayName": "On-call"}
    with pytest.raises(HttpError) as raised:
        seeded.client().events().get(calendarId="primary", eventId=made["id"]).execute()
    assert raised.value.status_code == 404
    nowhere = seeded.raw(
        "POST", f"calendars/{seeded.ref('oncall')}/events/{made['id']}/move", params={"destination": "omar@acme.test"}
    )
    assert nowhere.status_code == 404


# A scene's seed adding calendars and events to a world that has its own (acme's on-call calendar and events).
OVER_ACME = """
name: team-calendar
world: acme
task: test
agent: {google_user: $priya}
seed:
  calendar:
    calendars:
      - {ref: team, owner: $maya, summary: Engineering team, shared_with: [{person: $priya, role: writer}]}
    events:
      - {ref: demo, calendar: $team, summary: Sprint demo, start: "2026-03-13T17:00:00Z"}
"""


def test_a_scenes_calendars_join_its_worlds(stage: Any) -> None:
    world = calendar_world(stage.world(OVER_ACME))
    listed = world.client().calendarList().list().execute()["items"]
    assert [(c["summary"], c["accessRole"]) for c in listed] == [
        ("priya@acme.test", "owner"),
        ("Engineering team", "writer"),
        ("Orders on-call", "reader"),
    ]
    assert [c["id"] for c in listed[1:]] == [world.ref("team"), world.ref("oncall_calendar")]
    demo = world.client().events().get(calendarId=world.ref("team"), eventId=world.ref("demo")).execute()
    assert (demo["summary"], demo["start"]["dateTime"]) == ("Sprint demo", "2026-03-13T10:00:00-07:00")
    planning = world.client().events().get(calendarId="primary", eventId=world.ref("planning_meeting")).execute()
    assert planning["summary"] == "Quarterly planning"


def test_acl_and_colors(seeded: GoogleWorld) -> None:
    acl = seeded.client().acl().list(calendarId="primary").execute()
    assert acl["kind"] == "calendar#acl"
    assert [(r["id"], r["role"]) for r in acl["items"]] == [("user:maya@acme.test", "owner")]
    refused = seeded.raw("GET", f"calendars/{seeded.ref('oncall')}/acl")
    assert refused.status_code == 403 and refused.json()["error"]["errors"][0]["reason"] == "forbidden"
    colors = seeded.client().colors().get().execute()
    assert len(colors["calendar"]) == 24 and len(colors["event"]) == 11
    assert colors["event"]["11"] == {"background": "#dc2127", "foreground": "#1d1d1d"}


def passes(world: Any, check: dict[str, Any]) -> bool:
    return bool(score_custom(world, [{"id": "c", "state": {"calendar.event": check}}]).passed)


def test_the_event_check(seeded: GoogleWorld) -> None:
    world = seeded.live.world
    assert passes(world, {"calendar": "$maya", "summary_contains": "standup"})
    review = {
        "event": "$review",
        "start": "2026-03-03T15:00:00Z",
        "attendees": ["$maya", "jo@partner.test"],
        "responses": {"jo@partner.test": "accepted"},
    }
    assert passes(world, review)
    assert not passes(world, {"event": "$review", "responses": {"$maya": "accepted"}})
    assert not passes(world, {"summary_contains": "retro"})
    assert not passes(world, {"calendar": "$omar", "summary_contains": "standup"})


def test_trace_patterns_and_the_generic_record_checks_see_calendar(seeded: GoogleWorld) -> None:
    seeded.client().events().quickAdd(calendarId="primary", text="Retro Friday 4pm").execute()
    world = seeded.live.world
    checks: list[dict[str, Any]] = [
        {"id": "added", "trace": {"called": "calendar:POST /calendar/v3/calendars/*/events/quickAdd"}},
        {"id": "not_inserted", "trace": {"not_called": ["calendar:POST /calendar/v3/calendars/*/events"]}},
        {"id": "record", "state": {"record": {"collection": "calendar.events", "where": {"summary": "Retro"}}}},
        {"id": "wrote", "state": {"writes": {"collection": "calendar.events", "min": 1, "max": 1}}},
    ]
    evaluation = score_custom(world, checks)
    assert [(c.id, c.passed) for c in evaluation.checks] == [
        ("added", True),
        ("not_inserted", True),
        ("record", True),
        ("wrote", True),
    ]
