"""Free/busy (`freebusy.query`): when calendars are busy, from the events they show."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..google.errors import GoogleError
from ..google.times import rfc3339
from . import calendars, events
from .calls import Call, ops
from .zones import instant, is_zone, rfc3339_in

MOST_CALENDARS = 50  # calendarExpansionMax's ceiling: the most calendars one query reads


@ops("POST /calendar/v3/freeBusy")
def freebusy_query(call: Call) -> Any:
    """freebusy.query: each calendar's busy periods in [`timeMin`, `timeMax`), merged: the events it shows that
    are not cancelled, not transparent, and not declined by its owner. Any account of the world may be asked (its
    free/busy is shared with the domain); another id answers `notFound` in its place."""
    body = call.fields
    after, before = (_bound(body, name) for name in ("timeMin", "timeMax"))
    if before <= after:
        raise GoogleError(400, "timeRangeEmpty", "The specified time range is empty.", domain="calendar")
    zone = body.get("timeZone") or "UTC"
    if not is_zone(zone):
        raise GoogleError(400, "invalid", "Invalid time zone definition.")
    items = body.get("items") or []
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in items):
        raise GoogleError(400, "invalid", "Invalid value for: items")
    if len(items) > MOST_CALENDARS:
        raise GoogleError(400, "tooManyCalendarsRequested", "Too many calendars requested.", domain="calendar")
    answered: dict[str, Any] = {}
    for item in items:
        given = item["id"]
        calendar_id = call.me if given == "primary" else given.lower() if "@" in given else given
        calendar = calendars.calendar(call.world, calendar_id)  # a deleted one: not found
        if calendar is None:
            answered[given] = {"errors": [{"domain": "global", "reason": "notFound"}], "busy": []}
            continue
        periods = busy(call, calendar, after, before)
        answered[given] = {"busy": [{"start": rfc3339_in(s, zone), "end": rfc3339_in(e, zone)} for s, e in periods]}
    return {
        "kind": "calendar#freeBusy",
        "timeMin": rfc3339(after),
        "timeMax": rfc3339(before),
        "calendars": answered,
    }


def _bound(body: dict[str, Any], name: str) -> int:
    value = body.get(name)
    if value is None:
        raise GoogleError(400, "required", f"Missing {name} parameter.")
    if not isinstance(value, str):
        raise GoogleError(400, "badRequest", "Bad Request")
    found = instant(value, name)
    assert found is not None
    return found


def busy(call: Call, calendar: Record, after: int, before: int) -> list[tuple[int, int]]:
    owner = calendar["owner"]
    shown = events.expanded(call.world, events.on(call.world, calendar["id"]), calendar["timeZone"], after, before)
    periods = sorted((max(e["startAt"], after), min(e["endAt"], before)) for e in shown if events.busy(e, owner))
    merged: list[tuple[int, int]] = []
    for start, end in periods:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
