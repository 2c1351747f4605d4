"""Comparing two runs (docs/cli.md, "`soundstage compare`"): per scene and per check, pass rates in each, what
got better and what worse with the trials behind each change, each scene's mean score that changed, and whether
B regressed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .figures import SceneFigures, run_figures
from .folders import read_run
from .trial import Trial


def compare_runs(a: Path, b: Path) -> dict[str, Any]:
    """Run folder B against run folder A (`compare_trials`), from their trials that ended."""
    return compare_trials(read_run(a).results, read_run(b).results, str(a), str(b))


def compare_trials(trials_a: list[Trial], trials_b: list[Trial], a: str, b: str) -> dict[str, Any]:
    """Run B against run A, per scene and per check: pass rates in each, what got better and what worse with
    the trials behind each change (their folders, or worlds for a run over HTTP, and their numbers in
    `trial_numbers`), each scene's mean score that changed (`scores`, with the trials behind the change), and
    whether B regressed (a required check's pass rate fell, or a scene whose trials all passed in A has a trial in
    B that did not pass; a score that fell is no regression by itself: what it weighs is said by the checks)."""
    figures_a = {f.scene: f for f in run_figures(trials_a)}
    figures_b = {f.scene: f for f in run_figures(trials_b)}
    scenes, better, worse, scores = [], [], [], []
    for scene in dict.fromkeys([*figures_a, *figures_b]):
        fa, fb = figures_a.get(scene), figures_b.get(scene)
        entry: dict[str, Any] = {"scene": scene, "a": _brief(fa), "b": _brief(fb), "checks": []}
        scenes.append(entry)
        if fa is None or fb is None:
            continue
        in_a = [t for t in trials_a if t.scene == scene]
        in_b = [t for t in trials_b if t.scene == scene]
        if fa.mean_score is not None and fb.mean_score is not None and fa.mean_score != fb.mean_score:
            scores.append(_score_change(scene, fa.mean_score, fb.mean_score, in_a, in_b))
        if fa.status == "graded" and fa.passed == fa.trials:
            failing = [t for t in in_b if t.outcome in ("failed", "invalid")]
            if failing:
                worse.append(
                    {
                        "scene": scene,
                        "check": None,
                        "a": fa.pass_at_1,
                        "b": fb.pass_at_1,
                        "regression": True,
                        **_behind(failing),
                        "why": "every trial passed in A; these trials of B did not",
                    }
                )
        for check in dict.fromkeys([*fa.checks, *fb.checks]):
            ca, cb = fa.checks.get(check), fb.checks.get(check)
            rate_a = ca.pass_rate if ca else None
            rate_b = cb.pass_rate if cb else None
            required = cb.required if cb is not None else fa.checks[check].required  # B's, when B has it
            entry["checks"].append({"id": check, "required": required, "a": rate_a, "b": rate_b})
            if rate_a is None or rate_b is None or rate_a == rate_b:
                continue
            change: dict[str, Any] = {"scene": scene, "check": check, "a": rate_a, "b": rate_b, "required": required}
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
        "scores": scores,
    }


def _score_change(scene: str, a: float, b: float, in_a: list[Trial], in_b: list[Trial]) -> dict[str, Any]:
    """A scene's mean score that changed from A to B, and the trials behind the change: those of the lower run
    that scored below the other's mean."""
    fell = b < a
    lower, other, run = (in_b, a, "B") if fell else (in_a, b, "A")
    behind = [t for t in lower if t.score is not None and t.score < other]
    why = f"these trials of {run} scored below {'A' if fell else 'B'}'s mean"
    return {"scene": scene, "a": a, "b": b, "change": round(b - a, 4), **_behind(behind), "why": why}


def _behind(trials: list[Trial]) -> dict[str, list[Any]]:
    """The trials behind a change: their folders (worlds, for a run over HTTP) and their numbers."""
    return {"trials": [t.folder or t.world for t in trials], "trial_numbers": [t.trial for t in trials]}


def _passed(trial: Trial, check: str) -> bool:
    return any(result.id == check and result.passed is True for result in trial.checks)


def _brief(figures: SceneFigures | None) -> dict[str, Any] | None:
    """A scene's figures without its checks (the comparison lists those side by side)."""
    return figures.model_dump(mode="json", exclude={"scene", "checks"}) if figures is not None else None
