"""Events: state changes and lookups, no HTTP.

An event lives on its organizer's calendar (`calendar`), its record id `<calendar id>/<event id>`; it shows on
the primary calendar of each attendee too, under the same event id. A recurring event's instances are not
records: they are its `recurrence` expanded (`recurrence.py`), but for the instances changed or cancelled, which
are records of their own with `recurringEventId` and `originalStartTime`. A deleted event stays, `cancelled`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ...world import Record, World
from . import recurrence
from .shown import Shown
from .store import EVENTS
from .zones import from_us


def record_id(calendar_id: str, event_id: str) -> str:
    return f"{calendar_id}/{event_id}"


def instance_id(event_id: str, start_us: int, all_day: bool) -> str:
    """An instance's id: its event's and its original start in UTC (`_20260303T170000Z`, `_20260303` all day)."""
    moment = from_us(start_us, "UTC")
    return f"{event_id}_{moment:%Y%m%d}" if all_day else f"{event_id}_{moment:%Y%m%dT%H%M%SZ}"


def on(world: World, calendar_id: str) -> list[Record]:
    """The events a calendar shows, in start order: those on it, and those whose attendees include its owner (a
    primary calendar is its owner's address)."""
    collection = world[EVENTS]
    return [collection.one(record_id) for _, record_id in collection.derived(Shown).get(calendar_id)]


def find(world: World, calendar_id: str, event_id: str) -> Record | None:
    """The event `event_id` as calendar `calendar_id` shows it (None when it does not)."""
    found = world[EVENTS].get(record_id(calendar_id, event_id))
    if found is not None:
        return found
    return next((event for event in on(world, calendar_id) if event["eventId"] == event_id), None)


def busy(event: Record, owner: str) -> bool:
    """Whether an event its calendar shows keeps `owner` busy: not cancelled, not transparent, not declined by them."""
    return (
        event["status"] != "cancelled"
        and event["transparency"] != "transparent"
        and not any(a["email"] == owner and a["responseStatus"] == "declined" for a in event["attendees"])
    )


def zone_of(event: Record, calendar_zone: str) -> str:
    return str(event["start"].get("timeZone") or calendar_zone)


def instances(
    world: World, master: Record, calendar_zone: str, after: int | None, before: int | None, first: int | None = None
) -> Iterator[Record]:
    """A recurring event's instances that overlap [`after`, `before`), in order: each its master's fields at its own
    times, or the record of the instance where it was changed or cancelled. With `first`, only as many as it takes
    for the first `first` of them in start order to be among them, whatever was changed."""
    duration = master["endAt"] - master["startAt"]
    changed = {
        record["originalStartAt"]: record
        for record in world[EVENTS].by("recurringEventId", master["eventId"])
        if record["calendar"] == master["calendar"]
    }
    begin = None if after is None else after - duration
    zone = zone_of(master, calendar_zone)
    most = recurrence.MOST if first is None else first + len(changed)
    for start in recurrence.starts(master["recurrence"], master["startAt"], zone, begin, before, most):
        own = changed.pop(start, None)
        yield own if own is not None else instance(master, start, duration, zone)
    for own in changed.values():  # moved into the range from outside it: read apart
        if (after is None or own["endAt"] > after) and (before is None or own["startAt"] < before):
            yield own


def instance(master: Record, start: int, duration: int, zone: str) -> Record:
    """The instance of `master` that starts at `start`, as its master makes it."""
    event_id = instance_id(master["eventId"], start, "date" in master["start"])
    times = at_times(master, start, start + duration, zone)
    return {
        **master,
        **times,
        "id": record_id(master["calendar"], event_id),
        "eventId": event_id,
        "recurrence": None,
        "recurringEventId": master["eventId"],
        "originalStart": times["start"],
        "originalStartAt": start,
    }


def at_times(event: Record, start: int, end: int, zone: str) -> dict[str, Any]:
    """`event`'s `start` and `end` moved to `start` and `end` (epoch µs; a day in `zone` for an all-day event)."""

    def moved(given: dict[str, Any], at: int) -> dict[str, Any]:
        if "date" in given:
            return {**given, "date": from_us(at, zone).date().isoformat()}
        return {**given, "dateTime": at}

    return {"start": moved(event["start"], start), "end": moved(event["end"], end), "startAt": start, "endAt": end}


def expanded(
    world: World,
    events: Iterable[Record],
    calendar_zone: str,
    after: int | None,
    before: int | None,
    first: int | None = None,
) -> list[Record]:
    """`events` with each recurring one replaced by its instances in range, and the others in range kept; with
    `first`, enough of each one's instances for the first `first` of all in start order (a page needs no more)."""
    found: list[Record] = []
    for event in events:
        if event["recurringEventId"] is not None:
            continue  # an instance of its own is read with its master
        if event["recurrence"]:
            if event["status"] != "cancelled":
                found += instances(world, event, calendar_zone, after, before, first)
        elif (after is None or event["endAt"] > after) and (before is None or event["startAt"] < before):
            found.append(event)
    return found


def event_record(
    calendar_id: str,
    event_id: str,
    fields: dict[str, Any],
    creator: str,
    organizer: tuple[str, str | None],
    at: int,
    status: str = "confirmed",
    ical_uid: str | None = None,
) -> Record:
    """A new event on `calendar_id` made at `at` by `creator`, organized by `organizer` (address, name); with
    `ical_uid`, a private copy of another calendar's event (events.import)."""
    return {
        "id": record_id(calendar_id, event_id),
        "eventId": event_id,
        "calendar": calendar_id,  # ours: the organizer's calendar it lives on
        "status": status,
        **fields,
        "creator": creator,
        "organizer": organizer[0],
        "organizerName": organizer[1],  # ours: a secondary calendar organizes by its name
        "recurringEventId": None,
        "originalStart": None,
        "originalStartAt": None,  # ours: an instance's original start, epoch µs
        "iCalUID": ical_uid or f"{event_id}@google.com",
        "imported": ical_uid is not None,  # ours: a private copy, shown on its calendar alone, inviting nobody
        "sequence": 0,
        "created": at,
        "updated": at,
    }


def add(
    world: World,
    calendar_id: str,
    event_id: str,
    fields: dict[str, Any],
    creator: str,
    organizer: tuple[str, str | None],
    ical_uid: str | None = None,
) -> Record:
    record = event_record(calendar_id, event_id, fields, creator, organizer, world.now(), ical_uid=ical_uid)
    return world[EVENTS].add(record["id"], record)


def imported(world: World, calendar_id: str, ical_uid: str) -> Record | None:
    """The event of `calendar_id` with `ical_uid` (an instance of a series is not one), if any."""
    return next(
        (
            e
            for e in world[EVENTS].by("iCalUID", ical_uid)
            if e["calendar"] == calendar_id and e["recurringEventId"] is None
        ),
        None,
    )


def change(world: World, event: Record, changes: dict[str, Any]) -> Record:
    """`changes` to a stored event (an instance not yet stored is stored first, as its own record): `updated` moves,
    and `sequence` counts the changes of its times."""
    if event["id"] not in world[EVENTS]:
        world[EVENTS].add(event["id"], event)
    sequence = event["sequence"] + (1 if "startAt" in changes or "endAt" in changes else 0)
    return world[EVENTS].change(event["id"], **changes, sequence=sequence, updated=world.now())


def cancel(world: World, event: Record) -> Record:
    return change(world, event, {"status": "cancelled"})


def cancel_all(world: World, calendar_id: str) -> None:
    """Every event that lives on a calendar cancelled (calendars.clear and delete)."""
    for event in list(world[EVENTS].by("calendar", calendar_id)):
        if event["status"] != "cancelled":
            cancel(world, event)


def move(world: World, event: Record, calendar_id: str, organizer: tuple[str, str | None]) -> Record:
    """The event on another calendar, organized by its owner: the same event id."""
    world[EVENTS].remove(event["id"])
    moved = {
        **event,
        "id": record_id(calendar_id, event["eventId"]),
        "calendar": calendar_id,
        "organizer": organizer[0],
        "organizerName": organizer[1],
        "updated": world.now(),
    }
    return world[EVENTS].add(moved["id"], moved)
