"""Conditions on records, messages and calls, and the search every check makes with them: the items that
meet them all, or else the closest item and what it has instead of what was asked.

A condition carries its own words, so a check that fails can say `none of 12 messages matched; closest:
message 1.2, but it is in #random`, whatever it searched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from .match import value_matches
from .values import Case
from .words import show

T = TypeVar("T")


class Condition(NamedTuple, Generic[T]):
    wants: str  # what it asks for, in words: `in C0123 ($support)`
    holds: Callable[[T], bool]
    instead: Callable[[T], str]  # what an item that fails it has instead: `it is in C0456 ($random)`


def field_is(
    read: Callable[[T], Any], value: Any, say: Callable[[Any], str], its: Callable[[Any], str] | None = None
) -> Condition[T]:
    """That an item's field (`read`) equals `value`: asked as `say(value)` (`in C0123 ($support)`); an item
    that fails it has `it is ` and `say` of its own value (`it is in C0456 ($random)`), or `its` of it."""
    instead = its or (lambda found: f"it is {say(found)}")
    return Condition(say(value), lambda item: read(item) == value, lambda item: instead(read(item)))


_AS_WRITTEN = Case()  # a check's `ignore_case` left out


def contains(noun: str, read: Callable[[T], Any], part: str, case: Case = _AS_WRITTEN) -> Condition[T]:
    """That the text an item's field (`read`, its `noun` in words) contains `part`, case aside unless `case`
    says: asked as `whose title contains "x"`; an item that fails it has `its title is "..."`."""
    return Condition(
        f"whose {noun} contains {show(part)}{case.note()}",
        lambda item: value_matches(str(read(item) or ""), part, case.fold),
        lambda item: f"its {noun} is {show(read(item) or '', 60)}",
    )


def wants(conditions: Sequence[Condition[Any]]) -> str:
    """What the conditions ask for together: `in C0123 ($support) from $bot`."""
    return " ".join(c.wants for c in conditions)


def matching(items: Sequence[T], conditions: Sequence[Condition[T]]) -> list[T]:
    """The items that meet every condition, in their order."""
    # One condition at a time over what the ones before left: each item meets the same tests as with `all`.
    found = list(items)
    for condition in conditions:
        holds = condition.holds
        found = [item for item in found if holds(item)]
    return found


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
    # In the order ties are settled, keeping the first best: ranks first, then the conditions of the items of
    # the highest rank only, each tested only until the item has failed too many of them to beat the best.
    order: Sequence[int] = range(len(items)) if earliest else range(len(items) - 1, -1, -1)
    if rank is not None:
        ranks = [rank(item) for item in items]
        top = max(ranks)
        order = [k for k in order if ranks[k] == top]
    tests = [c.holds for c in conditions]
    best, most = order[0], -1
    for k in order:
        item, failed, allowed = items[k], 0, len(tests) - most - 1
        for holds in tests:
            if not holds(item):
                failed += 1
                if failed > allowed:  # it can no longer beat the best
                    break
        else:
            best, most = k, len(tests) - failed
            if failed == 0:
                break
    return items[best]
