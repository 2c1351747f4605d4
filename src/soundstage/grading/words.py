"""Small helpers that put values, counts and seqs into the words of `expected` and `actual`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..clock import US

SHOWN = 5  # items named before "and N more"


def show(value: Any, limit: int = 80) -> str:
    """A value as a user wrote it in a check file: strings in double quotes, long ones cut with `…`."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 2] + "…" + text[-1]


def count(n: int, noun: str) -> str:
    """`1 call`, `3 calls`, `no calls`."""
    return f"{'no' if n == 0 else n} {noun if n == 1 else noun + 's'}"


def at_least(n: int, noun: str) -> str:
    return f"at least one {noun}" if n == 1 else f"at least {count(n, noun)}"


def at_most(n: int, noun: str) -> str:
    return count(0, noun) if n == 0 else f"at most one {noun}" if n == 1 else f"at most {count(n, noun)}"


def listing(items: Sequence[str], more: int = 0) -> str:
    """`a, b and c`; with `more`, `a, b and 3 more`."""
    items = list(items)
    if not items:
        return "nothing"
    if more:
        return ", ".join(items) + f" and {more} more"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def either(items: Sequence[str]) -> str:
    """`a`, `a or b`, `a, b or c`."""
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def seqs(values: Iterable[int]) -> str:
    """`seq 4`, `seq 4, 9 and 12`, `seq 4, 9, 12, 15, 20 and 7 more`."""
    values = list(values)
    shown = [str(v) for v in values[:SHOWN]]
    return "seq " + listing(shown, len(values) - len(shown))


def some(items: Iterable[Any], total: int, describe: Callable[[Any], str]) -> str:
    """The first few of `total` items described, then how many more: only those few are described."""
    shown = [describe(item) for _, item in zip(range(SHOWN), items)]
    return listing(shown, total - len(shown))


_NAMING_FIELDS = ("ts", "number", "id", "name", "login", "title", "text", "email")


def record_name(record: Any) -> str:
    """A record by its first two identifying fields: `number 12, title "Export broken"`."""
    named = [f"{f} {show(record[f], 60)}" for f in _NAMING_FIELDS if f in record][:2]
    return ", ".join(named) if named else show(record, 60)


def span(us: int) -> str:
    """A simulated duration in words: `45s`, `3m20s`, `1h5m`, `2.5s`."""
    if us < 0:
        return "-" + span(-us)
    if us % US:
        return f"{us / US:g}s"
    hours, rest = divmod(us // US, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [f"{n}{unit}" for n, unit in ((hours, "h"), (minutes, "m"), (seconds, "s")) if n]
    return "".join(parts) or "0s"


def how_many(exactly: int | None, gte: int | None, lte: int | None, noun: str) -> str:
    """`exactly 2 added records`, `at most one...`; with no bound given, at least one."""
    if exactly is not None:
        return count(0, noun) if exactly == 0 else f"exactly {count(exactly, noun)}"
    if gte is not None and lte is not None:
        return f"between {gte} and {lte} {noun}s"
    if lte is not None:
        return at_most(lte, noun)
    return at_least(1 if gte is None else gte, noun)
