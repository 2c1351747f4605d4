"""A trial as it is saved (docs/cli.md, "Run folders"): `Trial` is what `result.json` holds, with the check
results of `checks.json` and the digests of its files as `run.json` and the results store keep them; and a
trial's outcome and score by its check results."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from ..checks.results import CheckResult, Evaluation, weighted_score
from ..grading.outcome import explain
from .version import VERSION, said

# The version that added a trial's score.
SCORED = 2

# passed | failed | invalid (a check could not be carried out, the agent could not be started, or soundstage
# itself failed: never the agent's failure) | ungraded (no checks)
Outcome = Literal["passed", "failed", "invalid", "ungraded"]


class Counts(BaseModel):
    """What a trial counts of its world's log."""

    model_config = ConfigDict(defer_build=True)

    calls: int
    events: int
    errors: int
    unimplemented: int
    after_finish: int = 0  # calls with the agent's token after the attempt ended; uncounted before version 1
    # The agent's model calls the interception proxy captured, the tokens their answers used, and those refused
    # at the run's token cap (`--max-tokens`): the trial hit its cap when there is one. A trial written before
    # soundstage captured model calls reads as having none, which is what it captured (no field changed meaning).
    model_calls: int = 0
    model_tokens: int = 0
    model_refused: int = 0


class Trial(BaseModel):
    """One trial: how its attempt ended, its outcome, its check results and the digests of its folder's files."""

    model_config = ConfigDict(defer_build=True)

    version: int = VERSION
    scene: str
    trial: int
    world: str
    outcome: Outcome
    # The weighted share of its checks, 0 to 1 (`score`); given by `outcome` and `checks` when not written. None:
    # no score (invalid, ungraded, every check weighing 0, or a trial of version 1).
    score: float | None = Field(default=None, ge=0.0, le=1.0)
    exit_code: int  # the agent's; negative: killed by that signal
    killed: bool = False  # soundstage killed the agent: it was still running when the attempt ended
    timed_out: bool
    finish_reason: str
    wall_seconds: float
    simulated_seconds: float
    counts: Counts
    # The required checks that did not pass; given by `checks` when not written (the store keeps none).
    failed_checks: list[str] = Field(default_factory=list)
    folder: str  # where it was written; "" for a trial of a run over HTTP
    attempts: int = 1  # more when it was run again after the machine running it died (runner_ray.py)
    sandbox: str | None = None  # what the agent ran in: bwrap | none; None: not recorded
    # What made it invalid, not the agent's doing, in one line: a failure of soundstage's own, or an agent command
    # that could not be started.
    infrastructure: str | None = None
    # Each file of its folder, by name: "sha256:<hex>" as graded. In run.json and the store, never in the folder
    # itself; None: not recorded (an earlier version's, or a trial the run never finished).
    digests: dict[str, str] | None = None
    checks: list[CheckResult] = Field(default_factory=list)  # checks.json's, or the store's under an evaluation

    @model_validator(mode="before")
    @classmethod
    def _version(cls, data: Any, info: ValidationInfo) -> Any:
        return said(data, info)

    @model_validator(mode="after")
    def _by_checks(self) -> Trial:
        if "failed_checks" not in self.model_fields_set:
            self.failed_checks = [check.id for check in self.checks if check.required and check.passed is not True]
        # A trial of version 1 was given no score, and has none; one of a later version made without it (in
        # code) gets the one its check results give.
        if "score" not in self.model_fields_set and self.version >= SCORED:
            self.score = score(self.checks, self.outcome)
        return self


def not_started(reason: str) -> CheckResult:
    """What a trial whose agent could not be started (`reason`) is graded by, by the run and by every re-scoring,
    instead of its scene's checks: it is `invalid`, left out of the figures, never the agent's failure."""
    expected = "the agent's command started"
    return unscored("agent_started", expected, reason, explain(None, [(expected, reason)]))


# What every check result of soundstage's own that stands for a trial's checks has: it could not be carried out.
_UNSCORED = {"kind": "integrity", "required": True, "passed": None, "evidence": [], "invalid": True}


def unscored(check: str, expected: str, actual: str, explanation: str) -> CheckResult:
    """A check of soundstage's own that could not be carried out, given a trial instead of its checks: the trial
    is `invalid`."""
    named = {"id": check, "expected": expected, "actual": actual, "explanation": explanation, "source": "soundstage"}
    return CheckResult.model_validate({**_UNSCORED, **named})


def outcome(checks: list[CheckResult]) -> Outcome:
    """A trial's outcome by its check results, as the runner grades a trial: `invalid` when one could not be
    carried out, `ungraded` when there are none, `passed` when every required check passed, else `failed`."""
    evaluation = Evaluation.grade(checks)
    if evaluation.invalid:
        return "invalid"
    if not checks:
        return "ungraded"
    return "passed" if evaluation.passed else "failed"


def score(checks: list[CheckResult], graded: Outcome) -> float | None:
    """A trial's score by its check results and outcome: the weighted share of its checks (`weighted_score`),
    None for an `invalid` trial (a failure of soundstage's own says nothing of the agent, whatever its checks
    say) and for one with no check."""
    return None if graded == "invalid" else weighted_score(checks)
