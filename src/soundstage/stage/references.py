"""Everything a scene's checks and people name must be something the scene declares: a fact of one of its
people, a decision (and one of its options), a person, a fault, a service. A misspelt name would otherwise
only show when an attempt is scored, as the agent's failure, or worse, as a `never` check that can never
fail. Each unresolved name is a SpecError naming the file, line and field."""

from __future__ import annotations

import difflib
from typing import Any, Iterable

from ..checks import Check
from ..errors import SpecError
from ..grading.patterns import CallPattern
from ..people.cast import Cast
from ..services import SERVICES
from ..spec.build import BuildContext
from .models import Scene


def unresolved(ctx: BuildContext, checks: list[Check], cast: Cast, scene: Scene) -> list[SpecError]:
    """A SpecError for every name in `checks` (and in the people's `on`) that the scene does not declare;
    `ctx` points at the scene file."""
    faults = [fault.id for fault in scene.faults]
    names = {value: name for name, value in sorted(ctx.refs.items(), reverse=True)}  # an id's first ref
    errors: list[SpecError] = []
    for check in checks:
        for what, path, value in check.args.references():
            problem = _problem(what, value, cast, faults, names)
            if problem is not None:
                errors.append(ctx.error(problem, "checks", *check.located(path)))
    for i, person in enumerate(scene.people):
        for j, trigger in enumerate(person.on):
            if trigger.fault_resolved is not None and trigger.fault_resolved not in faults:
                errors.append(ctx.error(_unknown("fault", trigger.fault_resolved, faults), "people", i, "on", j))
    return errors


def _problem(what: str, value: Any, cast: Cast, faults: list[str], names: dict[str, str]) -> str | None:
    if what == "fact":
        return None if value in cast.facts else _unknown("fact", value, cast.facts)
    if what == "person":
        return None if value in cast.by_user else _not_a_person(value, cast, names)
    if what == "fault":
        return None if value in faults else _unknown("fault", value, faults)
    if what == "call":
        return _service(value)
    if what == "decision":
        return _decision(value, cast, names)
    raise ValueError(f"a check argument names a {what}, which nothing resolves")


def _unknown(what: str, value: Any, known: Iterable[str], whose: str = "the scene's") -> str:
    names = list(known)
    close = difflib.get_close_matches(str(value), names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    declared = ", ".join(names) if names else "none"
    return f"{what} {value!r} is not one of {whose} {what}s (declared: {declared}){hint}"


def _not_a_person(user: Any, cast: Cast, names: dict[str, str]) -> str:
    people = ", ".join(f"${p.ref}" for p in cast.people) or "none"
    who = f"${names[user]}" if user in names else str(user)
    return f"{who} is not a person of this scene (people: {people}): only people hear, learn and decide"


def _service(pattern: CallPattern) -> str | None:
    if pattern.service is None or pattern.service in SERVICES:
        return None
    return _unknown("service", pattern.service, SERVICES, "soundstage's")


def _decision(decided: Any, cast: Cast, names: dict[str, str]) -> str | None:
    """`{person, decision, option?}` names a decision of that person, and one of its options."""
    person = cast.by_user.get(decided.person)
    if person is None:
        return _not_a_person(decided.person, cast, names)
    decisions = {d.key: d for d in person.decisions} | {d.id: d for d in person.decisions}
    decision = decisions.get(decided.decision)
    if decision is None:
        return _unknown("decision", decided.decision, [d.id for d in person.decisions], f"${person.ref}'s")
    if decided.option is not None and decided.option not in decision.options:
        return (
            f"{decided.option!r} is not an option of {decision.key} (options: {', '.join(map(repr, decision.options))})"
        )
    return None
