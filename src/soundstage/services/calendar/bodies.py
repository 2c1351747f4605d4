"""An event as a request body gives it (events.insert, update, patch): each field read and checked as Calendar
does, into the fields a record keeps; Google's 400 for what it refuses."""

from __future__ import annotations

import re
from typing import Any

from ...world import Record
from ..google.errors import GoogleError
from . import recurrence
from .zones import When, rfc3339_in, when

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
ID = re.compile(r"^[a-v0-9]{5,1024}$")  # base32hex, lower case
RESPONSES = ("needsAction", "declined", "tentative", "accepted")
TEXTS = ("summary", "description", "location")
EVENT_COLORS = tuple(str(n) for n in range(1, 12))


def event_id(value: Any) -> str:
    if not isinstance(value, str) or not ID.match(value):
        raise GoogleError(400, "invalid", "Invalid resource id value.")
    return value


def text(body: dict[str, Any], name: str) -> str | None:
    value = body.get(name)
    if value is not None and not isinstance(value, str):
        raise GoogleError(400, "invalid", f"Invalid value for: {name}")
    return value


def choice(body: dict[str, Any], name: str, allowed: tuple[str, ...], default: str) -> str:
    value = body.get(name)
    if value is None:
        return default
    if value not in allowed:
        raise GoogleError(400, "invalid", f"Invalid value for: {name}")
    return str(value)


def times(body: dict[str, Any], calendar_zone: str) -> dict[str, Any]:
    """`start` and `end` (both required, of one kind, the end after the start) as a record keeps them."""
    start = when(body.get("start"), "start", calendar_zone)
    end = when(body.get("end"), "end", calendar_zone)
    return stored_times(start, end)


def zoned(start: dict[str, Any]) -> None:
    """A recurring event's timed start names the zone its rules are read in, as Calendar requires."""
    if "dateTime" in start and not start.get("timeZone"):
        raise GoogleError(400, "required", "Missing time zone definition for start time.")


def stored_times(start: When, end: When) -> dict[str, Any]:
    if (start.day is None) != (end.day is None):
        raise GoogleError(400, "invalid", "Invalid start time.")
    if end.us <= start.us and not (end.us == start.us and start.day is None):
        raise GoogleError(400, "timeRangeEmpty", "The specified time range is empty.", domain="calendar")
    return {"start": start.stored(), "end": end.stored(), "startAt": start.us, "endAt": end.us}


def attendees(value: Any, organizer: str, before: list[Record] | None = None) -> list[dict[str, Any]]:
    """`attendees`: each an `email` (required, one each), with `displayName`, `optional`, `responseStatus`,
    `comment`; an attendee's response stays what it was unless the body gives another."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(a, dict) for a in value):
        raise GoogleError(400, "invalid", "Invalid value for: attendees")
    known = {a["email"]: a for a in before or []}
    found: dict[str, dict[str, Any]] = {}
    for given in value:
        email = given.get("email")
        if not isinstance(email, str) or not email:
            raise GoogleError(400, "required", "Missing attendee email.")
        if not EMAIL.match(email):
            raise GoogleError(400, "invalid", "Invalid attendee email.")
        email = email.lower()
        earlier = known.get(email, {})
        default = earlier.get("responseStatus") or ("accepted" if email == organizer else "needsAction")
        attendee = {
            "email": email,
            "displayName": text(given, "displayName") or earlier.get("displayName"),
            "optional": bool(given.get("optional", earlier.get("optional", False))),
            "responseStatus": choice(given, "responseStatus", RESPONSES, default),
            "comment": text(given, "comment") if "comment" in given else earlier.get("comment"),
        }
        found[email] = attendee
    return list(found.values())


def fields(
    body: dict[str, Any], calendar_zone: str, organizer: str, timed: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Every field an event takes from a whole body (insert, update); its times as `timed` gives them, else as
    the body does."""
    recurring = recurrence.rules(body.get("recurrence"))
    timed = timed or times(body, calendar_zone)
    if recurring:
        recurrence.check(recurring, timed["startAt"], timed["start"].get("timeZone") or calendar_zone)
        zoned(timed["start"])
    return {
        **{name: text(body, name) for name in TEXTS},
        "colorId": _color(body),
        **timed,
        "recurrence": recurring,
        "transparency": choice(body, "transparency", ("opaque", "transparent"), "opaque"),
        "visibility": choice(body, "visibility", ("default", "public", "private", "confidential"), "default"),
        "attendees": attendees(body.get("attendees"), organizer),
        "reminders": _reminders(body.get("reminders")),
    }


def _color(body: dict[str, Any]) -> str | None:
    value = body.get("colorId")
    if value is not None and value not in EVENT_COLORS:
        raise GoogleError(400, "invalid", "Invalid value for: colorId")
    return value


def _reminders(value: Any) -> dict[str, Any]:
    if value is None:
        return {"useDefault": True}
    if not isinstance(value, dict) or not isinstance(value.get("useDefault", False), bool):
        raise GoogleError(400, "invalid", "Invalid value for: reminders")
    overrides = value.get("overrides") or []
    if not isinstance(overrides, list) or len(overrides) > 5:
        raise GoogleError(400, "invalid", "Invalid value for: reminders.overrides")
    for override in overrides:
        minutes = override.get("minutes") if isinstance(override, dict) else None
        if (
            override.get("method") not in ("email", "popup")
            or not isinstance(minutes, int)
            or not 0 <= minutes <= 40320
        ):
            raise GoogleError(400, "invalid", "Invalid value for: reminders.overrides")
    if value.get("useDefault") and overrides:
        raise GoogleError(
            400,
            "cannotUseDefaultRemindersAndSpecifyOverride",
            "Cannot specify both default reminders and overrides at the same time.",
        )
    return {"useDefault": bool(value.get("useDefault")), **({"overrides": overrides} if overrides else {})}


def patched(event: Record, body: dict[str, Any], calendar_zone: str) -> dict[str, Any]:
    """The fields a patch changes: those the body gives, the others as they were."""
    changes: dict[str, Any] = {}
    for name in TEXTS:
        if name in body:
            changes[name] = text(body, name)
    if "colorId" in body:
        changes["colorId"] = _color(body)
    if "start" in body or "end" in body:
        start = body.get("start", _given(event["start"]))
        end = body.get("end", _given(event["end"]))
        changes.update(times({"start": start, "end": end}, calendar_zone))
    if "recurrence" in body:
        changes["recurrence"] = recurrence.rules(body["recurrence"])
    if changes.get("recurrence") or ("startAt" in changes and event["recurrence"]):
        now = {**event, **changes}
        recurrence.check(now["recurrence"], now["startAt"], now["start"].get("timeZone") or calendar_zone)
        zoned(now["start"])
    for name, allowed, default in (
        ("transparency", ("opaque", "transparent"), "opaque"),
        ("visibility", ("default", "public", "private", "confidential"), "default"),
    ):
        if name in body:
            changes[name] = choice(body, name, allowed, default)
    if "attendees" in body:
        changes["attendees"] = attendees(body["attendees"], event["organizer"], event["attendees"])
    if "reminders" in body:
        changes["reminders"] = _reminders(body["reminders"])
    return changes


def _given(stored: dict[str, Any]) -> dict[str, Any]:
    """A record's `start` or `end` as a body gives it (`dateTime` in UTC)."""
    if "date" in stored:
        return dict(stored)
    return {**stored, "dateTime": rfc3339_in(stored["dateTime"], "UTC")}
