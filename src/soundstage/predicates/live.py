"""State predicates on a live world: decided now, and watched as the world changes.

A watched predicate is evaluated again only when a collection it read last time has been written since
(after any write when it read the whole state, the whole diff or the log), so watching stays cheap with
long logs. State milestones (`checks.milestones`) and faults (`faults.engine`) watch predicates this way.
A predicate that raises is logged, not raised, so it never breaks the world's call; it is tried again on
the next change to what it read.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from ..events import WriteEvent
from ..world import World
from .predicate import StatePredicate, parse_state_predicate, predicate_key
from .view import WorldView

log = logging.getLogger(__name__)

_parsed: dict[str, StatePredicate] = {}


def state_holds(world: World, predicate: Mapping[str, Any] | StatePredicate) -> bool:
    """Whether a state predicate (`{"slack.message": {...}}`, refs resolved) holds on the live world now.
    Raises PredicateError when it is not a valid state predicate."""
    if not isinstance(predicate, StatePredicate):
        key = predicate_key(predicate)
        parsed = _parsed.get(key)
        if parsed is None:
            parsed = parse_state_predicate(dict(predicate))
            if len(_parsed) < 4096:
                _parsed[key] = parsed
        predicate = parsed
    return predicate.holds(WorldView(world))


def evaluate_now(world: World, predicate: StatePredicate, what: str) -> tuple[bool | None, WorldView]:
    """Whether `predicate` holds on the live world now, and the view that says what it read; None when it
    could not be evaluated (logged as `what`)."""
    view = WorldView(world)
    try:
        return predicate.holds(view), view
    except Exception:
        log.exception("%s could not be evaluated", what)
        return None, view


class Watched:
    """A predicate watched on a live world, with what it read when last evaluated."""

    __slots__ = ("predicate", "reads", "reads_all", "what")

    def __init__(self, predicate: StatePredicate, what: str) -> None:
        self.predicate = predicate
        self.what = what  # names it in the log when it cannot be evaluated
        self.reads: set[str] = set()
        self.reads_all = True  # not evaluated yet

    def __deepcopy__(self, memo: dict[int, Any]) -> Watched:
        # A fork's copy: the predicate and its name never change; what it read does.
        copied = Watched(self.predicate, self.what)
        copied.reads, copied.reads_all = set(self.reads), self.reads_all
        return copied

    def due(self, changed: set[str]) -> bool:
        """Whether a change to `changed` may change its verdict."""
        return self.reads_all or bool(self.reads & changed)

    def evaluate(self, world: World) -> tuple[bool | None, WorldView]:
        """Evaluates it now and remembers what it read; None when it could not be evaluated."""
        held, view = evaluate_now(world, self.predicate, self.what)
        if held is not None:
            self.reads, self.reads_all = view.reads, view.reads_all
        return held, view


def writes_since(world: World, seen: int) -> list[WriteEvent]:
    """The `write` events logged after seq `seen`."""
    return [e for e in world.log.events[seen:] if isinstance(e, WriteEvent)]
