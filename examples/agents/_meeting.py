"""Steps the scripted agents of seeds/team-meeting.yaml share: the four people with their time zones and
working hours, their busy times from Calendar's free/busy, the earliest hour that fits, and booking it."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import httpx

# Each person's address, time zone (from the city the task names) and working hours in local time.
PEOPLE = {
    "maya@acme.test": ("America/Los_Angeles", time(7), time(15)),
    "jordan@acme.test": ("America/New_York", time(9), time(17)),
    "omar@acme.test": ("Europe/London", time(9), time(17)),
    "aarav@acme.test": ("Asia/Kolkata", time(13), time(22)),
}
WEEK = (datetime(2026, 3, 9, tzinfo=UTC), datetime(2026, 3, 14, tzinfo=UTC))  # Monday to Friday, UTC days
HOUR = timedelta(hours=1)

Span = tuple[datetime, datetime]


def busy(calendar: httpx.Client, people: list[str]) -> list[Span]:
    """Everyone's busy periods next week, from one free/busy query."""
    answer = calendar.post(
        "freeBusy",
        json={
            "timeMin": WEEK[0].isoformat(),
            "timeMax": WEEK[1].isoformat(),
            "timeZone": "UTC",
            "items": [{"id": person} for person in people],
        },
    ).raise_for_status()
    return [
        (datetime.fromisoformat(period["start"]), datetime.fromisoformat(period["end"]))
        for calendar_busy in answer.json()["calendars"].values()
        for period in calendar_busy["busy"]
    ]


def working(start: datetime, zone: str, opens: time, closes: time) -> bool:
    """Whether the hour from `start` falls within one person's working hours, read in `zone`."""
    local = start.astimezone(ZoneInfo(zone))
    end = local + HOUR
    return local.date() == end.date() and opens <= local.time() and end.time() <= closes


def earliest(taken: list[Span], zones: dict[str, str]) -> datetime:
    """The earliest hour of the week, on the hour or half hour, within everyone's working hours (each read in
    the zone `zones` gives them) and clear of every busy period."""
    start = WEEK[0]
    while start + HOUR <= WEEK[1]:
        fits = all(working(start, zones[p], opens, closes) for p, (_, opens, closes) in PEOPLE.items())
        if fits and not any(b_start < start + HOUR and start < b_end for b_start, b_end in taken):
            return start
        start += timedelta(minutes=30)
    raise SystemExit("no hour next week fits everyone")


def book(calendar: httpx.Client, start: datetime, people: list[str]) -> None:
    """One event on the account's own calendar at `start`, for an hour, inviting `people`."""
    calendar.post(
        "calendars/primary/events",
        json={
            "summary": "Launch review",
            "start": {"dateTime": start.isoformat(), "timeZone": "UTC"},
            "end": {"dateTime": (start + HOUR).isoformat(), "timeZone": "UTC"},
            "attendees": [{"email": person} for person in people],
        },
    ).raise_for_status()
