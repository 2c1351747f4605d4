"""Recurring events' rules expanded in the event's zone, bounded, and the rules Calendar refuses."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from dateutil.rrule import rrulestr
from googleapiclient.errors import HttpError
from tests.services.google_world import SCENE as GOOGLE_SCENE
from tests.services.google_world import GoogleWorld

from soundstage.services.calendar import recurrence
from soundstage.services.calendar.zones import rfc3339_in, to_us
from soundstage.services.google.errors import GoogleError
from soundstage.stage import validate_file

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


class Spent:
    """The periods each expansion looked at: every budget made, and what it spent."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.budgets: list[Any] = []
        made = recurrence._Budget.__init__

        def init(budget: Any, steps: int) -> None:
            made(budget, steps)
            self.budgets.append(budget)

        monkeypatch.setattr(recurrence._Budget, "__init__", init)

    def steps(self) -> list[int]:
        return [recurrence.STEPS - max(budget.left, -1) for budget in self.budgets]


MONDAY = to_us(datetime(2026, 3, 2, 9, tzinfo=ZoneInfo("UTC")))


@pytest.mark.parametrize(
    "lines",
    [
        ["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"],  # no day is the 30th of February
        ["RRULE:FREQ=DAILY;INTERVAL=7;BYDAY=TU"],  # every 7th day from a Monday is a Monday
        ["RRULE:FREQ=DAILY;BYSETPOS=5"],  # a daily period has one day, never a 5th
        ["RRULE:FREQ=WEEKLY;BYMONTH=2;BYMONTHDAY=30"],
        ["RRULE:FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30"],
        ["RRULE:FREQ=DAILY", "EXRULE:FREQ=DAILY"],  # every instance excluded
    ],
)
def test_a_rule_no_day_meets_is_refused_after_a_bounded_search(
    monkeypatch: pytest.MonkeyPatch, lines: list[str]
) -> None:
    spent = Spent(monkeypatch)
    with pytest.raises(GoogleError) as raised:
        recurrence.check(lines, MONDAY, "UTC")
    assert (raised.value.status, raised.value.reason, raised.value.message) == (
        400,
        "invalid",
        "Invalid recurrence rule.",
    )
    # One expansion, stopped at its budget: without it dateutil searched to the year 9999 (2.9 million days).
    assert spent.steps() == [recurrence.STEPS + 1]


def test_a_series_whose_exrule_excludes_everything_reads_as_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    spent = Spent(monkeypatch)
    lines = ["RRULE:FREQ=DAILY", "EXRULE:FREQ=DAILY"]
    assert list(recurrence.starts(lines, MONDAY, "UTC", None, None)) == []
    assert spent.steps() == [recurrence.STEPS + 1]


def test_a_series_read_ends_where_its_budget_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tuesdays kept, every other day excluded by an EXRULE: each instance costs its rule 7 periods and the
    EXRULE 7 more, so the budget's end is the same instance on every read."""
    monkeypatch.setattr(recurrence, "STEPS", 70)
    lines = ["RRULE:FREQ=DAILY", "EXRULE:FREQ=DAILY;BYDAY=MO,WE,TH,FR,SA,SU"]
    read = [rfc3339_in(at, "UTC") for at in recurrence.starts(lines, MONDAY, "UTC", None, None)]
    assert read == [f"2026-03-{day:02}T09:00:00Z" for day in (3, 10, 17, 24, 31)]
    assert read == [rfc3339_in(at, "UTC") for at in recurrence.starts(lines, MONDAY, "UTC", None, None)]


def test_an_endless_daily_series_reads_half_a_century_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    spent = Spent(monkeypatch)
    later = to_us(datetime(2076, 1, 1, tzinfo=ZoneInfo("UTC")))
    read = [rfc3339_in(at, "UTC") for at in recurrence.starts(["RRULE:FREQ=DAILY"], MONDAY, "UTC", later, None, 3)]
    assert read == ["2076-01-01T09:00:00Z", "2076-01-02T09:00:00Z", "2076-01-03T09:00:00Z"]
    assert spent.steps()[0] <= recurrence.STEPS


def test_dateutil_is_unchanged_for_everyone_else() -> None:
    rule = rrulestr("RRULE:FREQ=DAILY;COUNT=3", dtstart=datetime(2026, 3, 2, 9))
    assert not hasattr(rule, "budget")
    assert [moment.day for moment in rule] == [2, 3, 4]


def test_events_insert_refuses_a_rule_no_day_meets_and_keeps_nothing(cal: GoogleWorld) -> None:
    body = {
        "summary": "Never",
        "start": {"dateTime": "2026-03-02T09:00:00Z", "timeZone": "UTC"},
        "end": {"dateTime": "2026-03-02T10:00:00Z", "timeZone": "UTC"},
        "recurrence": ["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"],
    }
    response = cal.raw("POST", "calendars/primary/events", json=body)
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0] == {
        "message": "Invalid recurrence rule.",
        "domain": "global",
        "reason": "invalid",
    }
    assert cal.live.state().get("calendar.events", []) == []
    with pytest.raises(HttpError) as raised:
        cal.client().events().insert(
            calendarId="primary", body={**body, "recurrence": ["RRULE:FREQ=DAILY;BYSETPOS=5"]}
        ).execute()
    assert raised.value.resp.status == 400


def test_a_world_file_with_a_rule_no_day_meets_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "world.yaml"
    path.write_text(
        GOOGLE_SCENE
        + """  calendar:
    events:
      - {calendar: $maya, summary: Never, start: "2026-03-02T09:00:00Z", time_zone: UTC,
         recurrence: ["RRULE:FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30"]}
"""
    )
    assert [(e.field, e.message) for e in validate_file(path)] == [
        ("seed.calendar.events[0]", "Invalid recurrence rule.")
    ]
