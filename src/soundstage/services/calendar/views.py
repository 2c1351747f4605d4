"""Calendar records rendered as the API's resources (`Calendar`, `CalendarListEntry`)."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..google.ids import etag


def calendar_list_entry(entry: Record, calendar: Record) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "calendar#calendarListEntry",
        "etag": etag(max(entry["updated"], calendar["updated"])),
        "id": calendar["id"],
        "summary": calendar["summary"],
    }
    for field in ("description", "location"):
        if calendar[field] is not None:
            body[field] = calendar[field]
    body["timeZone"] = calendar["timeZone"]
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
