"""Recurring events: an event's `recurrence` lines (RFC 5545 `RRULE`, `EXRULE`, `RDATE`, `EXDATE`) expanded into
its instances' start times by python-dateutil's `rrule`, in the event's own zone (so a weekly 09:00 stays at 09:00
across a change of daylight saving time). Every expansion is bounded: at most `MOST` instances a call."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from itertools import islice
from typing import Any

from dateutil.rrule import DAILY, rruleset, rrulestr

from ..google.errors import GoogleError
from .zones import from_us, to_us
from .zones import zone as zone_info

MOST = 2500  # the most instances one read expands of one event (events.list's own most for a page)
PREFIXES = ("RRULE:", "EXRULE:", "RDATE", "EXDATE")


def invalid() -> GoogleError:
    return GoogleError(400, "invalid", "Invalid recurrence rule.")


def rules(value: Any) -> list[str] | None:
    """An event body's `recurrence`: a list of RFC 5545 lines (None when absent); Google's 400 otherwise."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(line, str) for line in value):
        raise invalid()
    if not all(line.upper().startswith(PREFIXES) for line in value) or len(value) > 100:
        raise invalid()
    return list(value)


# An UNTIL of a day (`20260305`) or of a local time (`20260305T090000`): dateutil takes only UTC with a start in
# a zone, so it is read as Calendar reads it, in the event's zone (a day: through its end).
_LOCAL_UNTIL = re.compile(r"UNTIL=(\d{8})(T\d{6})?(?=;|$)", re.IGNORECASE)


def _in_utc(line: str, zone: str) -> str:
    def utc(found: re.Match[str]) -> str:
        day, clock = found.group(1), found.group(2) or "T235959"
        local = datetime.strptime(day + clock, "%Y%m%dT%H%M%S").replace(tzinfo=zone_info(zone))
        return "UNTIL=" + local.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")

    return _LOCAL_UNTIL.sub(utc, line) if line.upper().startswith(("RRULE", "EXRULE")) else line


def _set(lines: list[str], start_us: int, zone: str) -> rruleset:
    try:
        text = "\n".join(_in_utc(line, zone) for line in lines)
        built = rrulestr(text, dtstart=from_us(start_us, zone), forceset=True, unfold=True)
    except (ValueError, TypeError, KeyError, OverflowError):
        raise invalid() from None
    assert isinstance(built, rruleset)
    # Hourly and finer rules are refused: dateutil looks for a rule's next instance step by step up to the year
    # 9999, and a rule no hour can meet (`FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30`) held the event loop for seconds.
    if any(rule._freq > DAILY for rule in built._rrule + built._exrule):  # type: ignore[attr-defined]
        raise invalid()
    return built


def check(lines: list[str], start_us: int, zone: str) -> None:
    """Google's 400 for rules that expand to nothing it can read (one instance is tried)."""
    try:
        next(iter(_set(lines, start_us, zone)), None)
    except (ValueError, TypeError, OverflowError):
        raise invalid() from None


def starts(
    lines: list[str], start_us: int, zone: str, after: int | None, before: int | None, most: int = MOST
) -> Iterator[int]:
    """The instances' starts (epoch µs) from `after` (inclusive) to `before` (exclusive), in order, at most `most`
    (never more than `MOST`)."""
    found = _set(lines, start_us, zone)
    begin: datetime = from_us(start_us if after is None else max(after, start_us), zone)
    try:
        for moment in islice(found.xafter(begin, inc=True), min(most, MOST)):
            at = to_us(moment)
            if before is not None and at >= before:
                return
            yield at
    except (ValueError, TypeError, OverflowError):
        raise invalid() from None
