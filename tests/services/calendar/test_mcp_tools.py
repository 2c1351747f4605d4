"""Google Calendar's MCP tools (docs/mcp.md), each through the SDK's client with the account's token, in the
team-meeting scene (the agent is Ana; Jordan has a daily series in New York's zone): its answer is the REST
API's answer to the call it stands for, its writes are in the world, and it is one logged call through the
tool. Times given without an offset are placed in the `timeZone` given, or go to Calendar as they are."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError
from tests.server.test_mcp import call as call_over_mcp
from tests.server.test_mcp import over_mcp
from tests.services.mcp_tools import call, rest

from soundstage.services.calendar.mcp_tools import tools
from soundstage.services.gmail.mcp_tools import tools as gmail_tools


@pytest.fixture
def live(stage: Any) -> Any:
    return stage.world(scene="team-meeting")


def _events(live: Any) -> list[dict[str, Any]]:
    return [e for e in live.state()["calendar.events"] if e["calendar"] == "ana@acme.test"]


def test_free_busy_places_local_times_in_the_zone_given(live):
    arguments = {
        "calendars": [{"id": "jordan@acme.test"}, {"id": "nobody@acme.test"}],
        "timeMin": "2026-03-09T00:00:00",
        "timeMax": "2026-03-10T00:00:00",
        "timeZone": "America/New_York",
    }
    busy = call(live, "calendar", "get-freebusy", arguments)
    body = {
        "timeMin": "2026-03-09T00:00:00-04:00",
        "timeMax": "2026-03-10T00:00:00-04:00",
        "items": [{"id": "jordan@acme.test"}, {"id": "nobody@acme.test"}],
        "timeZone": "America/New_York",
    }
    assert (busy.error, busy.event["path"], busy.event["body"]) == (False, "/calendar/v3/freeBusy", body)
    # Jordan's calls at 10:00 in New York, on daylight time since March 8.
    assert busy.json["calendars"] == {
        "jordan@acme.test": {"busy": [{"start": "2026-03-09T10:00:00-04:00", "end": "2026-03-09T11:30:00-04:00"}]},
        "nobody@acme.test": {"errors": [{"domain": "global", "reason": "notFound"}], "busy": []},
    }
    assert busy.json == rest(live, "calendar", "POST", "/calendar/v3/freeBusy", json=body)


def test_an_event_is_created_read_listed_searched_changed_and_cancelled(live):
    invited = [{"email": "maya@acme.test"}, {"email": "aarav@acme.test", "optional": True}]
    created = call(
        live,
        "calendar",
        "create-event",
        {
            "calendarId": "primary",
            "summary": "Launch review",
            "start": "2026-03-12T10:30:00",
            "end": '{"dateTime": "2026-03-12T16:30:00Z"}',
            "timeZone": "America/Chicago",
            "attendees": invited,
            "sendUpdates": "none",
        },
    )
    assert (created.event["method"], created.event["path"], created.event["query"]) == (
        "POST",
        "/calendar/v3/calendars/primary/events",
        {"sendUpdates": "none"},
    )
    assert created.event["body"] == {
        "summary": "Launch review",
        "start": {"dateTime": "2026-03-12T10:30:00", "timeZone": "America/Chicago"},
        "end": {"dateTime": "2026-03-12T16:30:00Z"},
        "attendees": invited,
    }
    event = created.json
    assert (event["start"], [a["email"] for a in event["attendees"]]) == (
        {"dateTime": "2026-03-12T10:30:00-05:00", "timeZone": "America/Chicago"},
        ["maya@acme.test", "aarav@acme.test"],
    )
    [record] = _events(live)
    assert (record["eventId"], record["startAt"], record["endAt"]) == (
        event["id"],
        1773329400 * 10**6,  # 2026-03-12T15:30:00Z: Chicago is on daylight time from March 8
        1773333000 * 10**6,
    )
    read = call(live, "calendar", "get-event", {"calendarId": "primary", "eventId": event["id"]})
    assert read.json == rest(live, "calendar", "GET", f"/calendar/v3/calendars/primary/events/{event['id']}")
    week = {"calendarId": "primary", "timeMin": "2026-03-09T00:00:00Z", "timeMax": "2026-03-14T00:00:00Z"}
    listed = call(live, "calendar", "list-events", week)
    assert listed.event["query"] == {
        "singleEvents": "true",
        "orderBy": "startTime",
        "timeMin": week["timeMin"],
        "timeMax": week["timeMax"],
    }
    assert [e["id"] for e in listed.json["items"]] == [event["id"]]
    found = call(live, "calendar", "search-events", {**week, "query": "launch"})
    assert found.event["query"]["q"] == "launch"
    assert [e["id"] for e in found.json["items"]] == [event["id"]]
    missed = call(live, "calendar", "search-events", {**week, "query": "retro"})
    assert missed.json["items"] == []
    changed = call(
        live,
        "calendar",
        "update-event",
        {"calendarId": "primary", "eventId": event["id"], "summary": "Launch go/no-go"},
    )
    assert (changed.event["method"], changed.event["query"], changed.event["body"]) == (
        "PATCH",
        {"sendUpdates": "all"},
        {"summary": "Launch go/no-go"},
    )
    assert (changed.json["summary"], changed.json["start"]) == ("Launch go/no-go", event["start"])
    deleted = call(live, "calendar", "delete-event", {"calendarId": "primary", "eventId": event["id"]})
    assert (deleted.error, deleted.event["method"], deleted.event["status"]) == (False, "DELETE", 204)
    assert [e["status"] for e in _events(live)] == ["cancelled"]


def test_a_series_made_in_local_time_is_listed_as_its_instances_across_a_change_of_daylight_time(live):
    series = {
        "calendarId": "primary",
        "summary": "Prep",
        "start": "2026-03-06T09:00:00",
        "end": "2026-03-06T09:15:00",
        "timeZone": "America/Chicago",
        "recurrence": ["RRULE:FREQ=DAILY;COUNT=3"],
    }
    created = call(live, "calendar", "create-event", series)
    assert created.event["body"]["recurrence"] == ["RRULE:FREQ=DAILY;COUNT=3"]
    days = {"timeMin": "2026-03-06T00:00:00", "timeMax": "2026-03-10T00:00:00", "timeZone": "America/Chicago"}
    listed = call(live, "calendar", "list-events", {"calendarId": "primary", **days})
    # The bounds are placed in Chicago's zone on their own days: standard time, then daylight time.
    assert (listed.event["query"]["timeMin"], listed.event["query"]["timeMax"]) == (
        "2026-03-06T00:00:00-06:00",
        "2026-03-10T00:00:00-05:00",
    )
    assert [e["start"]["dateTime"] for e in listed.json["items"]] == [
        "2026-03-06T09:00:00-06:00",
        "2026-03-07T09:00:00-06:00",
        "2026-03-08T09:00:00-05:00",
    ]
    # Another person's events are not Ana's to read: Calendar's refusal is the tool's error.
    jordan = call(live, "calendar", "list-events", {"calendarId": "jordan@acme.test", **days})
    assert (jordan.error, jordan.event["path"]) == (True, "/calendar/v3/calendars/jordan%40acme.test/events")
    assert jordan.json == rest(
        live, "calendar", "GET", "/calendar/v3/calendars/jordan%40acme.test/events", params=jordan.event["query"]
    )


def test_lists_and_colours_are_read_as_rest_answers_them(live):
    calendars = call(live, "calendar", "list-calendars")
    assert calendars.event["path"] == "/calendar/v3/users/me/calendarList"
    answer = rest(live, "calendar", "GET", "/calendar/v3/users/me/calendarList")
    assert calendars.json["items"] == answer["items"]  # its sync token is the time of the listing
    assert [c["id"] for c in calendars.json["items"]] == ["ana@acme.test"]
    colours = call(live, "calendar", "list-colors")
    assert (len(colours.json["calendar"]), len(colours.json["event"])) == (24, 11)


def test_a_local_time_without_a_zone_is_calendars_refusal(live):
    naive = {"calendarId": "primary", "summary": "x", "start": "2026-03-12T10:00:00", "end": "2026-03-12T11:00:00"}
    refused = call(live, "calendar", "create-event", naive)
    assert (refused.error, refused.event["status"]) == (True, 400)
    assert refused.json["error"]["errors"][0]["reason"] == "required"
    assert refused.json["error"]["message"] == "Missing time zone definition for start time."
    assert _events(live) == []


def test_an_unknown_zone_is_the_tools_error_and_changes_nothing(live):
    arguments = {"calendars": [{"id": "primary"}], "timeMin": "2026-03-09T00:00:00", "timeMax": "2026-03-10"}
    refused = call(live, "calendar", "get-freebusy", {**arguments, "timeZone": "Mars/Olympus"})
    assert (refused.error, refused.event["status"]) == (True, 400)
    assert refused.text == "invalid arguments: timeZone: 'Mars/Olympus' is no IANA time zone"


def test_the_sources_tools_left_out_are_unknown_here(live):
    assert set(tools.omitted) == {"create-events", "respond-to-event", "get-current-time", "manage-accounts"}
    url, token = live.env["CALENDAR_MCP_URL"], live.env["GOOGLE_OAUTH_TOKEN"]
    for name in tools.omitted:
        with pytest.raises(MCPError) as raised:
            call_over_mcp(url, token, name, {})
        assert raised.value.message == f"Unknown tool: {name}"
    assert [(e["status"], e["unimplemented"]) for e in live.trace()] == [(404, True)] * 4


def test_the_endpoint_of_every_service_gives_the_tools_the_accounts_token(live):
    async def steps(session: Any) -> Any:
        listed = await session.list_tools()
        busy = await session.call_tool(
            "get-freebusy",
            {
                "calendars": [{"id": "omar@acme.test"}],
                "timeMin": "2026-03-13T00:00:00Z",
                "timeMax": "2026-03-14T00:00:00Z",
            },
        )
        return listed, busy

    listed, busy = over_mcp(live.env["SOUNDSTAGE_MCP_URL"], live.env["SOUNDSTAGE_TOKEN"], steps)
    # The scene's agent has a Google account alone: its token reaches Calendar's and Gmail's tools.
    assert [t.name for t in listed.tools] == [t.name for t in tools.all()] + [t.name for t in gmail_tools.all()]
    assert busy.is_error is False
    assert json.loads(busy.content[0].text)["calendars"]["omar@acme.test"]["busy"] == [
        {"start": "2026-03-13T16:00:00Z", "end": "2026-03-13T17:00:00Z"}
    ]
    assert [(e["service"], e["path"], e["mcp"]["tool"]) for e in live.trace()] == [
        ("calendar", "/calendar/v3/freeBusy", "get-freebusy")
    ]


def test_the_scene_is_passed_over_mcp_as_over_rest(live):
    """Its trace check names the REST calls, which the tools' calls are."""
    people = ["maya@acme.test", "jordan@acme.test", "omar@acme.test", "aarav@acme.test"]

    async def steps(session: Any) -> None:
        week = {"timeMin": "2026-03-09T00:00:00Z", "timeMax": "2026-03-14T00:00:00Z"}
        await session.call_tool("get-freebusy", {"calendars": [{"id": p} for p in people], **week})
        await session.call_tool(
            "create-event",
            {
                "calendarId": "primary",
                "summary": "Launch review",
                "start": "2026-03-12T08:30:00",
                "end": "2026-03-12T09:30:00",
                "timeZone": "America/Los_Angeles",
                "attendees": [{"email": p} for p in people],
            },
        )

    over_mcp(live.env["CALENDAR_MCP_URL"], live.env["GOOGLE_OAUTH_TOKEN"], steps)
    assert {c["id"]: c["passed"] for c in live.get("checks")["checks"]} == {
        "booked_the_slot": True,
        "everyone_invited": True,
        "one_event": True,
        "looked_before_booking": True,
    }
