"""What a check says as saved: `CheckResult` (docs/checks.md, "A check result") and `Evaluation`.

Results are versioned pydantic models so that `checks.json` files written by one version can be read by
the next; `RESULT_VERSION` changes when a field changes meaning. Version 2 added `score`; a version 1
result read back gets the score its `passed` implies. Version 3 added `weight`; an earlier result weighs 1, as
every check did.
"""

from __future__ import annotations

from math import fsum
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

RESULT_VERSION = 3


class CheckResult(BaseModel):
    """One check's result (docs/checks.md, "A check result"), plus the arguments it ran with."""

    id: str
    kind: str  # "trace", "output", "state:slack.message"...
    required: bool  # in the scene's `pass` list (every check when there is none)
    passed: bool | None  # None: could not be decided; never counts as a pass
    score: float | None = Field(None, ge=0.0, le=1.0)  # None exactly when passed is None
    weight: float = Field(1.0, ge=0.0)  # its share of the trial's score (weighted_score); 0: reported, not scored
    expected: str
    actual: str
    explanation: str
    evidence: list[int]  # seq of the log entries behind the result
    source: Literal["scene", "custom", "soundstage"]  # soundstage: its own (`files_unchanged`, results/trust.py)
    args: dict[str, Any] = {}
    invalid: bool = False
    version: int = RESULT_VERSION

    @model_validator(mode="after")
    def _scored(self) -> CheckResult:
        # Results written before scores existed (version 1), and checks that give no finer score: 1 or 0.
        if self.passed is None:
            self.score = None
        elif self.score is None:
            self.score = 1.0 if self.passed else 0.0
        return self


class Evaluation(BaseModel):
    """Every check of an attempt. It passes when every required check passed; `invalid` when any could not run;
    `score` is the weighted share of its checks (`weighted_score`)."""

    passed: bool
    invalid: bool
    score: float | None = None
    checks: list[CheckResult]
    version: int = RESULT_VERSION
    # What the saved trial scored again lacked (`rescore`: a last line cut short), for whoever shows the
    # evaluation to say; not part of the results saved or answered over HTTP.
    notes: list[str] = Field(default_factory=list, exclude=True)

    @classmethod
    def grade(cls, results: list[CheckResult], pass_ids: list[str] | None = None) -> Evaluation:
        """Grades results, fresh or read back from `checks.json`: the checks in `pass_ids` (default: all)
        are required."""
        if pass_ids is not None:
            required = set(pass_ids)
            results = [r.model_copy(update={"required": r.id in required}) for r in results]
        return cls(
            passed=all(r.passed is True for r in results if r.required),
            invalid=any(r.invalid for r in results),
            score=weighted_score(results),
            checks=results,
        )


def weighted_score(results: list[CheckResult]) -> float | None:
    """The weighted share of the checks that held: the sum of each check's score times its weight over the sum
    of the weights, rounded to 4 places. A check not decided (score null) counts 0, as it never passes; whether
    a check is required does not matter here (a failed required check fails the outcome, not more of the score).
    None, no score rather than a misleading one, when a check could not be carried out (the attempt's grade is
    `invalid`), when there is no check, or when every check weighs 0."""
    if any(r.invalid for r in results):
        return None
    total = fsum(r.weight for r in results)
    if total == 0:
        return None
    return round(fsum(r.weight * (r.score or 0.0) for r in results) / total, 4)
