"""Running checks on an attempt, then scoring the results. A check that raises never stops the others.

evaluate(checks, attempt, pass_ids)    # any attempt
score(world)                           # a live world, by its scene's checks
rescore(trial_dir)                     # a saved trial, from its files
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import SpecError
from ..grading.attempt import Attempt
from ..grading.outcome import EVIDENCE_LIMIT, Outcome, explain
from ..world import World
from .milestones import state_predicates
from .parse import Check, check_pass_list, parse_checks
from .results import CheckResult, Evaluation


def evaluate(checks: list[Check], attempt: Attempt, pass_ids: list[str] | None = None) -> Evaluation:
    """Every check's result; the attempt passes when every check in `pass_ids` (default: all) passed."""
    check_pass_list(pass_ids, checks)
    return Evaluation.score([run_check(c, attempt) for c in checks], pass_ids)


def run_check(check: Check, attempt: Attempt) -> CheckResult:
    try:
        outcome = check.run(attempt)
    except Exception as exc:  # a bug in one check must not lose the others' results
        outcome = Outcome(None, f"the {check.kind.name} check to run", f"it raised {type(exc).__name__}: {exc}")
    return CheckResult(
        id=check.id,
        kind=check.kind.name,
        required=True,
        passed=outcome.passed,
        expected=outcome.expected,
        actual=outcome.actual,
        explanation=outcome.explanation or explain(outcome.passed, [(outcome.expected, outcome.actual)]),
        evidence=sorted(set(outcome.evidence))[:EVIDENCE_LIMIT],
        source=check.source,
        args=check.spec,
        invalid=outcome.invalid,
    )


def score(world: World) -> Evaluation:
    """The scene's checks over the live world as it is now."""
    return evaluate(world.checks, Attempt.from_world(world), world.pass_ids)


def score_custom(world: World, raw_checks: list[dict[str, Any]]) -> Evaluation:
    """Extra checks (`source: custom`), `$refs` resolved against the world; raises CheckSpecError."""
    checks = parse_checks(raw_checks, world.refs, source="custom")
    return evaluate(checks, Attempt.from_world(world))


def saved_attempt(trial_dir: Path) -> tuple[Attempt, list[Check] | None]:
    """A saved trial and its scene's checks (None when they no longer parse). The trial's world watched the
    state milestones of those checks, so the attempt knows which were watched."""
    attempt = Attempt.load(trial_dir)
    try:
        checks = parse_checks(attempt.checks, attempt.refs)
    except SpecError:
        return attempt, None
    attempt.watched = frozenset(p.key for p in state_predicates(checks))
    return attempt, checks


def rescore(trial_dir: Path, raw_checks: list[dict[str, Any]] | None = None) -> Evaluation:
    """A saved trial scored again: by its scene's checks, or by `raw_checks` (`source: custom`)."""
    attempt, checks = saved_attempt(trial_dir)
    if raw_checks is not None:
        return evaluate(parse_checks(raw_checks, attempt.refs, source="custom"), attempt)
    return evaluate(
        checks if checks is not None else parse_checks(attempt.checks, attempt.refs), attempt, attempt.pass_ids
    )
