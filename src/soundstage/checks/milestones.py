"""State milestones on a live world, and state predicates decided now.

A `{state: {...}}` milestone (in `before` and `within`) is the first moment a state predicate held. The
world never replays its history to find it: `watch_state_milestones` evaluates each predicate after every
change and, the first time it holds, emits a `milestone` event whose `key` is the predicate as canonical
JSON; process checks then read that event, on the live world and in a saved trial alike.

A predicate is evaluated again only when a collection it read last time was written since (a check that
read the whole state, the whole diff or the log is evaluated after any write), so watching stays cheap
with long logs. A predicate that holds from the start gets its event when watching begins.

`state_holds(world, predicate)` decides one predicate on the live world now (the people's `state`
conditions).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ..clock import iso
from ..events import MilestoneEvent, WriteEvent
from .attempt import WATCHED, Attempt, WorldView
from .parse import Check, CheckSpecError
from .process import StatePredicate, parse_state_predicate, predicate_key, state_predicates

if TYPE_CHECKING:
    from ..world import World

log = logging.getLogger(__name__)

__all__ = ["milestone_key", "state_holds", "state_milestones", "watch_state_milestones"]

milestone_key = predicate_key


def state_milestones(checks: Iterable[Check]) -> list[dict[str, Any]]:
    """Every resolved `{state: ...}` predicate used as a milestone by these (parsed) checks, each once."""
    return [p.predicate for p in state_predicates(checks)]


def watch_state_milestones(world: World, checks: Iterable[Check]) -> None:
    """Watches the state milestones of `checks` on a live world (called once per world, when it is built)."""
    predicates = state_predicates(checks)
    world.scratch[WATCHED] = frozenset(world.scratch.get(WATCHED, frozenset()) | {p.key for p in predicates})
    if predicates:
        watcher = _Watcher(world, predicates)
        world.watch(watcher)


_cache: dict[str, StatePredicate] = {}


def state_holds(world: World, predicate: Mapping[str, Any]) -> bool:
    """Whether a state predicate (`{"slack.message": {...}}`, refs resolved) holds on the live world now.
    Raises CheckSpecError when the predicate is not a valid state check."""
    key = predicate_key(predicate)
    parsed = _cache.get(key)
    if parsed is None:
        try:
            parsed = parse_state_predicate(dict(predicate))
        except ValueError as exc:
            raise CheckSpecError(str(exc), ("state",), root="condition") from None
        if len(_cache) < 4096:
            _cache[key] = parsed
    return parsed.holds(Attempt.view(world))


def evaluate_now(world: World, predicate: StatePredicate, what: str) -> tuple[bool | None, WorldView]:
    """Whether `predicate` holds on the live world now, and the view that says what it read. None when it
    could not be evaluated: logged, not raised, so a failing predicate never breaks the world's call (the
    watchers try again on the next change to what it read)."""
    view = Attempt.view(world)
    try:
        return predicate.holds(view), view
    except Exception:
        log.exception("%s could not be evaluated", what)
        return None, view


class _Pending:
    """A predicate not yet held: what it read when last evaluated."""

    __slots__ = ("predicate", "reads", "reads_all")

    def __init__(self, predicate: StatePredicate) -> None:
        self.predicate = predicate
        self.reads: set[str] = set()
        self.reads_all = True  # not evaluated yet


class _Watcher:
    """Called by the world after every change; evaluates the pending predicates whose inputs changed."""

    def __init__(self, world: World, predicates: list[StatePredicate]) -> None:
        self.pending = [_Pending(p) for p in predicates]
        self.seen = world.log.last_seq  # events looked at so far
        self.written: dict[str, tuple[int, str]] = {}  # collection -> seq and time of its latest write
        self.latest: tuple[int, str] | None = None  # the latest write in any collection
        self._evaluate(world, set(), everything=True)

    def __call__(self, world: World) -> None:
        if not self.pending:
            return
        events = world.log.events
        changed: set[str] = set()
        for event in events[self.seen :]:
            if isinstance(event, WriteEvent):
                changed.add(event.collection)
                self.written[event.collection] = self.latest = (event.seq, event.t)
        self.seen = len(events)
        if changed:
            self._evaluate(world, changed)

    def _evaluate(self, world: World, changed: set[str], everything: bool = False) -> None:
        for pending in list(self.pending):
            if not (everything or pending.reads_all or pending.reads & changed):
                continue
            held, view = evaluate_now(world, pending.predicate, f"state milestone {pending.predicate.key}")
            pending.reads, pending.reads_all = view.reads, view.reads_all
            if held:
                self.pending.remove(pending)
                world.log.emit(MilestoneEvent, t=self._moment(world, view), key=pending.predicate.key)
        self.seen = world.log.last_seq

    def _moment(self, world: World, view: WorldView) -> str:
        """When the predicate came to hold: at the latest write to what it read (the state has not changed
        since), or now when nothing it read was written (it held from the start)."""
        if view.reads_all:
            moment = self.latest
        else:
            moment = max((self.written[c] for c in view.reads if c in self.written), default=None)
        return moment[1] if moment is not None else iso(world.now())
