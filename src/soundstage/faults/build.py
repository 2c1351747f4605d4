"""From the `faults:` of a scene to resolved faults, when the image is built.

Refs become ids, the condition is parsed as a state predicate, and each effect is built by its kind (which
checks that the records it names exist); each problem is a SpecError naming the file, line and field.
Fault ids are unique within a scene.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ..clock import parse_duration
from ..errors import SpecError
from ..predicates.predicate import PredicateError, StatePredicate, parse_state_predicate
from ..services.effects import EFFECTS, Effect
from ..spec.build import BuildContext
from ..spec.refs import Problem, resolve_refs
from ..world import shared_by_forks
from .models import Fault, WrittenEffect


@shared_by_forks
@dataclass(frozen=True)
class ResolvedFault:
    id: str
    condition: StatePredicate
    effects: tuple[Effect, ...]
    recover_after: int  # microseconds


def build_faults(faults: list[Fault], ctx: BuildContext) -> tuple[list[ResolvedFault], list[SpecError]]:
    """The scene's faults that resolve, and a SpecError for every problem of the others; `ctx` points at
    the scene's `faults` list."""
    file, here = ctx.file, ctx.here
    built: list[ResolvedFault] = []
    errors: list[SpecError] = []
    seen: dict[str, int] = {}
    for i, fault in enumerate(faults):
        if fault.id in seen:
            errors.append(
                ctx.at(file, here).error(
                    f"fault id {fault.id!r} is used twice (first at faults[{seen[fault.id]}])", i, "id"
                )
            )
            continue
        seen[fault.id] = i
        found = _fault(fault, ctx, file, here + (i,))
        if isinstance(found, ResolvedFault):
            built.append(found)
        else:
            errors += found
    ctx.at(file, here)
    return built, errors


def _fault(fault: Fault, ctx: BuildContext, file: str, here: tuple[str | int, ...]) -> ResolvedFault | list[SpecError]:
    errors: list[SpecError] = []
    problems: list[Problem] = []
    condition = resolve_refs(fault.active_while, ctx.refs, (), problems)
    errors += [ctx.at(file, here).error(message, "active_while", *path) for path, message in problems]
    predicate: StatePredicate | None = None
    if not problems:
        try:
            predicate = parse_state_predicate(condition)
        except PredicateError as exc:
            errors += [ctx.at(file, here).error(message, "active_while", *path) for path, message in exc.problems]
    effects: list[Effect] = []
    for k, effect in enumerate(fault.effects):
        name, written = cast(WrittenEffect, effect).written()
        try:
            effects.append(EFFECTS[name].build(written, ctx.at(file, here + ("effects", k, name))))
        except SpecError as exc:
            errors.append(exc)
    if errors or predicate is None:
        return errors
    return ResolvedFault(fault.id, predicate, tuple(effects), parse_duration(fault.recover_after))
