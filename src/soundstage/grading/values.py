"""Value tests: what one `where` or `changes` value asks of the values found at a path.

A plain value keeps the `where` rule (`match.value_matches`): text as a substring, anything else by
equality, a list matching when one of its elements does. A mapping asks with operators, all of which must
hold: `equals`, `in` (one of these), `matches` (a regex, searched), `len`, `has` (a list holding each of
these), `only` (a list holding these and nothing else, in any order) and `not` (no value at the path meets
the test inside).

Case: `fold` says whether text comparisons ignore case (substrings, `equals`, `in`, `has`, `only`),
`fold_regex` whether regexes do; a check's `ignore_case` sets them (`Case`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator

from .match import get_path, same, value_matches
from .words import either, listing, show

OPERATORS = ("equals", "in", "matches", "len", "has", "only", "not")
_MISSING = object()


@dataclass(frozen=True)
class Case:
    """A check's `ignore_case`: None (the default) ignores case in text comparisons but not in regexes;
    true ignores it in both, false in neither."""

    ignore_case: bool | None = None

    @property
    def fold(self) -> bool:
        return self.ignore_case is not False

    @property
    def fold_regex(self) -> bool:
        return self.ignore_case is True

    def regex(self, pattern: re.Pattern[str]) -> re.Pattern[str]:
        """`pattern` as this case reads it: ignoring case when `fold_regex` says so."""
        return re.compile(pattern.pattern, pattern.flags | re.IGNORECASE) if self.fold_regex else pattern

    def note(self) -> str:
        """What an explicit `ignore_case` adds to the words of a check: `, case-sensitive`, or nothing."""
        if self.ignore_case is None:
            return ""
        return ", ignoring case" if self.ignore_case else ", case-sensitive"


@dataclass(frozen=True)
class ValueTest:
    """One value of `where` or `changes`, checked when the check is parsed (`value_test`)."""

    spec: Any
    regexes: tuple[re.Pattern[str], re.Pattern[str]] | None = None  # `matches`: as written, and ignoring case
    inner: ValueTest | None = None  # `not`

    @property
    def operators(self) -> Mapping[str, Any] | None:
        return self.spec if isinstance(self.spec, dict) else None

    def holds(self, values: list[Any], case: Case, gathered: bool = False) -> bool:
        """Whether the values found at a path (none when it does not exist) meet the test; `gathered`: the
        path went through a list, so the values are one per element (`labels.name`)."""
        ops = self.operators
        if ops is None:
            return any(value_matches(v, self.spec, case.fold) for v in values)
        return all(self._holds(op, arg, values, case, gathered) for op, arg in ops.items())

    def holds_for(self, record: Any, path: str, case: Case) -> bool:
        if type(record) is dict and "." not in path:  # one field of a record: what `get_path` finds, sooner
            return self.holds([record[path]] if path in record else [], case)
        parent, dot, _ = path.rpartition(".")
        gathered = bool(dot) and any(isinstance(v, list) for v in get_path(record, parent))
        return self.holds(get_path(record, path), case, gathered)

    def tester(self, path: str, case: Case) -> Callable[[Any], bool]:
        """`holds_for` at one path, made once to test many records: a plain value at one field of a dict record
        (the most common `where`, tried on every record of a collection) is compared without the general steps."""
        if self.operators is not None or "." in path:
            return lambda record: self.holds_for(record, path, case)
        spec, fold = self.spec, case.fold
        needle = spec.casefold() if isinstance(spec, str) and fold else None

        def holds(record: Any) -> bool:
            if type(record) is not dict:
                return self.holds_for(record, path, case)
            value = record.get(path, _MISSING)
            if value is _MISSING:
                return False
            if needle is not None and type(value) is str:
                return needle in value.casefold()
            return value_matches(value, spec, fold)

        return holds

    def _holds(self, op: str, arg: Any, values: list[Any], case: Case, gathered: bool) -> bool:
        if op == "not":
            return self.inner is not None and not self.inner.holds(values, case, gathered)
        if op == "equals":
            return any(same(v, arg, case.fold) for v in values)
        if op == "in":
            return any(_among(v, arg, case.fold) for v in values)
        if op == "matches":
            assert self.regexes is not None
            regex = self.regexes[case.fold_regex]
            return any(regex.search(text) is not None for v in values for text in _texts(v))
        if op == "len":
            return any(isinstance(v, (list, str, dict)) and len(v) == arg for v in values)
        items = values if gathered else values[0] if len(values) == 1 and isinstance(values[0], list) else None
        if items is None:
            return False
        if op == "has":
            return all(_among(a, items, case.fold) for a in arg)
        # only: the same elements, in any order, each once or more
        return all(_among(a, items, case.fold) for a in arg) and all(_among(e, arg, case.fold) for e in items)

    def text(self) -> str:
        """What it asks, after the path: `contains "export"`, `matches /^D/ and has length 2`."""
        ops = self.operators
        if ops is None:
            return f"contains {show(self.spec)}" if isinstance(self.spec, str) else f"is {show(self.spec)}"
        said = []
        for op, arg in ops.items():
            if op == "not":
                assert self.inner is not None
                said.append(f"not ({self.inner.text()})")
            elif op == "equals":
                said.append(f"equals {show(arg)}")
            elif op == "in":
                said.append(f"is one of {either([show(a) for a in arg])}")
            elif op == "matches":
                said.append(f"matches /{arg}/")
            elif op == "len":
                said.append(f"has length {arg}")
            elif op == "has":
                said.append(f"includes {listing([show(a) for a in arg])}")
            else:
                said.append(f"holds {listing([show(a) for a in arg]) if arg else 'nothing'} and nothing else")
        return " and ".join(said)


def value_test(spec: Any) -> ValueTest:
    """A `where` value as a test; raises ValueError, in the user's words, for a mapping that is not one."""
    if not isinstance(spec, dict):
        return ValueTest(spec)
    if not spec:
        raise ValueError(f"a mapping here is a test with one or more of {', '.join(OPERATORS)}")
    unknown = [k for k in spec if k not in OPERATORS]
    if unknown:
        raise ValueError(f"unknown test {unknown[0]!r} (a test has one or more of {', '.join(OPERATORS)})")
    regexes = None
    if "matches" in spec:
        pattern = spec["matches"]
        if not isinstance(pattern, str):
            raise ValueError(f"matches is a regular expression (text), got {show(pattern)}")
        try:
            regexes = (re.compile(pattern), re.compile(pattern, re.IGNORECASE))
        except re.error as exc:
            raise ValueError(f"matches is not a valid regular expression: {exc}") from None
    if "len" in spec and (type(spec["len"]) is not int or spec["len"] < 0):
        raise ValueError(f"len is a whole number, 0 or more, got {show(spec['len'])}")
    for op, what in (("in", "the values allowed"), ("has", "the elements"), ("only", "the elements")):
        if op in spec and not isinstance(spec[op], list):
            raise ValueError(f"{op} is a list of {what}, got {show(spec[op])}")
    inner = value_test(spec["not"]) if "not" in spec else None
    return ValueTest(spec, regexes, inner)


def _texts(value: Any) -> list[str]:
    """The text a regex searches: a string, or the strings of a list."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def _among(item: Any, items: list[Any], fold: bool) -> bool:
    return any(same(item, other, fold) for other in items)


Tested = Annotated[Any, AfterValidator(value_test)]  # an argument holding a value test: `where: dict[str, Tested]`


def where_misses(where: Mapping[str, ValueTest], record: Any, case: Case) -> list[str]:
    """The paths of a `where` a record does not meet."""
    return [path for path, test in where.items() if not test.holds_for(record, path, case)]


def where_text(where: Mapping[str, ValueTest]) -> str:
    """` where title contains "export" and number is 12`, or nothing."""
    said = [f"{path} {test.text()}" for path, test in where.items()]
    return f" where {listing(said)}" if said else ""
