"""A run's figures per scene (pass@1, pass@k, pass^k, each check's pass rate) and the comparison of two runs
(docs/cli.md, "`soundstage compare`").

pass@k and pass^k are given for k = the number of trials (`pass_at_k`, `pass_hat_k`) and, as unbiased
estimates from n trials of which c passed, for every k from 1 to n (`pass_at`, `pass_hat`, keyed by k):
pass@k = 1 - C(n-c, k) / C(n, k), the chance that k trials drawn from the n hold at least one pass, and
pass^k = C(c, k) / C(n, k), the chance that all k do (as tau-bench reports it). For k = n they are the
figures of the n trials themselves.

The figures are computed from trials as saved: each trial's `result.json` and `checks.json`. An `invalid` trial
(a check could not be carried out, or soundstage itself failed) says nothing of the agent: it is counted in
`invalid` and left out of every rate, so n is the number of the scene's other trials (`k`). A failed trial counts
as not passing; a check that was not decided counts as not passing.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from .checks.results import CheckResult, Evaluation
from .errors import UsageError
from .folders import read_results

_CHECKS = TypeAdapter(list[CheckResult], config=ConfigDict(defer_build=True))  # built by the first run folder read


@dataclass
class Trial:
    """What the figures need of one trial."""

    scene: str
    trial: int
    outcome: str  # passed | failed | invalid | ungraded
    folder: str
    checks: list[CheckResult]


def scene_figures(scene: str, trials: list[Trial]) -> dict[str, Any]:
    """One scene's figures over its trials (k: how many were not invalid). A scene without checks is
    `ungraded`: no pass rates."""
    counted = [trial for trial in trials if trial.outcome != "invalid"]
    k = len(counted)
    passed = sum(trial.outcome == "passed" for trial in counted)
    graded = any(trial.checks for trial in trials)
    checks: dict[str, dict[str, Any]] = {}
    for trial in counted:
        for check in trial.checks:
            entry = checks.setdefault(check.id, {"required": check.required, "passed": 0, "trials": 0})
            entry["trials"] += 1
            entry["passed"] += check.passed is True
    for entry in checks.values():
        entry["pass_rate"] = _rate(entry["passed"], entry["trials"])
    return {
        "scene": scene,
        "status": "graded" if graded else "ungraded",
        "trials": len(trials),
        "invalid": len(trials) - k,
        "passed": passed if graded else None,
        "k": k,
        "pass_at_1": _rate(passed, k) if graded else None,
        "pass_at_k": (1.0 if passed else 0.0) if graded and k else None,
        "pass_hat_k": (1.0 if passed == k else 0.0) if graded and k else None,
        "pass_at": {str(j): _pass_at(k, passed, j) for j in range(1, k + 1)} if graded else None,
        "pass_hat": {str(j): _pass_hat(k, passed, j) for j in range(1, k + 1)} if graded else None,
        "checks": checks,
    }


def _pass_at(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass@k from n trials of which c passed: 1 - C(n-c, k) / C(n, k)."""
    return round((comb(n, k) - comb(n - c, k)) / comb(n, k), 4)


def _pass_hat(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass^k from n trials of which c passed: C(c, k) / C(n, k)."""
    return round(comb(c, k) / comb(n, k), 4)


def outcome(checks: list[CheckResult]) -> str:
    """A trial's outcome by its check results, as the runner grades a trial: `invalid` when one could not
    run, `ungraded` when there are none, `passed` when every required check passed, else `failed`."""
    evaluation = Evaluation.score(checks)
    if evaluation.invalid:
        return "invalid"
    if not checks:
        return "ungraded"
    return "passed" if evaluation.passed else "failed"


def run_figures(trials: list[Trial]) -> list[dict[str, Any]]:
    """Each scene's figures, scenes in the order their first trial comes."""
    scenes = list(dict.fromkeys(trial.scene for trial in trials))
    return [scene_figures(scene, [trial for trial in trials if trial.scene == scene]) for scene in scenes]


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def read_trials(run: Path) -> list[Trial]:
    """The trials of a run folder that ended (`<scene>/<trial>/result.json`), by scene and trial number. A
    trial the run never finished (no result.json) has no outcome and is left out."""
    trials = []
    for folder, result, checks in read_results(run):
        try:
            parsed = _CHECKS.validate_python(checks)
        except ValidationError as exc:
            message = exc.errors()[0]["msg"]
            raise UsageError(f"{folder / 'checks.json'}: not a checks.json soundstage writes: {message}") from None
        trials.append(Trial(str(result["scene"]), result["trial"], str(result.get("outcome", "")), str(folder), parsed))
    return trials


def compare_runs(a: Path, b: Path) -> dict[str, Any]:
    """Run folder B against run folder A (`compare_trials`)."""
    return compare_trials(read_trials(a), read_trials(b), str(a), str(b))


def compare_trials(trials_a: list[Trial], trials_b: list[Trial], a: str, b: str) -> dict[str, Any]:
    """Run B against run A, per scene and per check: pass rates in each, what got better and what worse with
    the trials behind each change (their folders, and their numbers in `trial_numbers`), and whether B
    regressed (a required check's pass rate fell, or a scene whose trials all passed in A has a trial in B
    that did not pass)."""
    figures_a = {f["scene"]: f for f in run_figures(trials_a)}
    figures_b = {f["scene"]: f for f in run_figures(trials_b)}
    scenes, better, worse = [], [], []
    for scene in dict.fromkeys([*figures_a, *figures_b]):
        fa, fb = figures_a.get(scene), figures_b.get(scene)
        entry: dict[str, Any] = {"scene": scene, "a": _brief(fa), "b": _brief(fb), "checks": []}
        scenes.append(entry)
        if fa is None or fb is None:
            continue
        in_a = [t for t in trials_a if t.scene == scene]
        in_b = [t for t in trials_b if t.scene == scene]
        if fa["status"] == "graded" and fa["passed"] == fa["trials"]:
            failing = [t for t in in_b if t.outcome in ("failed", "invalid")]
            if failing:
                worse.append(
                    {
                        "scene": scene,
                        "check": None,
                        "a": fa["pass_at_1"],
                        "b": fb["pass_at_1"],
                        "regression": True,
                        **_behind(failing),
                        "why": "every trial passed in A; these trials of B did not",
                    }
                )
        for check in dict.fromkeys([*fa["checks"], *fb["checks"]]):
            ca, cb = fa["checks"].get(check), fb["checks"].get(check)
            rate_a = ca["pass_rate"] if ca else None
            rate_b = cb["pass_rate"] if cb else None
            required = bool((cb or ca or {}).get("required"))
            entry["checks"].append({"id": check, "required": required, "a": rate_a, "b": rate_b})
            if rate_a is None or rate_b is None or rate_a == rate_b:
                continue
            change = {"scene": scene, "check": check, "a": rate_a, "b": rate_b, "required": required}
            if rate_b < rate_a:
                failing = [t for t in in_b if not _passed(t, check)]
                worse.append(
                    {**change, "regression": required, **_behind(failing), "why": "these trials of B did not pass it"}
                )
            else:
                failing = [t for t in in_a if not _passed(t, check)]
                better.append({**change, **_behind(failing), "why": "these trials of A did not pass it"})
    return {
        "a": a,
        "b": b,
        "regressed": any(change["regression"] for change in worse),
        "scenes": scenes,
        "better": better,
        "worse": worse,
    }


def _behind(trials: list[Trial]) -> dict[str, list[Any]]:
    """The trials behind a change: their folders and their numbers."""
    return {"trials": [t.folder for t in trials], "trial_numbers": [t.trial for t in trials]}


def _passed(trial: Trial, check: str) -> bool:
    return any(result.id == check and result.passed is True for result in trial.checks)


def _brief(figures: dict[str, Any] | None) -> dict[str, Any] | None:
    """A scene's figures without its checks (the comparison lists those side by side)."""
    if figures is None:
        return None
    return {key: value for key, value in figures.items() if key not in ("scene", "checks")}
