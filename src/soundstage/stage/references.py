"""Everything a scene's checks, faults and people name must be something the scene declares: a fact of one
of its people, a decision (and one of its options), a person, a fault, a service. A misspelt name would otherwise
only show when an attempt is scored, as the agent's failure, or worse, as a `never` check that can never
fail. Each unresolved name is a SpecError naming the file, line and field."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Any

from ..checks import Check
from ..errors import SpecError
from ..faults.build import ResolvedFault
from ..grading.kinds import Reference
from ..grading.patterns import CallPattern
from ..people.cast import Cast
from ..people.models import Condition
from ..predicates import PredicateError, StatePredicate, parse_state_predicate
from ..services import SERVICES
from ..spec.build import BuildContext
from ..spec.refs import RefError, resolve_refs
from .models import Scene

# The names each part of a scene declares, and the keys that declare them: with one of those keys (or the whole
# part) left out, as it did not validate, a name missing from the scene may be one of its, and is not reported.
_DECLARED_BY = {
    "people": (("fact", "person", "decision"), {"ref", "slack_user", "email", "facts", "decisions", "id", "options"}),
    "faults": (("fault",), {"id"}),
}


def unresolved(
    ctx: BuildContext,
    checks: list[Check],
    cast: Cast,
    scene: Scene,
    faults: list[ResolvedFault],
    left_out: Iterable[tuple[Any, ...]] = (),
) -> list[SpecError]:
    """A SpecError for every name that the scene does not declare, in its checks, its faults' conditions and
    its people's conditions and triggers; `ctx` points at the scene file. `left_out`: the paths of the scene's
    parts that did not validate."""
    declared = [fault.id for fault in scene.faults]
    unsure = {what for path in left_out for what in _unsure(path)}
    errors: list[SpecError] = []
    for what, path, value in _references(ctx, checks, scene, faults):
        problem = None if what in unsure else _problem(what, value, cast, declared, ctx.refs)
        if problem is not None:
            errors.append(ctx.error(problem, *path))
    for i, person in enumerate(scene.people if "fault" not in unsure else ()):
        for j, trigger in enumerate(person.on):
            if trigger.fault_resolved is not None and trigger.fault_resolved not in declared:
                errors.append(ctx.error(_unknown("fault", trigger.fault_resolved, declared), "people", i, "on", j))
    return errors


def _unsure(path: tuple[Any, ...]) -> tuple[str, ...]:
    """The kinds of name that a part left out may have declared."""
    names, keys = _DECLARED_BY.get(path[0], ((), set()))
    return names if len(path) < 3 or keys & set(path[2:]) else ()


def _references(
    ctx: BuildContext, checks: list[Check], scene: Scene, faults: list[ResolvedFault]
) -> Iterator[Reference]:
    """Every reference, with the path in the scene file where it is written."""
    for check in checks:
        for what, path, value in check.args.references():
            yield what, ("checks", *check.located(path)), value
    written = {fault.id: i for i, fault in reversed(list(enumerate(scene.faults)))}
    for fault in faults:
        for what, path, value in fault.condition.references():
            yield what, ("faults", written[fault.id], "active_while", *path), value
    for i, person in enumerate(scene.people):
        conditions: list[tuple[tuple[int | str, ...], Condition | None]]
        conditions = [((i, "facts", j, "share_if"), f.share_if) for j, f in enumerate(person.facts)]
        conditions += [
            ((i, "decisions", j, "choose", k, "if"), choice.if_)
            for j, decision in enumerate(person.decisions)
            for k, choice in enumerate(decision.choose)
        ]
        for at, condition in conditions:
            predicate = _predicate(ctx, condition.state) if condition is not None and condition.state else None
            for what, path, value in predicate.references() if predicate is not None else ():
                yield what, ("people", *at, "state", *path), value


def _predicate(ctx: BuildContext, written: dict[str, Any]) -> StatePredicate | None:
    """A person's state condition, parsed (None when it does not parse: the people's build said why)."""
    try:
        return parse_state_predicate(resolve_refs(written, ctx.refs))
    except (RefError, PredicateError):
        return None


def _problem(what: str, value: Any, cast: Cast, faults: list[str], refs: dict[str, str]) -> str | None:
    if what == "fact":
        return None if value in cast.facts else _unknown("fact", value, cast.facts)
    if what == "person":
        return None if value in cast.by_user else _not_a_person(value, cast, refs)
    if what == "fault":
        return None if value in faults else _unknown("fault", value, faults)
    if what == "call":
        return _service(value)
    if what == "decision":
        return _decision(value, cast, refs)
    raise ValueError(f"a check argument names a {what}, which nothing resolves")


def _unknown(what: str, value: Any, known: Iterable[str], whose: str = "the scene's") -> str:
    names = list(known)
    close = difflib.get_close_matches(str(value), names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    declared = ", ".join(names) if names else "none"
    return f"{what} {value!r} is not one of {whose} {what}s (declared: {declared}){hint}"


def _not_a_person(user: Any, cast: Cast, refs: dict[str, str]) -> str:
    people = ", ".join(f"${p.ref}" for p in cast.people) or "none"
    # The id's first ref, looked up only here: a table of every id's would be a big world's refs again.
    name = min((name for name, value in refs.items() if value == user), default=None)
    who = f"${name}" if name is not None else str(user)
    return f"{who} is not a person of this scene (people: {people}): only people hear, learn and decide"


def _service(pattern: CallPattern) -> str | None:
    if pattern.service is None or pattern.service in SERVICES:
        return None
    return _unknown("service", pattern.service, SERVICES, "soundstage's")


def _decision(decided: Any, cast: Cast, refs: dict[str, str]) -> str | None:
    """`{person, decision, option?}` names a decision of that person, and one of its options."""
    person = cast.by_user.get(decided.person)
    if person is None:
        return _not_a_person(decided.person, cast, refs)
    decisions = {d.key: d for d in person.decisions} | {d.id: d for d in person.decisions}
    decision = decisions.get(decided.decision)
    if decision is None:
        return _unknown("decision", decided.decision, [d.id for d in person.decisions], f"${person.ref}'s")
    if decided.option is not None and decided.option not in decision.options:
        return (
            f"{decided.option!r} is not an option of {decision.key} (options: {', '.join(map(repr, decision.options))})"
        )
    return None
