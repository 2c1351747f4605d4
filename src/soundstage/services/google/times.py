"""Google's times: RFC 3339 with milliseconds (`2026-12-07T10:00:00.000Z`) in answers; RFC 3339 with any
offset in requests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache

from ...clock import parse_time


@lru_cache(maxsize=4096)
def rfc3339(us: int) -> str:
    """Epoch microseconds as RFC 3339 UTC with milliseconds, as Google answers `updated` and `created`."""
    moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=us)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_rfc3339(text: str) -> int:
    """An RFC 3339 date-time with its offset (`Z` or `+01:00`), as epoch microseconds; ValueError for anything
    else (a time without an offset, a date alone)."""
    if len(text) < 20 or text[10] not in "Tt" or not (text.endswith(("Z", "z")) or text[-6] in "+-"):
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    return parse_time(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
