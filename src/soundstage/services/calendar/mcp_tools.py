"""Google Calendar's MCP tools (facts in `mcp_tools.yaml`), each the REST operation it stands for.

The source's tools take times as text: a local time, a time with an offset, a day, or a JSON object with a zone of
its own. A local time is placed here as the source places it, in the `timeZone` given; without one the source
reads the calendar's zone first, a call of its own, so here the time goes to Calendar as given and Calendar
answers whether it can place it.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from ..mcp import RestCall, Tools, bearer, path, picked
from .zones import is_zone, zone

tools = Tools("calendar", Path(__file__).with_name("mcp_tools.yaml"), bearer("GOOGLE_OAUTH_TOKEN"))

_OFFSET = re.compile(r"(Z|[+-]\d{2}:\d{2})$")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_EVENTS = "/calendar/v3/calendars/{calendarId}/events"
_EVENT = _EVENTS + "/{eventId}"
# The fields of an event both writing tools pass on under Calendar's own names.
_FIELDS = {
    "summary": "summary",
    "description": "description",
    "location": "location",
    "colorId": "colorId",
    "reminders": "reminders",
    "recurrence": "recurrence",
    "transparency": "transparency",
    "visibility": "visibility",
}


def _zone(arguments: dict[str, Any]) -> str | None:
    given = arguments.get("timeZone")
    if given is not None and not is_zone(given):
        raise ValueError(f"timeZone: {given!r} is no IANA time zone")
    return given


def _bound(text: str, name: str | None) -> str:
    """A range's bound: a local time placed in the zone `name`; any other text as given."""
    if name is None or _OFFSET.search(text):
        return text
    return datetime.fromisoformat(text).replace(tzinfo=zone(name)).isoformat()


def _when(text: str, name: str | None) -> dict[str, Any]:
    """An event's `start` or `end` as Calendar takes it, from the text the source takes."""
    text = text.strip()
    if text.startswith("{"):
        given = json.loads(text)
        if not isinstance(given, dict):
            raise ValueError("a time given as JSON must be an object")
        if given.get("date") is not None:
            return {"date": given["date"]}
        text, name = given.get("dateTime", ""), given.get("timeZone") or name
    if _DAY.fullmatch(text):
        return {"date": text}
    if _OFFSET.search(text) or name is None:
        return {"dateTime": text}
    return {"dateTime": text, "timeZone": name}


def _event(arguments: dict[str, Any]) -> dict[str, Any]:
    """The event fields given, as the body of events.insert or events.patch takes them."""
    body = picked(arguments, _FIELDS)
    name = _zone(arguments)
    for which in ("start", "end"):
        if which in arguments:
            body[which] = _when(arguments[which], name)
    return body


def _listing(arguments: dict[str, Any], extra: dict[str, Any]) -> RestCall:
    # As the source lists: each recurring event's instances in its place, in start order.
    name = _zone(arguments)
    query = {"singleEvents": True, "orderBy": "startTime", **extra}
    for bound in ("timeMin", "timeMax"):
        if bound in arguments:
            query[bound] = _bound(arguments[bound], name)
    return RestCall("GET", path(_EVENTS, arguments), query=query)


@tools("list-calendars", "GET /calendar/v3/users/me/calendarList")
def list_calendars(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", "/calendar/v3/users/me/calendarList")


@tools("list-events", "GET /calendar/v3/calendars/{calendarId}/events")
def list_events(arguments: dict[str, Any]) -> RestCall:
    return _listing(arguments, {})


@tools("search-events", "GET /calendar/v3/calendars/{calendarId}/events")
def search_events(arguments: dict[str, Any]) -> RestCall:
    return _listing(arguments, {"q": arguments["query"]})


@tools("get-event", "GET /calendar/v3/calendars/{calendarId}/events/{eventId}")
def get_event(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path(_EVENT, arguments))


@tools("list-colors", "GET /calendar/v3/colors")
def list_colors(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", "/calendar/v3/colors")


@tools("create-event", "POST /calendar/v3/calendars/{calendarId}/events")
def create_event(arguments: dict[str, Any]) -> RestCall:
    body = _event(arguments)
    body.update(picked(arguments, {"eventId": "id", "attendees": "attendees"}))
    query = picked(arguments, {"sendUpdates": "sendUpdates"})
    return RestCall("POST", path(_EVENTS, arguments), query=query, body=body)


@tools("update-event", "PATCH /calendar/v3/calendars/{calendarId}/events/{eventId}")
def update_event(arguments: dict[str, Any]) -> RestCall:
    query = {"sendUpdates": arguments.get("sendUpdates", "all")}
    return RestCall("PATCH", path(_EVENT, arguments), query=query, body=_event(arguments))


@tools("delete-event", "DELETE /calendar/v3/calendars/{calendarId}/events/{eventId}")
def delete_event(arguments: dict[str, Any]) -> RestCall:
    return RestCall("DELETE", path(_EVENT, arguments), query={"sendUpdates": arguments.get("sendUpdates", "all")})


@tools("get-freebusy", "POST /calendar/v3/freeBusy")
def get_freebusy(arguments: dict[str, Any]) -> RestCall:
    name = _zone(arguments)
    body: dict[str, Any] = {
        "timeMin": _bound(arguments["timeMin"], name),
        "timeMax": _bound(arguments["timeMax"], name),
        "items": arguments["calendars"],
        **picked(arguments, {key: key for key in ("timeZone", "groupExpansionMax", "calendarExpansionMax")}),
    }
    return RestCall("POST", "/calendar/v3/freeBusy", body=body)
