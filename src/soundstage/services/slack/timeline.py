"""Messages in `ts` order, per conversation and per thread: the indexes that let history, replies and the
context of a search match read a page without scanning the world's messages.

`History` holds each conversation's history (top-level messages, and replies also sent to the channel),
`Threads` each thread's replies, both by `ts`. They are indexes of `slack.messages`
(`Collection.derived`), kept in step with every write, undo included.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable
from typing import Any

from ...indexes import GroupIndex
from ...world import Record
from .timestamps import ts_us


def in_history(message: Record) -> bool:
    """Whether a message shows in its conversation's history: not a reply, unless also sent to the channel."""
    thread_ts = message.get("thread_ts")
    return not thread_ts or thread_ts == message["ts"] or message.get("subtype") == "thread_broadcast"


class _ByTs(GroupIndex):
    """Message ts in groups, oldest first."""

    __slots__ = ()

    @staticmethod
    def order(entry: Any) -> Any:
        return ts_us(entry)


class History(_ByTs):
    """Message ts by conversation: what conversations.history shows."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        return ((record["channel"], record_id),) if in_history(record) else ()


class Threads(_ByTs):
    """Reply ts by their thread's first message."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        thread_ts = record.get("thread_ts")
        return ((thread_ts, record_id),) if thread_ts and thread_ts != record_id else ()


def window(ordered: list[str], oldest: int | None, latest: int | None, inclusive: bool) -> tuple[int, int]:
    """The positions [start, end) of the ts in `ordered` (oldest first) after `oldest` and before `latest`
    (epoch microseconds), each bound itself included only when `inclusive`."""
    start = 0 if oldest is None else (bisect_left if inclusive else bisect_right)(ordered, oldest, key=ts_us)
    end = len(ordered) if latest is None else (bisect_right if inclusive else bisect_left)(ordered, latest, key=ts_us)
    return start, max(start, end)


def before(ordered: list[str], ts: str) -> int:
    """How many ts of `ordered` (oldest first) come before `ts`."""
    return bisect_left(ordered, ts_us(ts), key=ts_us)
