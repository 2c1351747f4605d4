"""Checks: named pass/fail conditions evaluated on an attempt (DESIGN 3.3), with results (DESIGN 2.6).

    checks = parse_checks(scene_checks, refs)          # validate once, refs resolved
    evaluation = evaluate(checks, Attempt.from_world(world), pass_ids)
    evaluation = evaluate(checks, Attempt.load(trial_dir))   # re-score a saved trial
    watch_state_milestones(world, checks)              # a live world emits `milestone` events
    state_holds(world, {"slack.message": {...}})       # a state predicate, on the live world now

A check kind is a function from an `Attempt` to an `Outcome`, registered with `@check_kind` (or
`@state_check` under `state:`) together with its pydantic argument model. Running is separate from
scoring: results are saved as versioned models, and an `Evaluation` is computed from them.
"""

from .attempt import Attempt
from .evaluate import evaluate, run_check
from .milestones import milestone_key, state_holds, state_milestones, watch_state_milestones
from .parse import Check, CheckSpecError, check_pass_list, parse_checks
from .patterns import CallPattern
from .process import StatePredicate, parse_state_predicate
from .registry import KINDS, STATE_CHECKS, Args, Kind, check_kind, load_kinds, state_check
from .results import RESULT_VERSION, CheckResult, Evaluation, Outcome

load_kinds()

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
    "Evaluation",
    "Kind",
    "Outcome",
    "StatePredicate",
    "check_kind",
    "check_pass_list",
    "evaluate",
    "milestone_key",
    "parse_checks",
    "parse_state_predicate",
    "run_check",
    "state_check",
    "state_holds",
    "state_milestones",
    "watch_state_milestones",
]
