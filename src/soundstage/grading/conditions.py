"""Conditions on records, messages and calls, and the search every check makes with them: the items that
meet them all, or else the closest item and what it has instead of what was asked.

A condition carries its own words, so a check that fails can say `none of 12 messages matched; closest:
message 1.2, but it is in #random`, whatever it searched.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, NamedTuple, Sequence, TypeVar

T = TypeVar("T")


class Condition(NamedTuple, Generic[T]):
    wants: str  # what it asks for, in words: `in C0123 ($support)`
    holds: Callable[[T], bool]
    instead: Callable[[T], str]  # what an item that fails it has instead: `it is in C0456 ($random)`


def wants(conditions: Sequence[Condition[Any]]) -> str:
    """What the conditions ask for together: `in C0123 ($support) from $bot`."""
    return " ".join(c.wants for c in conditions)


def matching(items: Sequence[T], conditions: Sequence[Condition[T]]) -> list[T]:
    """The items that meet every condition, in their order."""
    return [item for item in items if all(c.holds(item) for c in conditions)]


def misses(item: T, conditions: Sequence[Condition[T]]) -> list[str]:
    """What `item` has instead, for each condition it fails (each wording once)."""
    return list(dict.fromkeys(c.instead(item) for c in conditions if not c.holds(item)))


def enough(n: int, exactly: int | None, gte: int | None, lte: int | None) -> bool:
    """Whether `n` items meet a count: `exactly`, or at least `gte` and at most `lte`; with no bound given,
    at least one (the words of the same count: `words.how_many`)."""
    if exactly is not None:
        return n == exactly
    if gte is None and lte is None:
        return n >= 1
    return (gte is None or n >= gte) and (lte is None or n <= lte)


def closest(
    items: Sequence[T],
    conditions: Sequence[Condition[T]],
    rank: Callable[[T], Any] | None = None,
    earliest: bool = False,
) -> T:
    """The item meeting the most conditions, after `rank` (higher first) when given; the latest among equals
    (the agent's records come after the starters'), or the earliest with `earliest`. `items` is not empty."""
    # One pass in the order ties are settled, keeping the first best: each item's conditions are tested
    # once, and not at all when its rank is already below the best's.
    best, best_key = 0, None
    for k in range(len(items)) if earliest else range(len(items) - 1, -1, -1):
        item = items[k]
        first = rank(item) if rank is not None else 0
        if best_key is not None and first < best_key[0]:
            continue
        key = (first, sum(1 for c in conditions if c.holds(item)))
        if best_key is None or key > best_key:
            best, best_key = k, key
            if rank is None and key[1] == len(conditions):
                break
    return items[best]
