"""How checks compare values: dotted paths into records and call inputs, `where` matching, similarity."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any


def get_path(value: Any, path: str) -> list[Any]:
    """The values at a dotted path (`labels.name`, `blocks.0.text`); a path through a list reaches into each
    element, so it can give several values. `**` stands for any number of levels, none included:
    `blocks.**.type` is the `type` of every mapping at any depth of `blocks`. A path that does not exist gives
    none."""
    found = [value]
    for part in path.split("."):
        if part == "**":
            found = [inner for current in found for inner in _mappings(current)]
            continue
        step: list[Any] = []
        for current in found:
            if type(current) is dict or isinstance(current, Mapping):  # dict first: the ABC's check is slow
                if part in current:
                    step.append(current[part])
            elif isinstance(current, list):
                if part.isdigit():
                    if int(part) < len(current):
                        step.append(current[int(part)])
                else:
                    step.extend(item[part] for item in current if isinstance(item, Mapping) and part in item)
        found = step
        if not found:
            return []
    return found


def _mappings(value: Any) -> list[Any]:
    """Every mapping in `value` at any depth, itself included, through mappings' values and lists' elements."""
    found: list[Any] = []
    pending = [value]
    while pending:
        current = pending.pop()
        if isinstance(current, Mapping):
            found.append(current)
            pending.extend(reversed(list(current.values())))
        elif isinstance(current, list):
            pending.extend(reversed(current))
    return found


def value_matches(actual: Any, expected: Any, fold: bool = True) -> bool:
    """The `where` rule: a string matches as a substring (ignoring case with `fold`), anything else by
    equality; a list matches when one of its elements does (unless a list is expected)."""
    if isinstance(actual, list) and not isinstance(expected, list):
        return any(value_matches(item, expected, fold) for item in actual)
    if isinstance(expected, str):
        if not isinstance(actual, str):
            return False
        return expected.casefold() in actual.casefold() if fold else expected in actual
    return bool(actual == expected)


def same(actual: Any, expected: Any, fold: bool = True) -> bool:
    """Equality, ignoring the case of text with `fold`."""
    if fold and isinstance(actual, str) and isinstance(expected, str):
        return actual.casefold() == expected.casefold()
    return bool(actual == expected)


def loosely_equal(actual: Any, expected: Any) -> bool:
    """Equality that also accepts a call argument sent as text: form and query values are always strings,
    so `10` equals `"10"` and `true` equals `"true"` or `"1"`."""
    if actual == expected:
        return True
    if not isinstance(actual, str) or isinstance(expected, str):
        return False
    if isinstance(expected, bool):
        return actual.lower() in (("1", "true") if expected else ("0", "false"))
    if isinstance(expected, (int, float)):
        try:
            return float(actual) == expected
        except ValueError:
            return False
    return False


def dice(a: str, b: str) -> float:
    """The Dice coefficient of the two strings' character bigrams (as multisets), from 0.0 to 1.0."""
    if a == b:
        return 1.0
    if len(a) < 2 or len(b) < 2:
        return 0.0
    bigrams = Counter(a[i : i + 2] for i in range(len(a) - 1))
    overlap = 0
    for i in range(len(b) - 1):
        gram = b[i : i + 2]
        if bigrams[gram] > 0:
            bigrams[gram] -= 1
            overlap += 1
    return 2 * overlap / (len(a) + len(b) - 2)
