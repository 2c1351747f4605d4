"""Milestones, and the checks that place them in time: `before` (in this order) and `within` (this soon).

A milestone is the first moment something happened: a call matching a pattern, facts revealed to the
agent, a message, a decision, a state predicate holding, a fault resolved. Everything is read from the
events alone, so a saved trial scores as its live world did. A milestone that never happened fails
`before` and `within`, so doing nothing passes neither.

A `{state: {...}}` milestone is the first moment a state predicate held. The world never replays its
history to find it: `watch_state_milestones` watches each such predicate on the live world (see
`predicates.live`) and, the first time it holds, emits a `milestone` event whose `key` is the predicate
as canonical JSON. A predicate that holds from the start gets its event when watching begins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BeforeValidator, field_validator, model_validator

from ..clock import format_duration, iso, parse_duration, parse_time
from ..events import MilestoneEvent
from ..grading.attempt import Attempt, Watching
from ..grading.kinds import Args, Refers, check_kind
from ..grading.outcome import Outcome
from ..grading.words import listing, show, span
from ..predicates.live import Watched, writes_since
from ..predicates.predicate import StatePredicate, parse_state_predicate
from ..predicates.view import WorldView
from ..world import World
from .parse import Check
from .people import DecidedArgs, Facts, Selector, decisions_made, reveals, select
from .trace import Pattern, miss


@dataclass
class Reached:
    """When a milestone happened: the event that completed it, and every event behind it."""

    seq: int | None = None  # None: it did not happen (or cannot be told)
    t: str | None = None
    evidence: list[int] = field(default_factory=list)
    why: str = ""  # why it did not happen
    unknown: bool = False  # it cannot be told from this attempt (a state predicate nobody watched)

    @classmethod
    def at(cls, event: Any, evidence: list[int] | None = None) -> Reached:
        return cls(event.seq, event.t, evidence if evidence is not None else [event.seq])


MILESTONES = ("called", "revealed", "message", "decided", "state", "fault_resolved")


class Milestone(Args):
    """The first moment something happened; exactly one key."""

    called: Pattern | None = None
    revealed: Facts | None = None
    message: Selector | None = None
    decided: DecidedArgs | None = None
    state: Annotated[StatePredicate, BeforeValidator(parse_state_predicate)] | None = None
    fault_resolved: Annotated[str, Refers("fault")] | None = None

    @model_validator(mode="before")
    @classmethod
    def _one(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            # ValueError: what pydantic reports as the field's error (a TypeError would escape it).
            raise ValueError(f"a milestone is a mapping with one of: {', '.join(MILESTONES)}")  # noqa: TRY004
        unknown = [k for k in data if k not in MILESTONES]
        if unknown:
            raise ValueError(f"unknown milestone {unknown[0]!r} (a milestone is one of: {', '.join(MILESTONES)})")
        if len(data) != 1:
            found = ", ".join(data) or "none"
            raise ValueError(f"a milestone has exactly one of: {', '.join(MILESTONES)}; found {found}")
        return data

    def describe(self, attempt: Attempt) -> str:
        if self.called is not None:
            return f"a call matching {self.called}"
        if self.revealed is not None:
            return f"{listing(self.revealed)} revealed to the agent"
        if self.message is not None:
            return f"a message {self.message.describe(attempt)}"
        if self.decided is not None:
            return self.decided.describe(attempt)
        if self.state is not None:
            return f"state {show(self.state.predicate, 100)}"
        return f"fault {self.fault_resolved} resolved"

    def reach(self, attempt: Attempt) -> Reached:
        if self.called is not None:
            calls = attempt.calls_matching(self.called)
            if calls:
                return Reached.at(calls[0])
            why, evidence = miss(attempt, self.called)
            return Reached(why=why, evidence=evidence)
        if self.revealed is not None:
            found = reveals(attempt, self.revealed)
            if found.passed:
                return Reached(found.last.seq, found.last.t, found.evidence)
            return Reached(why="; ".join(found.reasons), evidence=found.evidence)
        if self.message is not None:
            selected = select(attempt, self.message)
            if selected.matched:
                return Reached.at(selected.matched[0])
            return Reached(why=selected.miss, evidence=selected.miss_evidence)
        if self.decided is not None:
            decisions = decisions_made(attempt, self.decided)
            if decisions.matched:
                return Reached.at(decisions.matched[0])
            return Reached(why=decisions.miss, evidence=decisions.miss_evidence)
        if self.state is not None:
            key = self.state.key
            milestone = next((e for e in attempt.of(MilestoneEvent) if e.key == key), None)
            if milestone is not None:
                return Reached.at(milestone)
            watched = attempt.watched
            if watched is not None and key not in watched:
                why = "it was not watched while the world ran (only the scene's own checks' state milestones are)"
                return Reached(why=why, unknown=True)
            return Reached(why="it never held")
        fault = self.fault_resolved
        event = next((e for e in attempt.of_kind("fault_resolved") if getattr(e, "fault", None) == fault), None)
        return Reached.at(event) if event is not None else Reached(why="it was never resolved")


def _milestones(value: Any) -> Any:
    if value == [] or value is None:
        raise ValueError("give one or more milestones")
    return value


class BeforeArgs(Args):
    milestones: Annotated[list[Milestone], BeforeValidator(_milestones)]


def _not_reached(name: str, reached: Reached) -> str:
    return f"{name} {'cannot be placed' if reached.unknown else 'never happened'}: {reached.why}"


def _undecided(reached: list[Reached]) -> bool | None:
    """False when a milestone never happened; None when none failed but one cannot be told."""
    return False if any(r.seq is None and not r.unknown for r in reached) else None


@check_kind("before", BeforeArgs, shorthand="milestones")
def before(args: BeforeArgs, attempt: Attempt) -> Outcome:
    """Each milestone happened, in this order: the first occurrences' seqs strictly increase."""
    names = [m.describe(attempt) for m in args.milestones]
    if len(names) == 1:
        expected = f"{names[0]}, at some point"
    else:
        expected = ", then ".join(names) + ", in that order"
    reached = [m.reach(attempt) for m in args.milestones]
    evidence = [seq for r in reached for seq in r.evidence]
    if any(r.seq is None for r in reached):
        parts = [f"{n} at seq {r.seq}" if r.seq is not None else _not_reached(n, r) for n, r in zip(names, reached)]
        return Outcome(_undecided(reached), expected, "; ".join(parts), evidence)
    for i in range(len(reached) - 1):
        first, then = reached[i].seq or 0, reached[i + 1].seq or 0
        if then == first:
            actual = f"{names[i]} and {names[i + 1]} came at the same moment (seq {first})"
            return Outcome(False, expected, actual, evidence)
        if then < first:
            actual = f"{names[i + 1]} came at seq {then}, before {names[i]} at seq {first}"
            return Outcome(False, expected, actual, evidence)
    actual = ", then ".join(f"{n} at seq {r.seq}" for n, r in zip(names, reached))
    return Outcome(True, expected, actual, evidence)


class WithinArgs(Args):
    milestone: Milestone
    limit: str | float
    after: Milestone | None = None

    @field_validator("limit")
    @classmethod
    def _duration(cls, value: str | float) -> str | float:
        parse_duration(value)  # a ValueError says what a duration looks like
        return value

    @property
    def limit_us(self) -> int:
        return parse_duration(self.limit)

    @property
    def limit_text(self) -> str:
        return self.limit if isinstance(self.limit, str) else format_duration(self.limit_us)


@check_kind("within", WithinArgs)
def within(args: WithinArgs, attempt: Attempt) -> Outcome:
    """The milestone happened within `limit` simulated time of the start, or of the milestone `after`."""
    name = args.milestone.describe(attempt)
    if args.after is not None:
        base = args.after.describe(attempt)
        expected = f"{name} within {args.limit_text} after {base}"
    else:
        base = "the start"
        expected = f"{name} within {args.limit_text} of the start"
    reached = args.milestone.reach(attempt)
    evidence = list(reached.evidence)
    if args.after is not None:
        since = args.after.reach(attempt)
        evidence += since.evidence
    else:
        start = next(iter(attempt.of_kind("start")), None) or next(iter(attempt.events), None)
        since = Reached.at(start, []) if start is not None else Reached(why="the log is empty")
    pending = [(n, r) for n, r in ((name, reached), (base, since)) if r.seq is None]
    if pending:
        actual = "; ".join(_not_reached(n, r) for n, r in pending)
        return Outcome(_undecided([r for _, r in pending]), expected, actual, evidence)
    assert reached.seq is not None and since.seq is not None and reached.t and since.t
    if reached.seq < since.seq:
        actual = f"it came at seq {reached.seq}, before {base} at seq {since.seq}"
        return Outcome(False, expected, actual, evidence)
    elapsed = parse_time(reached.t) - parse_time(since.t)
    at = f" (seq {since.seq})" if args.after is not None else ""
    actual = f"it came at seq {reached.seq}, {span(elapsed)} after {base}{at}"
    return Outcome(elapsed <= args.limit_us, expected, actual, evidence)


# -- what the engine and the validator read of checks -------------------------------------------------


def state_predicates(checks: Iterable[Check]) -> list[StatePredicate]:
    """Every state predicate used as a milestone (in `before` and `within`), each once, in order."""
    found: dict[str, StatePredicate] = {}
    for check in checks:
        for milestone in _milestones_of(check):
            if milestone.state is not None:
                found.setdefault(milestone.state.key, milestone.state)
    return list(found.values())


def _milestones_of(check: Check) -> list[Milestone]:
    """The milestones of a `before` or `within` check (none for other kinds)."""
    args = check.args
    if isinstance(args, BeforeArgs):
        return list(args.milestones)
    if isinstance(args, WithinArgs):
        return [m for m in (args.milestone, args.after) if m is not None]
    return []


# -- watching state milestones on a live world --------------------------------------------------------


def watch_state_milestones(world: World, checks: Iterable[Check]) -> None:
    """Watches the state milestones of `checks` on a live world (called once per world, when it is built)."""
    predicates = state_predicates(checks)
    watching = world.part(Watching)
    watching.keys |= {p.key for p in predicates}
    if predicates:
        world.watch(_Watcher(world, predicates))


class _Watcher:
    """Called by the world after every change; evaluates the pending predicates whose inputs changed."""

    def __init__(self, world: World, predicates: list[StatePredicate]) -> None:
        self.pending = [Watched(p, f"state milestone {p.key}") for p in predicates]
        self.seen = world.log.last_seq  # events looked at so far
        self.written: dict[str, tuple[int, str]] = {}  # collection -> seq and time of its latest write
        self.latest: tuple[int, str] | None = None  # the latest write in any collection
        self._evaluate(world, None)

    def __call__(self, world: World) -> None:
        if not self.pending:
            return
        changed: set[str] = set()
        for write in writes_since(world, self.seen):
            changed.add(write.collection)
            self.written[write.collection] = self.latest = (write.seq, write.t)
        self.seen = world.log.last_seq
        if changed:
            self._evaluate(world, changed)

    def _evaluate(self, world: World, changed: set[str] | None) -> None:
        """Evaluates the pending predicates that `changed` concerns (all of them when None)."""
        for pending in list(self.pending):
            if changed is not None and not pending.due(changed):
                continue
            held, view = pending.evaluate(world)
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
