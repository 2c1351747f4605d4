"""Events (`events.*`): insert, import, get, list, patch, update, delete, move, instances."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...world import Record
from ..base import Reply
from ..google import paging
from ..google.errors import GoogleError, not_found
from ..google.ids import base32hex, etag
from ..google.times import rfc3339
from . import bodies, calendars, events, quick
from .calls import Call, ops
from .store import CALENDARS, EVENTS
from .views_events import event as render
from .zones import When, from_us, instant, midnight, to_us
from .zones import zone as tz

ORDERS = ("startTime", "updated")


def organizer(call: Call, calendar: Record) -> tuple[str, str | None]:
    """Who organizes an event of `calendar`: its owner on a primary calendar, the calendar itself (by its name) on
    another."""
    if calendar["id"] == calendar["owner"]:
        return calendar["owner"], None
    return calendar["id"], calendar["summary"]


def found(call: Call, calendar: Record) -> Record:
    """The path's event as the calendar shows it (an instance of a recurring event included); Google's 404."""
    event_id = call.params["eventId"]
    event = events.find(call.world, calendar["id"], event_id)
    if event is None and "_" in event_id:
        event = _instance(call, calendar, event_id)
    if event is None:
        raise not_found()
    return event


def _instance(call: Call, calendar: Record, event_id: str) -> Record | None:
    master_id, _, _ = event_id.rpartition("_")
    master = events.find(call.world, calendar["id"], master_id)
    if master is None or not master["recurrence"]:
        return None
    for instance in events.instances(call.world, master, calendar["timeZone"], None, None):
        if instance["eventId"] == event_id:
            return instance
    return None


def _writable(call: Call, event: Record) -> None:
    """Only the organizer's calendar changes an event's shared fields."""
    if event["calendar"] != call.calendar_id():
        raise GoogleError(
            403, "forbiddenForNonOrganizer", "Shared properties can only be changed by the organizer of the event."
        )


@ops("POST /calendar/v3/calendars/{calendarId}/events")
def events_insert(call: Call) -> Any:
    """events.insert: a new event on a calendar the caller may write, organized by that calendar."""
    entry = call.listed("writer")
    call.send_updates()
    calendar = call.calendar(entry)
    body = call.fields
    given = body.get("id")
    event_id = bodies.event_id(given) if given is not None else base32hex(call.world.ids, "calendar:event")
    if events.find(call.world, calendar["id"], event_id) is not None:
        raise GoogleError(409, "duplicate", "The requested identifier already exists.")
    who = organizer(call, calendar)
    event = events.add(
        call.world, calendar["id"], event_id, bodies.fields(body, calendar["timeZone"], who[0]), call.me, who
    )
    return render(event, call.me, call.zone(calendar))


@ops("POST /calendar/v3/calendars/{calendarId}/events/import")
def events_import(call: Call) -> Any:
    """events.import: a private copy of an event (by its `iCalUID`, required) on a calendar the caller may write,
    organized by the body's `organizer` (else the calendar), its attendees' answers as given; shown on that
    calendar alone and inviting nobody. The calendar's event of the same iCalUID, where it has one, is replaced."""
    entry = call.listed("writer")
    calendar = call.calendar(entry)
    body = call.fields
    uid = body.get("iCalUID")
    if not isinstance(uid, str) or not uid.strip():
        raise GoogleError(400, "required", "Missing iCalUID.")
    who = organizer(call, calendar)
    given = body.get("organizer")
    if given is not None:
        email = given.get("email") if isinstance(given, dict) else None
        if not isinstance(email, str) or not bodies.EMAIL.match(email):
            raise GoogleError(400, "invalid", "Invalid value for: organizer")
        who = (email.lower(), bodies.text(given, "displayName"))
    fields = bodies.fields(body, calendar["timeZone"], who[0])
    sequence = body.get("sequence", 0)
    if not isinstance(sequence, int) or isinstance(sequence, bool) or sequence < 0:
        raise GoogleError(400, "invalid", "Invalid value for: sequence")
    status = bodies.choice(body, "status", ("confirmed", "tentative", "cancelled"), "confirmed")
    kept = {**fields, "organizer": who[0], "organizerName": who[1], "sequence": sequence, "status": status}
    found_event = events.imported(call.world, calendar["id"], uid)
    if found_event is not None:
        event = call.world[EVENTS].change(found_event["id"], **kept, updated=call.world.now())
    else:
        event_id = base32hex(call.world.ids, "calendar:event")
        made = events.add(call.world, calendar["id"], event_id, fields, call.me, who, ical_uid=uid)
        event = call.world[EVENTS].change(made["id"], sequence=sequence, status=status)
    return render(event, call.me, call.zone(calendar))


@ops("GET /calendar/v3/calendars/{calendarId}/events/{eventId}")
def events_get(call: Call) -> Any:
    """events.get: one event (a cancelled one too, with its status)."""
    calendar = call.calendar(call.listed("reader"))
    return render(found(call, calendar), call.me, call.zone(calendar))


@ops("GET /calendar/v3/calendars/{calendarId}/events")
def events_list(call: Call) -> Any:
    """events.list: the calendar's events in [`timeMin`, `timeMax`), matching `q`, recurring ones expanded with
    `singleEvents`, ordered by `orderBy`, paged; a last page gives `nextSyncToken`, and `syncToken` lists what
    changed since."""
    entry = call.listed("reader")
    calendar = call.calendar(entry)
    zone = call.zone(calendar)
    single = call.boolean("singleEvents")
    order = call.text("orderBy")
    if order is not None and order not in ORDERS:
        raise GoogleError(400, "invalidParameter", f"Invalid value '{order}' for orderBy.", "orderBy")
    if order == "startTime" and not single:
        raise GoogleError(400, "badRequest", "The requested ordering is not available for the particular query.")
    size = call.integer("maxResults", 250, 1, 2500)
    after, before = instant(call.text("timeMin"), "timeMin"), instant(call.text("timeMax"), "timeMax")
    if after is not None and before is not None and before <= after:
        raise GoogleError(400, "timeRangeEmpty", "The specified time range is empty.", "timeMax", domain="calendar")
    updated_min = instant(call.text("updatedMin"), "updatedMin")
    since = _since(call, calendar["id"])
    deleted = call.boolean("showDeleted") or since is not None
    shown = events.on(call.world, calendar["id"])
    if single:
        # In start order a page needs only each series' first instances: all of a series' but its changed ones
        # pass the filters alike, so none past the first (offset + size + 1) plus its changed ones is on it.
        start = paging.offset(f"events:{calendar['id']}", call.text("pageToken"))
        first = None if order == "updated" else start + size + 1
        listed = events.expanded(call.world, shown, calendar["timeZone"], after, before, first)
    else:
        listed = [e for e in shown if (before is None or e["startAt"] < before) and _ends_after(e, after)]
    words = (call.text("q") or "").casefold().split()
    listed = [
        e
        for e in listed
        if (deleted or e["status"] != "cancelled")
        and (since is None or e["updated"] > since)
        and (updated_min is None or e["updated"] >= updated_min)
        and all(word in _searched(e) for word in words)
        and (call.text("iCalUID") is None or e["iCalUID"] == call.text("iCalUID"))
    ]
    if order == "updated":
        listed.sort(key=lambda e: (e["updated"], e["eventId"]))
    else:
        listed.sort(key=lambda e: (e["startAt"], e["eventId"]))
    chunk, token = paging.page(listed, f"events:{calendar['id']}", call.text("pageToken"), size)
    items = [render(event, call.me, zone) for event in chunk]
    body: dict[str, Any] = {
        "kind": "calendar#events",
        "etag": etag(call.world.now()),
        "summary": calendar["summary"],
        **({"description": calendar["description"]} if calendar["description"] is not None else {}),
        "updated": rfc3339(max((e["updated"] for e in listed), default=calendar["updated"])),
        "timeZone": zone,
        "accessRole": entry["accessRole"],
        "defaultReminders": list(entry["defaultReminders"]),
    }
    body.update(paging.next_token(token, f"sync:{calendar['id']}", call.world.now()))
    body["items"] = items
    return body


def _ends_after(event: Record, after: int | None) -> bool:
    """Whether the event (a recurring one: its series, which may end at any time) may end after `after`."""
    return after is None or bool(event["recurrence"]) or event["endAt"] > after


def _since(call: Call, calendar_id: str) -> int | None:
    """The moment a `syncToken` stands for, which no filter of time or words may go with."""
    given = call.text("syncToken")
    if given is None:
        return None
    for name in ("timeMin", "timeMax", "q", "orderBy", "iCalUID", "updatedMin"):
        if call.text(name) is not None:
            raise GoogleError(400, "invalid", f"Sync token cannot be used with {name}.", name)
    return paging.synced(f"sync:{calendar_id}", given)


def _searched(event: Record) -> str:
    parts = [event["summary"], event["description"], event["location"], event["organizer"], event["organizerName"]]
    for attendee in event["attendees"]:
        parts += [attendee["email"], attendee["displayName"]]
    return " ".join(part for part in parts if part).casefold()


def _changing(call: Call) -> tuple[Record, Record]:
    """The calendar of a change, which the caller must be able to write, and the event it changes."""
    calendar = call.calendar(call.listed("writer"))
    call.send_updates()
    return calendar, found(call, calendar)


@ops("PATCH /calendar/v3/calendars/{calendarId}/events/{eventId}")
def events_patch(call: Call) -> Any:
    """events.patch: the fields the body gives; an attendee's own calendar changes only the attendee's answer."""
    calendar, event = _changing(call)
    if event["calendar"] != calendar["id"]:
        return render(_answer(call, event), call.me, call.zone(calendar))
    changes = bodies.patched(event, call.fields, calendar["timeZone"])
    return render(events.change(call.world, event, changes), call.me, call.zone(calendar))


@ops("PUT /calendar/v3/calendars/{calendarId}/events/{eventId}")
def events_update(call: Call) -> Any:
    """events.update: the event as the whole body gives it (`start` and `end` required)."""
    calendar, event = _changing(call)
    if event["calendar"] != calendar["id"]:
        return render(_answer(call, event), call.me, call.zone(calendar))
    changes = bodies.fields(call.fields, calendar["timeZone"], event["organizer"])
    changes["attendees"] = bodies.attendees(call.fields.get("attendees"), event["organizer"], event["attendees"])
    if event["recurringEventId"] is not None:
        changes["recurrence"] = None
    return render(events.change(call.world, event, changes), call.me, call.zone(calendar))


def _answer(call: Call, event: Record) -> Record:
    """An attendee's change on their own copy: their `responseStatus` (and `comment`); nothing shared."""
    given = call.fields.get("attendees")
    mine = next((a for a in given or [] if isinstance(a, dict) and str(a.get("email", "")).lower() == call.me), None)
    if mine is None:
        _writable(call, event)
    assert mine is not None
    answered = bodies.attendees([{**_attendee(event, call.me), **mine}], event["organizer"], event["attendees"])[0]
    attendees = [answered if a["email"] == call.me else a for a in event["attendees"]]
    return events.change(call.world, event, {"attendees": attendees})


def _attendee(event: Record, email: str) -> dict[str, Any]:
    return {k: v for k, v in next(a for a in event["attendees"] if a["email"] == email).items() if v is not None}


@ops("DELETE /calendar/v3/calendars/{calendarId}/events/{eventId}")
def events_delete(call: Call) -> Any:
    """events.delete: the event cancelled (an instance: that one alone); 410 for one cancelled already."""
    _, event = _changing(call)
    _writable(call, event)
    if event["status"] == "cancelled":
        raise GoogleError(410, "deleted", "Resource has been deleted")
    events.cancel(call.world, event)
    return Reply(204, None)


@ops("POST /calendar/v3/calendars/{calendarId}/events/{eventId}/move")
def events_move(call: Call) -> Any:
    """events.move: the event to the calendar `destination` names, which the caller may write; its organizer
    becomes that calendar."""
    calendar, event = _changing(call)
    _writable(call, event)
    if event["recurringEventId"] is not None:
        raise GoogleError(400, "cannotChangeOrganizerOfInstance", "Cannot change the organizer of an instance.")
    destination = call.text("destination")
    if not destination:
        raise GoogleError(400, "required", "Required parameter: destination", "destination")
    target = destination.lower() if "@" in destination else destination
    target = call.me if target == "primary" else target
    entry = calendars.entry(call.world, call.me, target)
    if entry is None or entry["accessRole"] not in ("writer", "owner"):
        raise not_found()
    moved = call.world[CALENDARS].one(target)
    if events.find(call.world, target, event["eventId"]) is not None and target != calendar["id"]:
        raise GoogleError(409, "duplicate", "The requested identifier already exists.")
    return render(events.move(call.world, event, target, organizer(call, moved)), call.me, call.zone(moved))


@ops("GET /calendar/v3/calendars/{calendarId}/events/{eventId}/instances")
def events_instances(call: Call) -> Any:
    """events.instances: a recurring event's instances in [`timeMin`, `timeMax`), paged."""
    entry = call.listed("reader")
    calendar = call.calendar(entry)
    zone = call.zone(calendar)
    master = found(call, calendar)
    size = call.integer("maxResults", 250, 1, 2500)
    after, before = instant(call.text("timeMin"), "timeMin"), instant(call.text("timeMax"), "timeMax")
    deleted = call.boolean("showDeleted")
    listing = f"instances:{master['id']}"
    if master["recurrence"]:
        first = paging.offset(listing, call.text("pageToken")) + size + 1  # what the page needs, as in events.list
        listed = [
            i
            for i in events.instances(call.world, master, calendar["timeZone"], after, before, first)
            if deleted or i["status"] != "cancelled"
        ]
    else:
        listed = [master]
    chunk, token = paging.page(listed, listing, call.text("pageToken"), size)
    body: dict[str, Any] = {
        "kind": "calendar#events",
        "etag": etag(call.world.now()),
        "summary": calendar["summary"],
        **({"description": calendar["description"]} if calendar["description"] is not None else {}),
        "updated": rfc3339(master["updated"]),
        "timeZone": zone,
        "accessRole": entry["accessRole"],
        "defaultReminders": list(entry["defaultReminders"]),
    }
    if token is not None:
        body["nextPageToken"] = token
    body["items"] = [render(event, call.me, zone) for event in chunk]
    return body


@ops("POST /calendar/v3/calendars/{calendarId}/events/quickAdd")
def events_quick_add(call: Call) -> Any:
    """events.quickAdd: an event made from a line of text (`quick.py` says what it reads)."""
    entry = call.listed("writer")
    call.send_updates()
    text = call.text("text")
    if not text or not text.strip():
        raise GoogleError(400, "required", "Required parameter: text", "text")
    calendar = call.calendar(entry)
    zone = calendar["timeZone"]
    reading = quick.read(text, from_us(call.world.now(), zone))
    if reading.start is None:
        start = When(midnight(reading.day, zone), reading.day, None)
        end = When(midnight(reading.day + timedelta(days=1), zone), reading.day + timedelta(days=1), None)
    else:
        begin = datetime(reading.day.year, reading.day.month, reading.day.day, *reading.start, tzinfo=tz(zone))
        finish = begin + timedelta(hours=1)
        if reading.end is not None:
            finish = begin.replace(hour=reading.end[0], minute=reading.end[1])
            if finish <= begin:
                finish += timedelta(days=1)
        start, end = When(to_us(begin), None, None), When(to_us(finish), None, None)
    who = organizer(call, calendar)
    fields = {**bodies.fields({}, zone, who[0], timed=bodies.stored_times(start, end)), "summary": reading.summary}
    event_id = base32hex(call.world.ids, "calendar:event")
    return render(events.add(call.world, calendar["id"], event_id, fields, call.me, who), call.me, call.zone(calendar))
