"""Working hours read in the person's zone, daylight saving time included."""

from __future__ import annotations

from soundstage.clock import parse_time
from soundstage.people.cast import WorkingHours
from soundstage.people.hours import outside

WEEKDAYS = WorkingHours(frozenset(range(5)), 9 * 60, 17 * 60)
LA = "America/Los_Angeles"


def test_a_meeting_is_outside_before_opening_after_closing_or_on_a_day_off() -> None:
    def out(start: str, end: str, zone: str = "Europe/London") -> bool:
        return outside(WEEKDAYS, parse_time(start), parse_time(end), zone)

    assert not out("2026-03-03T09:00:00Z", "2026-03-03T17:00:00Z")
    assert out("2026-03-03T08:59:00Z", "2026-03-03T10:00:00Z")
    assert out("2026-03-03T16:30:00Z", "2026-03-03T17:30:00Z")
    assert out("2026-03-07T10:00:00Z", "2026-03-07T11:00:00Z")  # a Saturday
    assert out("2026-03-03T16:00:00Z", "2026-03-04T10:00:00Z")  # over the night
    # 16:30 UTC is 08:30 in Los Angeles on Friday, 09:30 on Monday after the clocks went forward.
    assert out("2026-03-06T16:30:00Z", "2026-03-06T17:00:00Z", LA)
    assert not out("2026-03-09T16:30:00Z", "2026-03-09T17:00:00Z", LA)
