"""Checks: named pass/fail conditions evaluated on an attempt (docs/checks.md), with their results.

    checks = parse_checks(scene_checks, refs)          # validate once, refs resolved
    evaluation = evaluate(checks, attempt, pass_ids)   # any attempt
    evaluation = score(world)                          # a live world, by its scene's checks
    evaluation = rescore(trial_dir)                    # a saved trial, from its files
    watch_state_milestones(world, checks)              # a live world emits `milestone` events

A check kind is a function from an `Attempt` to an `Outcome`, registered with `@check_kind` (or
`@state_check` under `state:`) together with its pydantic argument model (see `soundstage.grading`).
This package holds the check language: the trace, output, people, milestone, judge and Python checks, parsing and
evaluating; the state checks are `soundstage.predicates`' and each service's. What a new check kind is
made of (`check_kind`, `Args`, `Attempt`, `Outcome`) is re-exported here. Running is separate from
scoring: results are saved as versioned models, and an `Evaluation` is computed from them.
"""

from __future__ import annotations

from .. import predicates  # noqa: F401 (the state checks: generic and each service's)
from ..grading import KINDS, STATE_CHECKS, Args, Attempt, CallPattern, Kind, Outcome, check_kind, state_check
from . import judge, output, people, python, trace  # noqa: F401 (each registers its check kinds)
from .evaluate import evaluate, rescore, run_check, saved_attempt, score, score_custom
from .milestones import state_predicates, watch_state_milestones
from .parse import Check, CheckSpecError, CheckSpecErrors, check_pass_list, parse_check, parse_check_list, parse_checks
from .results import RESULT_VERSION, CheckResult, Evaluation

__all__ = [
    "KINDS",
    "RESULT_VERSION",
    "STATE_CHECKS",
    "Args",
    "Attempt",
    "CallPattern",
    "Check",
    "CheckResult",
    "CheckSpecError",
    "CheckSpecErrors",
    "Evaluation",
    "Kind",
    "Outcome",
    "check_kind",
    "check_pass_list",
    "evaluate",
    "parse_check",
    "parse_check_list",
    "parse_checks",
    "rescore",
    "run_check",
    "saved_attempt",
    "score",
    "score_custom",
    "state_check",
    "state_predicates",
    "watch_state_milestones",
]
