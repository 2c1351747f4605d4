"""Calendar records rendered as the API's resources (`Calendar`, `CalendarListEntry`)."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..google.ids import etag


def _described(kind: str, calendar: Record, updated: int) -> dict[str, Any]:
    """What a calendar and a person's entry of it both say first: its id, summary, description, location, zone."""
    body: dict[str, Any] = {"kind": kind, "etag": etag(updated), "id": calendar["id"], "summary": calendar["summary"]}
    for field in ("description", "location"):
        if calendar[field] is not None:
            body[field] = calendar[field]
    body["timeZone"] = calendar["timeZone"]
    return body


def calendar_list_entry(entry: Record, calendar: Record) -> dict[str, Any]:
    body = _described("calendar#calendarListEntry", calendar, max(entry["updated"], calendar["updated"]))
    if entry["summaryOverride"] is not None:
        body["summaryOverride"] = entry["summaryOverride"]
    body["colorId"] = entry["colorId"]
    body["backgroundColor"] = entry["backgroundColor"]
    body["foregroundColor"] = entry["foregroundColor"]
    if entry["hidden"]:
        body["hidden"] = True
    if entry["selected"]:
        body["selected"] = True
    body["accessRole"] = entry["accessRole"]
    body["defaultReminders"] = list(entry["defaultReminders"])
    if entry["primary"]:
        body["notificationSettings"] = {
            "notifications": [
                {"type": kind, "method": "email"}
                for kind in ("eventCreation", "eventChange", "eventCancellation", "eventResponse")
            ]
        }
        body["primary"] = True
    body["conferenceProperties"] = {"allowedConferenceSolutionTypes": ["hangoutsMeet"]}
    return body


def calendar(record: Record) -> dict[str, Any]:
    body = _described("calendar#calendar", record, record["updated"])
    body["conferenceProperties"] = {"allowedConferenceSolutionTypes": ["hangoutsMeet"]}
    return body
