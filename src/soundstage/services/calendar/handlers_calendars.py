"""Calendars themselves (`calendars.*`): secondary calendars made, changed and deleted by their owners; a primary
calendar cleared of its events."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..base import Reply
from ..google.errors import GoogleError
from . import calendars, events
from .bodies import text
from .calls import Call, ops
from .views import calendar
from .zones import is_zone

NEW_ZONE = "UTC"  # a calendar made without a `timeZone`, as Calendar makes it


@ops("GET /calendar/v3/calendars/{calendarId}")
def calendars_get(call: Call) -> Any:
    """calendars.get: a calendar the caller may read."""
    return calendar(call.calendar(call.listed("reader")))


def _fields(body: dict[str, Any], whole: bool) -> dict[str, Any]:
    """The calendar's fields a body gives (all of them, for `whole`), checked as Calendar checks them."""
    fields: dict[str, Any] = {}
    if whole or "summary" in body:
        summary = text(body, "summary")
        if not summary:
            raise GoogleError(400, "required", "Missing title.")
        fields["summary"] = summary
    for name in ("description", "location"):
        if whole or name in body:
            fields[name] = text(body, name)
    zone = text(body, "timeZone")
    if zone is not None:
        if not is_zone(zone):
            raise GoogleError(400, "invalid", "Invalid time zone definition.")
        fields["timeZone"] = zone
    return fields


@ops("POST /calendar/v3/calendars")
def calendars_insert(call: Call) -> Any:
    """calendars.insert: a new secondary calendar (`summary` required; `timeZone` UTC unless given), its id
    `c_<64 hex>@group.calendar.google.com`, the caller its owner, on their list."""
    fields = {"timeZone": NEW_ZONE, **_fields(call.fields, whole=True)}
    calendar_id = f"c_{call.world.ids.hex('calendar:calendar', 64)}@group.calendar.google.com"
    return calendar(calendars.create(call.world, calendar_id, call.me, fields))


def _owned(call: Call) -> Record:
    """The path's calendar, which the caller must own (403 `requiredAccessLevel` otherwise)."""
    return call.calendar(call.listed("owner"))


@ops("PATCH /calendar/v3/calendars/{calendarId}")
def calendars_patch(call: Call) -> Any:
    """calendars.patch: the summary, description, location or time zone the body gives."""
    owned = _owned(call)
    return calendar(calendars.change(call.world, owned, _fields(call.fields, whole=False)))


@ops("PUT /calendar/v3/calendars/{calendarId}")
def calendars_update(call: Call) -> Any:
    """calendars.update: the calendar as the whole body gives it (`summary` required; a description or location
    left out is cleared; the time zone stays unless given)."""
    owned = _owned(call)
    return calendar(calendars.change(call.world, owned, _fields(call.fields, whole=True)))


@ops("DELETE /calendar/v3/calendars/{calendarId}")
def calendars_delete(call: Call) -> Any:
    """calendars.delete: a secondary calendar deleted, its events cancelled; a primary one cannot be (403)."""
    entry = call.listed("owner")
    owned = call.calendar(entry)
    if calendars.is_primary(owned):
        raise GoogleError(403, "cannotDeletePrimaryCalendar", "Cannot delete primary calendar.", domain="calendar")
    events.cancel_all(call.world, owned["id"])
    calendars.delete(call.world, owned)
    return Reply(204, None)


@ops("POST /calendar/v3/calendars/{calendarId}/clear")
def calendars_clear(call: Call) -> Any:
    """calendars.clear: every event of a primary calendar cancelled; a secondary one is refused, 400."""
    owned = _owned(call)
    if not calendars.is_primary(owned):
        raise GoogleError(400, "invalid", "Cannot clear primary calendar.")
    events.cancel_all(call.world, owned["id"])
    return Reply(204, None)
