"""Working hours: whether a meeting falls outside a person's, in their time zone (docs/people.md, "Invitations")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from .cast import WorkingHours

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def outside(hours: WorkingHours, start: int, end: int, zone: str) -> bool:
    """Whether `[start, end)` (epoch µs) is not within one working day's hours in `zone`."""
    begin = (EPOCH + timedelta(microseconds=start)).astimezone(ZoneInfo(zone))
    finish = (EPOCH + timedelta(microseconds=end)).astimezone(ZoneInfo(zone))
    opens = begin.replace(hour=hours.start // 60, minute=hours.start % 60, second=0, microsecond=0)
    closes = begin.replace(hour=hours.end // 60, minute=hours.end % 60, second=0, microsecond=0)
    return begin.weekday() not in hours.days or begin < opens or finish > closes
