"""State predicates: a state check used as a condition (a fault's `active_while`, a person's `state`) or
as a milestone (`before: [{state: {...}}]`), written `{"<state check>": {...}}` with refs resolved.

Each is parsed once, as its state check's arguments, and known by its `key` (canonical JSON): the key of
the `milestone` event a live world emits when it first holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..grading.attempt import Attempt
from ..grading.kinds import STATE_CHECKS, Args, ArgumentErrors, Kind, Path, Reference
from ..world import shared_by_forks


def predicate_key(predicate: Mapping[str, Any]) -> str:
    """A state predicate as canonical JSON: the `key` of the `milestone` event emitted when it first holds."""
    return json.dumps(predicate, sort_keys=True, separators=(",", ":"), default=str)


@shared_by_forks
class StatePredicate:
    """A parsed state predicate: the state check's name, kind and arguments, and the arguments as written."""

    __slots__ = ("args", "key", "kind", "name", "spec")

    def __init__(self, name: str, kind: Kind, args: Args, spec: dict[str, Any]) -> None:
        self.name = name
        self.kind = kind
        self.args = args
        self.spec = spec  # the arguments as written, refs resolved
        self.key = predicate_key({name: spec})

    @property
    def predicate(self) -> dict[str, Any]:
        return {self.name: self.spec}

    def references(self, path: Path = ()) -> Iterator[Reference]:
        """What its arguments name (see `Args.references`)."""
        return self.args.references(path + (self.name,))

    def holds(self, attempt: Attempt) -> bool:
        return self.kind.run(self.args, attempt).passed is True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StatePredicate) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"StatePredicate({self.key})"


class PredicateError(ValueError):
    """An invalid state predicate: every problem, each with its path inside the predicate (`("slack.message",
    "channel")`)."""

    def __init__(self, problems: list[tuple[tuple[str | int, ...], str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(_where(path) + message for path, message in problems))


def _where(path: tuple[str | int, ...]) -> str:
    if not path:
        return ""
    name, rest = path[0], path[1:]
    return f"{name}{''.join(f'[{p}]' if isinstance(p, int) else f'.{p}' for p in rest)}: "


def parse_state_predicate(value: Any) -> StatePredicate:
    """`{"<state check>": {...}}` (refs resolved), validated as that state check; raises PredicateError."""
    if isinstance(value, StatePredicate):
        return value
    known = ", ".join(sorted(STATE_CHECKS))
    if not isinstance(value, Mapping) or len(value) != 1:
        raise PredicateError([((), f"a state predicate names exactly one state check ({known})")])
    name, spec = next(iter(value.items()))
    kind = STATE_CHECKS.get(name)
    if kind is None:
        raise PredicateError([((), f"unknown state check {name!r} (known: {known})")])
    spec = {} if spec is None else spec
    if not isinstance(spec, dict):
        raise PredicateError([((), f"the arguments of state check {name} are a mapping, got {type(spec).__name__}")])
    try:
        args = kind.parse(spec)
    except ArgumentErrors as exc:
        raise PredicateError([((name, *loc), message) for loc, message in exc.problems]) from None
    return StatePredicate(name, kind, args, spec)
