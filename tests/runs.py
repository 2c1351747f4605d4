"""Run folders as `soundstage run` writes them, made by hand: for the figures and `compare` tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from soundstage.checks import CheckResult
from soundstage.results import VERSION
from soundstage.results.trial import score


def said(passed: bool | None, required: bool = True, invalid: bool = False, id: str = "said") -> CheckResult:
    """A check result with nothing but its verdict to tell."""
    return CheckResult(
        id=id,
        kind="trace",
        required=required,
        passed=passed,
        expected="x",
        actual="y",
        explanation="z",
        evidence=[],
        source="scene",
        invalid=invalid,
    )


def check(id: str, passed: bool | None, required: bool = True) -> dict[str, Any]:
    return said(passed, required, id=id).model_dump(mode="json")


def write_run(folder: Path, trials: dict[str, list[dict[str, bool | None]]], optional: tuple[str, ...] = ()) -> Path:
    """`trials`: per scene, one `{check id: passed}` per trial; the ids in `optional` are not required. A
    trial with no checks is `ungraded`; a trial's score is the share of its checks that passed."""
    for scene, verdicts in trials.items():
        for number, checks in enumerate(verdicts, 1):
            trial = folder / scene / str(number)
            trial.mkdir(parents=True)
            results = [check(id, passed, id not in optional) for id, passed in checks.items()]
            failed = [r["id"] for r in results if r["required"] and r["passed"] is not True]
            outcome = "ungraded" if not results else "failed" if failed else "passed"
            result = {
                "version": VERSION,
                "scene": scene,
                "trial": number,
                "world": f"w{number}",
                "outcome": outcome,
                "score": score([CheckResult.model_validate(r) for r in results], outcome),
                "exit_code": 0,
                "killed": False,
                "timed_out": False,
                "finish_reason": "exited",
                "wall_seconds": 1.0,
                "simulated_seconds": 10.0,
                "counts": {"calls": 1, "events": 3, "errors": 0, "unimplemented": 0, "after_finish": 0},
                "failed_checks": failed,
                "folder": str(trial),
            }
            (trial / "result.json").write_text(json.dumps(result))
            (trial / "checks.json").write_text(json.dumps(results))
    return folder
