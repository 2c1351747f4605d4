"""Calendar records rendered as the API's resources (`Calendar`, `CalendarListEntry`, `AclRule`)."""

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
    if entry["deleted"]:  # as a sync token lists an entry taken off the list
        return {
            "kind": "calendar#calendarListEntry",
            "etag": etag(max(entry["updated"], calendar["updated"])),
            "id": calendar["id"],
            "deleted": True,
        }
    body = _described("calendar#calendarListEntry", calendar, max(entry["updated"], calendar["updated"]))
    if entry["summaryOverride"] is not None:
        body["summaryOverride"] = entry["summaryOverride"]
    if entry["colorId"] is not None:
        body["colorId"] = entry["colorId"]
    body["backgroundColor"] = entry["backgroundColor"]
    body["foregroundColor"] = entry["foregroundColor"]
    if entry["hidden"]:
        body["hidden"] = True
    if entry["selected"]:
        body["selected"] = True
    body["accessRole"] = entry["accessRole"]
    body["defaultReminders"] = list(entry["defaultReminders"])
    if entry["primary"] or entry["notifications"]:
        body["notificationSettings"] = {"notifications": list(entry["notifications"])}
    if entry["primary"]:
        body["primary"] = True
    body["conferenceProperties"] = {"allowedConferenceSolutionTypes": ["hangoutsMeet"]}
    return body


def acl_rule(rule: Record) -> dict[str, Any]:
    scope: dict[str, Any] = {"type": rule["scopeType"]}
    if rule["scopeValue"] is not None:
        scope["value"] = rule["scopeValue"]
    return {
        "kind": "calendar#aclRule",
        "etag": etag(rule["updated"]),
        "id": rule["ruleId"],
        "scope": scope,
        "role": rule["role"],
    }


def calendar(record: Record) -> dict[str, Any]:
    body = _described("calendar#calendar", record, record["updated"])
    body["conferenceProperties"] = {"allowedConferenceSolutionTypes": ["hangoutsMeet"]}
    return body
