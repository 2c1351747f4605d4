"""Time as Calendar gives and takes it: an event's `start` and `end` (`dateTime` with an offset, or with a
`timeZone` to read a local time in; `date` for an all-day event), IANA zones, RFC 3339 in a zone's offset."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from ...clock import US
from ..google.errors import GoogleError

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@lru_cache(maxsize=1)
def _zones() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


def is_zone(name: Any) -> bool:
    return isinstance(name, str) and name in _zones()


@lru_cache(maxsize=256)
def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def to_us(moment: datetime) -> int:
    delta = moment - EPOCH
    return (delta.days * 86400 + delta.seconds) * US + delta.microseconds


def from_us(us: int, name: str) -> datetime:
    return (EPOCH + timedelta(microseconds=us)).astimezone(zone(name))


def rfc3339_in(us: int, name: str) -> str:
    """`2026-03-03T10:00:00-08:00` (`Z` in UTC), as Calendar answers a `dateTime`: seconds, the zone's offset."""
    moment = from_us(us, name).replace(microsecond=0)
    text = moment.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def midnight(day: date, name: str) -> int:
    """The start of `day` in zone `name`, in epoch µs: where an all-day event starts on that calendar."""
    return to_us(datetime(day.year, day.month, day.day, tzinfo=zone(name)))


class When:
    """An event's start or end as given: a moment (epoch µs) with the zone it was given in (or None), or a day."""

    __slots__ = ("day", "time_zone", "us")

    def __init__(self, us: int, day: date | None, time_zone: str | None) -> None:
        self.us, self.day, self.time_zone = us, day, time_zone

    def stored(self) -> dict[str, Any]:
        """As a record keeps it: `date` (ISO) or `dateTime` (epoch µs), and `timeZone` where one was given."""
        kept: dict[str, Any] = {"date": self.day.isoformat()} if self.day else {"dateTime": self.us}
        if self.time_zone is not None:
            kept["timeZone"] = self.time_zone
        return kept


def when(value: Any, which: str, calendar_zone: str) -> When:
    """The `start` or `end` of an event body; Google's 400 for what it refuses."""
    if not isinstance(value, dict):
        raise GoogleError(400, "required", f"Missing {which} time.")
    given_zone = value.get("timeZone")
    if given_zone is not None and not is_zone(given_zone):
        raise GoogleError(400, "invalid", f"Invalid time zone definition for {which} time.")
    if value.get("date") is not None:
        if value.get("dateTime") is not None:
            raise GoogleError(400, "invalid", f"Invalid {which} time.")
        try:
            day = date.fromisoformat(value["date"]) if isinstance(value["date"], str) else None
        except ValueError:
            day = None
        if day is None or len(value["date"]) != 10:
            raise GoogleError(400, "invalid", f"Invalid {which} time.")
        return When(midnight(day, given_zone or calendar_zone), day, given_zone)
    text = value.get("dateTime")
    if not isinstance(text, str):
        raise GoogleError(400, "required", f"Missing {which} time.")
    try:
        moment = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        raise GoogleError(400, "invalid", f"Invalid {which} time.") from None
    if moment.tzinfo is None:
        if given_zone is None:
            raise GoogleError(400, "required", f"Missing time zone definition for {which} time.")
        moment = moment.replace(tzinfo=zone(given_zone))
    return When(to_us(moment), None, given_zone)


def instant(text: str | None, name: str) -> int | None:
    """A query's RFC 3339 bound (`timeMin`, `timeMax`, `updatedMin`), which must carry its offset; Google's 400
    otherwise."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("z", "Z").replace(" ", "+"))
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise GoogleError(400, "badRequest", "Bad Request", name)
    return to_us(moment)
