"""Scoring a live world: its scene's checks, or others given later, over what happened so far."""

from __future__ import annotations

from typing import Any

from .checks import Attempt, Evaluation, evaluate, parse_checks
from .world import World


def score(world: World) -> Evaluation:
    """The scene's checks over the world as it is now."""
    return evaluate(world.checks, Attempt.from_world(world), world.pass_ids)


def score_custom(world: World, raw_checks: list[dict[str, Any]]) -> Evaluation:
    """Extra checks (`source: custom`), `$refs` resolved against the world; raises CheckSpecError."""
    checks = parse_checks(raw_checks, world.refs, source="custom")
    return evaluate(checks, Attempt.from_world(world))
