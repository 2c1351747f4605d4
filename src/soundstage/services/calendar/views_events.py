"""Events rendered as the API's `Event` and `Events` resources: times in RFC 3339 (a `dateTime` in the offset of
the zone the answer is in), the caller marked `self` among the creator, organizer and attendees."""

from __future__ import annotations

import base64
from typing import Any

from ...world import Record
from ..google.ids import etag
from ..google.times import rfc3339
from .zones import rfc3339_in


def when(stored: dict[str, Any], zone: str) -> dict[str, Any]:
    if "date" in stored:
        return {"date": stored["date"]}
    shown: dict[str, Any] = {"dateTime": rfc3339_in(stored["dateTime"], stored.get("timeZone") or zone)}
    if stored.get("timeZone"):
        shown["timeZone"] = stored["timeZone"]
    return shown


def html_link(event_id: str, calendar_id: str) -> str:
    eid = base64.urlsafe_b64encode(f"{event_id} {calendar_id}".encode()).decode().rstrip("=")
    return f"https://www.google.com/calendar/event?eid={eid}"


def _person(email: str, me: str, name: str | None = None) -> dict[str, Any]:
    person: dict[str, Any] = {"email": email}
    if name:
        person["displayName"] = name
    if email == me:
        person["self"] = True
    return person


def event(record: Record, me: str, zone: str) -> dict[str, Any]:
    """`record` as calendar users see it; `zone` is the answer's (the request's `timeZone`, else the calendar's)."""
    body: dict[str, Any] = {
        "kind": "calendar#event",
        "etag": etag(record["updated"]),
        "id": record["eventId"],
        "status": record["status"],
        "htmlLink": html_link(record["eventId"], record["calendar"]),
        "created": rfc3339(record["created"]),
        "updated": rfc3339(record["updated"]),
    }
    for name in ("summary", "description", "location", "colorId"):
        if record[name] is not None:
            body[name] = record[name]
    body["creator"] = _person(record["creator"], me)
    body["organizer"] = _person(record["organizer"], me, record["organizerName"])
    body["start"] = when(record["start"], zone)
    body["end"] = when(record["end"], zone)
    if record["recurrence"]:
        body["recurrence"] = list(record["recurrence"])
    if record["recurringEventId"] is not None:
        body["recurringEventId"] = record["recurringEventId"]
        body["originalStartTime"] = when(record["originalStart"], zone)
    if record["transparency"] != "opaque":
        body["transparency"] = record["transparency"]
    if record["visibility"] != "default":
        body["visibility"] = record["visibility"]
    body["iCalUID"] = record["iCalUID"]
    body["sequence"] = record["sequence"]
    if record["attendees"]:
        body["attendees"] = [attendee(a, record["organizer"], me) for a in record["attendees"]]
    body["reminders"] = dict(record["reminders"])
    body["eventType"] = "default"
    return body


def attendee(given: dict[str, Any], organizer: str, me: str) -> dict[str, Any]:
    shown = _person(given["email"], me, given["displayName"])
    if given["email"] == organizer:
        shown["organizer"] = True
    if given["optional"]:
        shown["optional"] = True
    shown["responseStatus"] = given["responseStatus"]
    if given["comment"]:
        shown["comment"] = given["comment"]
    return shown
