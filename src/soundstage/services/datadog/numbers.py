"""Bounds of the numbers Datadog reads from a body: its int64 fields (a Go `int64`, so anything wider is a 400
there) and epoch-second times, which the world must also be able to render as ISO-8601 (years 1970..9999)."""

from __future__ import annotations

from typing import Any

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
LAST_SECOND = 253_402_300_799  # 9999-12-31T23:59:59Z


def is_int64(value: Any) -> bool:
    """A JSON integer (not a boolean) that fits an int64."""
    return isinstance(value, int) and not isinstance(value, bool) and INT64_MIN <= value <= INT64_MAX


def is_epoch_seconds(value: Any) -> bool:
    """A JSON integer of epoch seconds between 1970 and the end of year 9999."""
    return is_int64(value) and 0 <= value <= LAST_SECOND


def fits_int64(value: Any) -> bool:
    """Whether every integer in a JSON value, at any depth, fits an int64 (what Datadog can store)."""
    if isinstance(value, dict):
        return all(fits_int64(v) for v in value.values())
    if isinstance(value, list):
        return all(fits_int64(v) for v in value)
    return not isinstance(value, int) or isinstance(value, bool) or INT64_MIN <= value <= INT64_MAX
