"""What events.quickAdd reads in a line of text."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from soundstage.services.calendar.quick import read

NOW = datetime(2026, 3, 2, 6, 0, tzinfo=ZoneInfo("America/Los_Angeles"))  # a Monday


@pytest.mark.parametrize(
    ("text", "summary", "day", "start", "end"),
    [
        ("Lunch with Omar tomorrow at 12:30pm", "Lunch with Omar", date(2026, 3, 3), (12, 30), None),
        ("Orders review on Friday 3pm-4:30pm", "Orders review", date(2026, 3, 6), (15, 0), (16, 30)),
        ("Offsite March 10", "Offsite", date(2026, 3, 10), None, None),
        ("Call at noon", "Call", date(2026, 3, 2), (12, 0), None),
        ("Retro 2026-03-05 from 3 to 4pm", "Retro", date(2026, 3, 5), (15, 0), (16, 0)),
        ("Standup 3/4 at 9am", "Standup", date(2026, 3, 4), (9, 0), None),
        ("Meet 5 April at 10:15", "Meet", date(2026, 4, 5), (10, 15), None),
        ("Kickoff Feb 1", "Kickoff", date(2027, 2, 1), None, None),  # passed this year: next year's
        ("Monday sync", "sync", date(2026, 3, 9), None, None),  # today's weekday: next week's
        ("Room 12 cleanup", "Room 12 cleanup", date(2026, 3, 2), None, None),  # a bare number is no time
    ],
)
def test_quick_add_reads(
    text: str, summary: str, day: date, start: tuple[int, int] | None, end: tuple[int, int] | None
) -> None:
    reading = read(text, NOW)
    assert (reading.summary, reading.day, reading.start, reading.end) == (summary, day, start, end)
