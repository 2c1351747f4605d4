"""Simulated time.

A live world's clock counts integer microseconds since the Unix epoch, so adding ticks never drifts and
the same calls always give the same times. Only realtime mode (and `clock: {start: now}`, resolved when
the image is built) look at the wall clock, through the `wall` function given to the clock.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache

US = 1_000_000
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$")
_UNIT_US = {"ms": 1_000, "s": US, "m": 60 * US, "h": 3600 * US, "d": 86400 * US}


def parse_duration(text: str | float) -> int:
    """`"30s"`, `"5m"`, `"2h"`, `"1d"`, `"250ms"` (or a number of seconds) to microseconds."""
    if isinstance(text, bool):  # ValueError, as for every text that is no duration: callers catch that one
        raise ValueError(f"not a duration: {text!r}")  # noqa: TRY004
    if isinstance(text, (int, float)):
        if text < 0:
            raise ValueError(f"a duration cannot be negative: {text!r}")
        return round(text * US)
    match = _DURATION.match(str(text))
    if not match:
        raise ValueError(f"not a duration: {text!r} (expected a number and a unit: 30s, 5m, 2h, 1d)")
    return round(float(match.group(1)) * _UNIT_US[match.group(2)])


_RATE = re.compile(r"^\s*(\d+)\s*/\s*(.+)$")


def parse_rate(text: str) -> tuple[int, int]:
    """A rate limit `"5/1m"` to (calls, window in microseconds); at least 1 call in a window longer than 0."""
    match = _RATE.match(str(text))
    if not match or int(match.group(1)) < 1:
        raise ValueError(f"not a rate limit: {text!r} (expected a count and a duration, e.g. 5/1m)")
    window = parse_duration(match.group(2))
    if window <= 0:
        raise ValueError(f"not a rate limit: {text!r} (the duration must be longer than 0)")
    return int(match.group(1)), window


def format_duration(us: int) -> str:
    """The shortest exact spelling of a duration: 90 s is `90s`, 300 s is `5m`."""
    for unit in ("d", "h", "m", "s", "ms"):
        size = _UNIT_US[unit]
        if us % size == 0:
            return f"{us // size}{unit}"
    return f"{us / US:g}s"


def parse_time(text: str | datetime) -> int:
    """An ISO-8601 instant to epoch microseconds; a time without an offset is UTC."""
    if isinstance(text, datetime):
        moment = text
    else:
        try:
            moment = datetime.fromisoformat(str(text))
        except ValueError as exc:
            raise ValueError(f"not an ISO-8601 time: {text!r}") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86400 + delta.seconds) * US + delta.microseconds


def iso(us: int) -> str:
    """Epoch microseconds as ISO-8601 UTC with `Z`, the fraction only when there is one."""
    # An answer shows the times of the records it renders, the same ones call after call: remembered (a dict
    # emptied when full, cheaper than an LRU's bookkeeping on a miss, which every call's own new time is).
    text = _ISO.get(us)  # not a KeyError caught: raising one costs more than the rest on every call's new time
    if text is not None:
        return text
    seconds, fraction = divmod(us, US)
    minute, second = divmod(seconds, 60)
    stamp = _iso_minute(minute) + _SECONDS[second]
    text = f"{stamp}.{fraction:06d}Z" if fraction else stamp + "Z"
    if len(_ISO) >= _ISO_SIZE:
        _ISO.clear()
    _ISO[us] = text
    return text


_ISO: dict[int, str] = {}
_ISO_SIZE = 4096


def http_date(us: int) -> str:
    """Epoch microseconds as an RFC 7231 HTTP `Date` value."""
    minute, second = divmod(us // US, 60)
    return _http_minute(minute) + _SECONDS[second] + " GMT"


# Every call formats its time twice, a tick (seconds) after the last call's: the text up to the minute is
# remembered, the seconds are appended (`:00` to `:59`, made once).
_SECONDS = tuple(f":{second:02d}" for second in range(60))


@lru_cache(maxsize=1024)
def _iso_minute(minute: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M", time.gmtime(minute * 60))


@lru_cache(maxsize=1024)
def _http_minute(minute: int) -> str:
    return time.strftime("%a, %d %b %Y %H:%M", time.gmtime(minute * 60))


# The machine's clock in nanoseconds, looked up on each read so that a test can put a clock of its own in
# its place (`monkeypatch.setattr(soundstage.clock, "wall_ns", ...)`) and see exact realtime times.
wall_ns: Callable[[], int] = time.time_ns


def wall_us() -> int:
    """The machine's clock (`wall_ns`); read only by realtime clocks and `start: now`."""
    return wall_ns() // 1000


class Clock:
    """The simulated clock of one live world.

    Fixed mode: time moves only by `tick` (after each agent call) and `advance`. Realtime mode: time is
    `start + (wall - wall_at_start) * speed`, plus anything advanced by hand.
    """

    __slots__ = ("_now", "_offset", "_wall", "_wall_start", "realtime", "speed", "start", "tick_us")

    def __init__(
        self,
        start: int,
        tick_us: int = 5 * US,
        realtime: bool = False,
        speed: float = 1.0,
        wall: Callable[[], int] = wall_us,
    ) -> None:
        self.start = start
        self.tick_us = tick_us
        self.realtime = realtime
        self.speed = speed
        self._now = start
        self._offset = 0
        self._wall = wall
        self._wall_start = wall() if realtime else 0

    def now(self) -> int:
        if self.realtime:
            elapsed = int((self._wall() - self._wall_start) * self.speed)
            # Never run backwards, whatever the wall clock does.
            self._now = max(self._now, self.start + elapsed + self._offset)
        return self._now

    def advance(self, us: int) -> int:
        if us < 0:
            raise ValueError("the clock cannot go backwards")
        if self.realtime:
            self._offset += us
            return self.now()
        self._now += us
        return self._now

    def tick(self) -> int:
        """Moves time on after an agent call (no-op in realtime mode, where the wall clock does it)."""
        if not self.realtime:
            self._now += self.tick_us
        return self._now

    def copy(self) -> Clock:
        """A clock at the same time that moves on alone (a forked world's): in realtime mode, from the same wall
        time, so the two read the same time until either is moved by hand."""
        clone = Clock.__new__(Clock)
        for name in Clock.__slots__:
            setattr(clone, name, getattr(self, name))
        return clone
