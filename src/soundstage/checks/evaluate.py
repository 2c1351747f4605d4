"""Running checks on an attempt, then scoring the results. A check that raises never stops the others."""

from __future__ import annotations

from .attempt import Attempt
from .parse import Check, check_pass_list
from .results import EVIDENCE_LIMIT, CheckResult, Evaluation, Outcome, explain


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
