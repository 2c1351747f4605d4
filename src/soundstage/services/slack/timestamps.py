"""Slack's times: message `ts` strings (epoch seconds and 6 digits), integer epoch seconds elsewhere, and
epoch milliseconds in a conversation's `updated`."""

from __future__ import annotations

from ...clock import US
from ...ids import IdSource
from ...world import World


def seconds(us: int) -> int:
    return us // US


def now_seconds(world: World) -> int:
    return seconds(world.now())


def now_ms(world: World) -> int:
    return world.now() // 1000


def make_ts(ids: IdSource, us: int) -> str:
    """A new message `ts` at `us`: the second, then a per-second counter times 100 (unique, increasing)."""
    second = us // US
    return spell_ts(second, ids.next(f"slack:ts:{second}"))


def spell_ts(second: int, count: int) -> str:
    """The `ts` of a second's `count`th message."""
    return f"{second}.{count * 100:06d}"


def ts_us(ts: str) -> int:
    """A well-formed `ts` string to epoch microseconds (for ordering and comparing with `oldest`/`latest`)."""
    second, _, fraction = ts.partition(".")
    return int(second) * US + int((fraction + "000000")[:6])
