"""A run's figures per scene (docs/cli.md, "Run folders"): pass@1, pass@k, pass^k, each check's pass rate and
the mean score, computed here alone, from trials as saved (their outcome and check results).

pass@k and pass^k are given for k = the number of trials (`pass_at_k`, `pass_hat_k`) and, as unbiased
estimates from n trials of which c passed, for every k from 1 to n (`pass_at`, `pass_hat`, keyed by k):
pass@k = 1 - C(n-c, k) / C(n, k), the chance that k trials drawn from the n hold at least one pass, and
pass^k = C(c, k) / C(n, k), the chance that all k do (as tau-bench reports it). For k = n they are the
figures of the n trials themselves.

An `invalid` trial (a check could not be carried out, its agent could not be started, or soundstage itself
failed) says nothing of the agent: it is counted in `invalid` and left out of every rate, so n is the number of
the scene's other trials (`k`). A failed trial counts as not passing; a check that was not decided counts as not
passing. `mean_score` is the mean of the trials' scores (the weighted share of each one's checks), of those
that have one: an invalid trial has none, nor a trial of a version before scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, fsum
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, model_validator

from ..checks.results import CheckResult


class CheckFigures(BaseModel):
    """One check's figures in a scene: the trials where it passed, of those counted."""

    model_config = ConfigDict(defer_build=True)

    required: bool
    passed: int  # an undecided check (passed: null) does not count
    trials: int
    pass_rate: float | None  # passed / trials, rounded to 4 places


class SceneFigures(BaseModel):
    """One scene's figures. An `ungraded` scene (no checks) has none: every rate is None, `checks` empty."""

    model_config = ConfigDict(defer_build=True)

    scene: str
    status: Literal["graded", "ungraded"]
    trials: int
    invalid: int = 0  # left out of every rate; figures stored before they were left out have none
    passed: int | None
    k: int  # the trials counted: trials - invalid (the store keeps only those two)
    pass_at_1: float | None
    pass_at_k: float | None
    pass_hat_k: float | None
    pass_at: dict[str, float] | None  # keyed by k, from "1" to str(k)
    pass_hat: dict[str, float] | None
    mean_score: float | None = None  # rounded to 4 places; None: no trial has a score (stored before scores)
    checks: dict[str, CheckFigures]  # by check id, in the scene's order

    @model_validator(mode="before")
    @classmethod
    def _counted(cls, data: Any) -> Any:
        if isinstance(data, dict) and "k" not in data:
            data = {**data, "k": data["trials"] - (data.get("invalid") or 0)}
        return data


class Graded(Protocol):
    """What the figures read of a trial: a `Trial`, or a trial scored again (`soundstage check RUN`)."""

    @property
    def scene(self) -> str: ...

    @property
    def outcome(self) -> str: ...

    @property
    def score(self) -> float | None: ...

    @property
    def checks(self) -> list[CheckResult]: ...


def scene_figures(scene: str, trials: Sequence[Graded]) -> SceneFigures:
    """One scene's figures over its trials (k: how many were not invalid)."""
    counted = [trial for trial in trials if trial.outcome != "invalid"]
    k = len(counted)
    passed = sum(trial.outcome == "passed" for trial in counted)
    graded = any(trial.checks for trial in trials)
    checks: dict[str, CheckFigures] = {}
    for trial in counted:
        for check in trial.checks:
            entry = checks.setdefault(
                check.id, CheckFigures(required=check.required, passed=0, trials=0, pass_rate=None)
            )
            entry.trials += 1
            entry.passed += check.passed is True
    for entry in checks.values():
        entry.pass_rate = _rate(entry.passed, entry.trials)
    scores = [trial.score for trial in counted if trial.score is not None]
    return SceneFigures(
        scene=scene,
        status="graded" if graded else "ungraded",
        trials=len(trials),
        invalid=len(trials) - k,
        passed=passed if graded else None,
        k=k,
        pass_at_1=_rate(passed, k) if graded else None,
        pass_at_k=(1.0 if passed else 0.0) if graded and k else None,
        pass_hat_k=(1.0 if passed == k else 0.0) if graded and k else None,
        pass_at={str(j): _pass_at(k, passed, j) for j in range(1, k + 1)} if graded else None,
        pass_hat={str(j): _pass_hat(k, passed, j) for j in range(1, k + 1)} if graded else None,
        mean_score=round(fsum(scores) / len(scores), 4) if scores else None,
        checks=checks,
    )


def run_figures(trials: Sequence[Graded]) -> list[SceneFigures]:
    """Each scene's figures, scenes in the order their first trial comes."""
    scenes = list(dict.fromkeys(trial.scene for trial in trials))
    return [scene_figures(scene, [trial for trial in trials if trial.scene == scene]) for scene in scenes]


def _pass_at(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass@k from n trials of which c passed: 1 - C(n-c, k) / C(n, k)."""
    return round((comb(n, k) - comb(n - c, k)) / comb(n, k), 4)


def _pass_hat(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass^k from n trials of which c passed: C(c, k) / C(n, k)."""
    return round(comb(c, k) / comb(n, k), 4)


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None
