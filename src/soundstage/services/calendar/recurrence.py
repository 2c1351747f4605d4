"""Recurring events: an event's `recurrence` lines (RFC 5545 `RRULE`, `EXRULE`, `RDATE`, `EXDATE`) expanded into
its instances' start times by python-dateutil's `rrule`, in the event's own zone (so a weekly 09:00 stays at 09:00
across a change of daylight saving time). Every expansion is bounded: at most `MOST` instances a call, and at most
`STEPS` of dateutil's periods (a day of a daily rule, a week of a weekly one) looked at, found or not, and at
most `REQUEST_STEPS` over every expansion of one request (`one_request`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from itertools import islice
from types import FunctionType
from typing import Any

import dateutil.rrule
from dateutil.rrule import DAILY, rrule, rruleset, rrulestr

from ..google.errors import GoogleError
from .zones import from_us, to_us
from .zones import zone as zone_info

MOST = 2500  # the most instances one read expands of one event (events.list's own most for a page)
# The most periods one expansion looks at, over all its rules (a day of a daily rule, a week of a weekly one): an
# endless daily series reads 54 years from its first instance, a weekly one 380. At most some 40 ms of CPU a daily
# rule's, 80 ms a monthly one's (benchmarks/recurrence.py), where dateutil's search to the year 9999 took seconds.
STEPS = 20_000
# The most periods one request looks at over all the series it expands (a list, a free/busy query, a person
# weighing an invitation): a world of a hundred daily series five years old reads whole, and a calendar of many
# rare series an agent made costs at most this, not 40 ms a series.
REQUEST_STEPS = 200_000
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


class Exhausted(Exception):
    """An expansion looked at its `STEPS` periods."""


class _Budget:
    def __init__(self, steps: int, within: _Budget | None = None) -> None:
        self.left = steps
        self.within = within  # the request's, spent from as well

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise Exhausted
        if self.within is not None:
            self.within.spend()


_REQUEST: ContextVar[_Budget | None] = ContextVar("calendar_request_steps", default=None)


@contextmanager
def one_request() -> Iterator[None]:
    """Every expansion inside spends from one budget of `REQUEST_STEPS` periods as well as its own."""
    token = _REQUEST.set(_Budget(REQUEST_STEPS))
    try:
        yield
    finally:
        _REQUEST.reset(token)


def _spend(rule: Any) -> None:
    """One period of `rule`'s expansion spent from the budget `_counted` gave it."""
    rule.budget.spend()


class _CountedInfo(dateutil.rrule._iterinfo):  # type: ignore[name-defined,misc]
    """dateutil's per-rule period tables, each period it asks for (its `*dayset`) spent from the rule's budget.

    dateutil's `rrule._iter` looks for a rule's next instance period by period, up to the year 9999, and tests
    `UNTIL` only against an instance it found: a rule no day meets (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`) runs
    for seconds inside one `next()`, where no caller can stop it. Each period starts with one call of the
    frequency's dayset, so counting those counts the work exactly, without copying dateutil's loop."""

    # No `__slots__` of its own: dateutil's `__init__` sets each name of `self.__slots__`, the base class's.

    def ydayset(self, *args: Any) -> Any:
        _spend(self.rrule)
        return super().ydayset(*args)

    def mdayset(self, *args: Any) -> Any:
        _spend(self.rrule)
        return super().mdayset(*args)

    def wdayset(self, *args: Any) -> Any:
        _spend(self.rrule)
        return super().wdayset(*args)

    def ddayset(self, *args: Any) -> Any:
        _spend(self.rrule)
        return super().ddayset(*args)


class _CountedRule(rrule):
    """A rule whose `_iter` is dateutil's own, its names looked up in its module but for `_iterinfo`, ours. Only
    soundstage's rules are made one (`_counted`), so dateutil is unchanged for every other user of it in the
    process; a class, not a method bound on each rule, so that a rule is no cycle for the collector to find."""

    _iter = FunctionType(
        rrule._iter.__code__,  # type: ignore[attr-defined]
        {**vars(dateutil.rrule), "_iterinfo": _CountedInfo},
        "_iter",
    )


def _counted(built: rruleset, steps: int) -> rruleset:
    """`built` with every rule of it, RRULE and EXRULE, spending one budget of `steps` periods."""
    budget = _Budget(steps, _REQUEST.get())
    for rule in built._rrule + built._exrule:  # type: ignore[attr-defined]
        rule.budget = budget
        rule.__class__ = _CountedRule
    return built


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
    return _counted(built, STEPS)


def check(lines: list[str], start_us: int, zone: str) -> None:
    """Google's 400 for rules that expand to nothing it can read (one instance is tried), and for rules with no
    instance within `STEPS` periods: most of them no day can ever meet."""
    try:
        next(iter(_set(lines, start_us, zone)), None)
    except (ValueError, TypeError, OverflowError, Exhausted):
        raise invalid() from None


def starts(
    lines: list[str], start_us: int, zone: str, after: int | None, before: int | None, most: int = MOST
) -> Iterator[int]:
    """The instances' starts (epoch µs) from `after` (inclusive) to `before` (exclusive), in order, at most `most`
    (never more than `MOST`). A series whose expansion looks at `STEPS` periods ends there."""
    found = _set(lines, start_us, zone)
    begin: datetime = from_us(start_us if after is None else max(after, start_us), zone)
    try:
        for moment in islice(found.xafter(begin, inc=True), min(most, MOST)):
            at = to_us(moment)
            if before is not None and at >= before:
                return
            yield at
    except Exhausted:
        return
    except (ValueError, TypeError, OverflowError):
        raise invalid() from None
