"""Recurring events' rules expanded in the event's zone, bounded, and the rules Calendar refuses."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from soundstage.services.calendar import recurrence
from soundstage.services.calendar.zones import rfc3339_in, to_us
from soundstage.services.google.errors import GoogleError

LA = "America/Los_Angeles"
START = to_us(datetime(2026, 3, 2, 9, tzinfo=ZoneInfo(LA)))


def starts(lines: list[str], after: int | None = None, before: int | None = None) -> list[str]:
    return [rfc3339_in(at, LA) for at in recurrence.starts(lines, START, LA, after, before)]


@pytest.mark.parametrize(
    "until",
    ["UNTIL=20260305T170000Z", "UNTIL=20260305", "UNTIL=20260305T090000"],
)
def test_an_until_in_utc_of_a_day_or_of_a_local_time(until: str) -> None:
    assert starts([f"RRULE:FREQ=DAILY;{until}"]) == [
        "2026-03-02T09:00:00-08:00",
        "2026-03-03T09:00:00-08:00",
        "2026-03-04T09:00:00-08:00",
        "2026-03-05T09:00:00-08:00",
    ]


def test_the_local_time_stays_across_daylight_saving_time_and_exdates_apply() -> None:
    lines = ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3", "EXDATE;TZID=America/Los_Angeles:20260309T090000"]
    assert starts(lines) == ["2026-03-02T09:00:00-08:00", "2026-03-16T09:00:00-07:00"]


def test_an_endless_rule_is_read_between_bounds_and_never_past_the_most() -> None:
    week = to_us(datetime(2026, 3, 9, tzinfo=ZoneInfo(LA)))
    daily = [f"2026-03-0{d}T09:00:00-08:00" for d in range(2, 8)] + ["2026-03-08T09:00:00-07:00"]
    assert starts(["RRULE:FREQ=DAILY"], START, week) == daily
    assert len(starts(["RRULE:FREQ=DAILY"])) == recurrence.MOST


@pytest.mark.parametrize(
    "lines",
    [
        ["RRULE:FREQ=SOMETIMES"],
        ["FREQ=DAILY"],
        ["RRULE:FREQ=DAILY;COUNT=x"],
        "RRULE:FREQ=DAILY",
        [1],
        ["RRULE:FREQ=HOURLY;COUNT=3"],
        # No second meets it: dateutil would look second by second up to the year 9999.
        ["RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30"],
    ],
)
def test_rules_calendar_refuses(lines: object) -> None:
    with pytest.raises(GoogleError) as raised:
        recurrence.check(recurrence.rules(lines) or [], START, LA)
    assert (raised.value.status, raised.value.reason) == (400, "invalid")
