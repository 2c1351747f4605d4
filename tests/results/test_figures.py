"""A run's figures per scene (results/figures.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.runs import said, write_run

from soundstage.checks import CheckResult
from soundstage.results import SceneFigures, read_run, run_figures, scene_figures


@dataclass
class Graded:
    """What the figures read of a trial."""

    scene: str
    outcome: str
    checks: list[CheckResult]
    score: float | None = None


def test_figures_per_scene(tmp_path: Path) -> None:
    run = write_run(
        tmp_path / "a",
        {
            "deploy": [{"posted": True, "fast": True}, {"posted": False, "fast": True}, {"posted": True, "fast": None}],
            "greet": [{"said": True}, {"said": True}],
            "plain": [{}, {}],
        },
        optional=("fast",),
    )

    deploy, greet, plain = (figures.model_dump(mode="json") for figures in run_figures(read_run(run).results))

    # pass@1 is the share of trials that passed, pass@k whether one of the k did, pass^k whether all k did.
    assert deploy == {
        "scene": "deploy",
        "status": "graded",
        "trials": 3,
        "invalid": 0,
        "passed": 2,
        "k": 3,
        "pass_at_1": 0.6667,
        "pass_at_k": 1.0,
        "pass_hat_k": 0.0,
        "pass_at": {"1": 0.6667, "2": 1.0, "3": 1.0},
        "pass_hat": {"1": 0.6667, "2": 0.3333, "3": 0.0},
        "mean_score": 0.6667,  # 1, 0.5 and 0.5: each trial's share of its two checks
        "checks": {
            "posted": {"required": True, "passed": 2, "trials": 3, "pass_rate": 0.6667},
            "fast": {"required": False, "passed": 2, "trials": 3, "pass_rate": 0.6667},  # undecided: not a pass
        },
    }
    assert (greet["passed"], greet["pass_at_1"], greet["pass_at_k"], greet["pass_hat_k"]) == (2, 1.0, 1.0, 1.0)
    assert greet["mean_score"] == 1.0
    assert plain == {
        "scene": "plain",
        "status": "ungraded",
        "trials": 2,
        "invalid": 0,
        "passed": None,
        "k": 2,
        "pass_at_1": None,
        "pass_at_k": None,
        "pass_hat_k": None,
        "pass_at": None,
        "pass_hat": None,
        "mean_score": None,
        "checks": {},
    }


def trials(n: int, c: int) -> list[Graded]:
    """n trials of one scene, the first c passed."""
    return [
        Graded("s", "passed" if number <= c else "failed", [said(number <= c)], float(number <= c))
        for number in range(1, n + 1)
    ]


def test_pass_at_k_and_pass_hat_k_are_estimated_for_every_k() -> None:
    figures = scene_figures("s", trials(5, 2))

    # pass@k = 1 - C(3, k) / C(5, k); pass^k = C(2, k) / C(5, k).
    assert figures.pass_at == {"1": 0.4, "2": 0.7, "3": 0.9, "4": 1.0, "5": 1.0}
    assert figures.pass_hat == {"1": 0.4, "2": 0.1, "3": 0.0, "4": 0.0, "5": 0.0}
    assert (figures.pass_at_1, figures.pass_at_k, figures.pass_hat_k) == (0.4, 1.0, 0.0)


@pytest.mark.parametrize(
    ("n", "c", "pass_at", "pass_hat"),
    [
        (4, 0, [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]),
        (4, 4, [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]),
        (4, 3, [0.75, 1.0, 1.0, 1.0], [0.75, 0.5, 0.25, 0.0]),
        (1, 1, [1.0], [1.0]),
    ],
)
def test_the_estimates_for_k_n_are_the_figures_of_the_n_trials(
    n: int, c: int, pass_at: list[float], pass_hat: list[float]
) -> None:
    figures = scene_figures("s", trials(n, c))

    assert figures.pass_at is not None and figures.pass_hat is not None
    assert list(figures.pass_at.values()) == pass_at
    assert list(figures.pass_hat.values()) == pass_hat
    assert (figures.pass_at[str(n)], figures.pass_hat[str(n)]) == (figures.pass_at_k, figures.pass_hat_k)


def test_figures_stored_before_they_said_k_or_invalid_trials_read_with_them() -> None:
    stored = {"scene": "s", "status": "graded", "trials": 3, "passed": 1, "pass_at_1": 0.3333, "pass_at_k": 1.0}
    stored |= {"pass_hat_k": 0.0, "pass_at": None, "pass_hat": None, "checks": {}}

    figures = SceneFigures.model_validate(stored)

    assert (figures.invalid, figures.k) == (0, 3)
    assert SceneFigures.model_validate({**stored, "invalid": 1}).k == 2


def test_the_mean_score_is_of_the_trials_that_have_one_invalid_ones_left_out() -> None:
    graded = [
        Graded("s", "failed", [said(False)], 0.25),
        Graded("s", "passed", [said(True)], 1.0),
        Graded("s", "passed", [said(True)], 0.6),
        Graded("s", "invalid", [said(None, invalid=True)], None),
        Graded("s", "failed", [said(False)], None),  # of a version before scores
    ]

    figures = scene_figures("s", graded)

    assert (figures.mean_score, figures.k, figures.pass_at_1) == (round(1.85 / 3, 4), 4, 0.5)
    assert scene_figures("s", graded[3:]).mean_score is None


def test_figures_stored_before_scores_have_no_mean_score() -> None:
    stored = {"scene": "s", "status": "graded", "trials": 1, "passed": 1, "pass_at_1": 1.0, "pass_at_k": 1.0}
    stored |= {"pass_hat_k": 1.0, "pass_at": None, "pass_hat": None, "checks": {}}

    assert SceneFigures.model_validate(stored).mean_score is None
