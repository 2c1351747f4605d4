"""Building the Calendar records of a world image: every account's primary calendar, on its own list; the
section's calendars, shared as it says; its events."""

from __future__ import annotations

from datetime import date, timedelta
from functools import partial

from ...clock import parse_duration, parse_time
from ...spec.build import BuildContext
from ...world import Record
from ..google import accounts
from ..google.errors import GoogleError
from ..google.ids import base32hex
from . import bodies, calendars, events, recurrence
from .models import AttendeeSpec, CalendarSection, CalendarSpec, EventSpec
from .store import ACL, CALENDARS, EVENTS, LIST
from .zones import When, is_zone, midnight

HOUR = 3600 * 1_000_000


def derive(ctx: BuildContext) -> None:
    """A primary calendar for every account of the world (its id the account's address), owned by it and on
    its calendar list."""
    for account in accounts.settle(ctx):
        if account.email not in ctx.collection(CALENDARS):
            primary(ctx, account)


def primary(ctx: BuildContext, account: accounts.Account) -> None:
    calendar = calendars.calendar_record(
        account.email, account.email, account.time_zone, account.email, ctx.start, account.ids
    )
    ctx.collection(CALENDARS).add(calendar["id"], calendar)
    entry = calendars.entry_record(account.email, calendar, "owner", ctx.start, primary=True)
    ctx.collection(LIST).add(entry["id"], entry)
    rule = calendars.rule_record(calendar["id"], "user", account.email, "owner", ctx.start)
    ctx.collection(ACL).add(rule["id"], rule)


def assign(section: CalendarSection, ctx: BuildContext) -> None:
    """Pass 1: ids for the calendars and events with a `ref`."""
    for i, calendar in enumerate(section.calendars):
        calendar_id = f"c_{ctx.ids.hex('calendar:calendar', 64)}@group.calendar.google.com"
        ctx.define(calendar.ref, calendar_id, CALENDARS, "calendars", i)
        _queued(ctx, "calendar:ids").append(calendar_id)
    for i, event in enumerate(section.events):
        event_id = base32hex(ctx.ids, "calendar:event")
        ctx.define(event.ref, event_id, EVENTS, "events", i)
        _queued(ctx, "calendar:events").append(event_id)


def _queued(ctx: BuildContext, kind: str, done: bool = False) -> list[str]:
    """The ids pass 1 gave the section being built: each section its own (a world's and its scene's seed both
    have one), taken out of the build's scratch once built."""
    sections: dict[tuple[str, tuple[str | int, ...]], list[str]] = ctx.scratch.setdefault(kind, {})
    key = (ctx.file, tuple(ctx.here))
    return sections.pop(key, []) if done else sections.setdefault(key, [])


def build(section: CalendarSection, ctx: BuildContext) -> None:
    """Pass 2: the primary calendars (of the people named so far), the calendars, the events."""
    derive(ctx)
    calendar_ids, event_ids = _queued(ctx, "calendar:ids", done=True), _queued(ctx, "calendar:events", done=True)
    for i, (calendar, calendar_id) in enumerate(zip(section.calendars, calendar_ids, strict=True)):
        ctx.attempt(partial(_calendar, ctx, calendar, calendar_id, i), calendar_id)
    for i, (event, event_id) in enumerate(zip(section.events, event_ids, strict=True)):
        ctx.attempt(partial(_event, ctx, event, event_id, i), event_id)


def person(ctx: BuildContext, value: str, *path: str | int) -> str:
    """The address a `$ref` (to any record of the person) or an address names; an error at `path` for nobody."""
    resolved = ctx.resolve(value, *path)
    email = accounts.in_build(ctx, resolved) if isinstance(resolved, str) else None
    if email is None:
        raise ctx.error(f"{value} names no person of the world with an email address", *path)
    return email


def _calendar(ctx: BuildContext, spec: CalendarSpec, calendar_id: str, i: int) -> None:
    owner = person(ctx, spec.owner, "calendars", i, "owner")
    time_zone = spec.time_zone or ctx.collection(CALENDARS).one(owner)["timeZone"]
    if not is_zone(time_zone):
        raise ctx.error(f"{time_zone} is no IANA time zone", "calendars", i, "time_zone")
    calendar = calendars.calendar_record(
        calendar_id, spec.summary, time_zone, owner, ctx.start, description=spec.description, location=spec.location
    )
    ctx.collection(CALENDARS).add(calendar_id, calendar)
    roles = {owner: "owner"}
    for k, share in enumerate(spec.shared_with):
        roles.setdefault(person(ctx, share.person, "calendars", i, "shared_with", k, "person"), share.role)
    for email, role in roles.items():
        entry = calendars.entry_record(email, calendar, role, ctx.start)
        ctx.collection(LIST).add(entry["id"], entry)
        rule = calendars.rule_record(calendar_id, "user", email, role, ctx.start)
        ctx.collection(ACL).add(rule["id"], rule)


def _calendar_of(ctx: BuildContext, value: str, i: int) -> Record:
    resolved = ctx.resolve(value, "events", i, "calendar")
    found = ctx.collection(CALENDARS).get(resolved) if isinstance(resolved, str) else None
    if found is None:
        found = ctx.collection(CALENDARS).get(person(ctx, value, "events", i, "calendar"))
    if found is None:
        raise ctx.error(f"{value} names no calendar", "events", i, "calendar")
    return found


def _event(ctx: BuildContext, spec: EventSpec, event_id: str, i: int) -> None:
    calendar = _calendar_of(ctx, spec.calendar, i)
    time_zone = spec.time_zone or calendar["timeZone"]
    if not is_zone(time_zone):
        raise ctx.error(f"{time_zone} is no IANA time zone", "events", i, "time_zone")
    try:
        timed = bodies.stored_times(*_when(ctx, spec, time_zone))
        lines = recurrence.rules(spec.recurrence)
        if lines:
            recurrence.check(lines, timed["startAt"], time_zone)
    except GoogleError as exc:
        raise ctx.error(exc.message, "events", i) from None
    if spec.time_zone or (lines and "dateTime" in timed["start"]):  # a recurring event's rules' zone is its own
        timed["start"]["timeZone"] = timed["end"]["timeZone"] = time_zone
    primary_calendar = calendar["id"] == calendar["owner"]
    organizer = (calendar["owner"], None) if primary_calendar else (calendar["id"], calendar["summary"])
    attendees = []
    for k, given in enumerate(spec.attendees):
        attendee = given if isinstance(given, AttendeeSpec) else AttendeeSpec(person=given)
        where = ("events", i, "attendees", k) + (("person",) if isinstance(given, AttendeeSpec) else ())
        email = attendee.person if "@" in attendee.person and not attendee.person.startswith("$") else None
        attendees.append(
            {
                "email": (email or person(ctx, attendee.person, *where)).lower(),
                "displayName": None,
                "optional": attendee.optional,
                "responseStatus": attendee.response,
                "comment": attendee.comment,
            }
        )
    fields = {
        "summary": spec.summary,
        "description": spec.description,
        "location": spec.location,
        "colorId": None,
        **timed,
        "recurrence": lines,
        "transparency": spec.transparency,
        "visibility": "default",
        "attendees": attendees,
        "reminders": {"useDefault": True},
    }
    record = events.event_record(calendar["id"], event_id, fields, calendar["owner"], organizer, ctx.start, spec.status)
    ctx.collection(EVENTS).add(record["id"], record)


def _when(ctx: BuildContext, spec: EventSpec, time_zone: str) -> tuple[When, When]:
    if spec.start is not None and len(spec.start) == 10:  # a day alone: an all-day event
        day = date.fromisoformat(spec.start)
        last = date.fromisoformat(spec.end) if spec.end is not None and len(spec.end) == 10 else day + timedelta(days=1)
        return When(midnight(day, time_zone), day, None), When(midnight(last, time_zone), last, None)
    start = parse_time(spec.start) if spec.start is not None else ctx.start + parse_duration(spec.in_ or "0s")
    if spec.end is not None:
        end = parse_time(spec.end)
    else:
        end = start + (parse_duration(spec.duration) if spec.duration else HOUR)
    return When(start, None, None), When(end, None, None)
