"""A run's figures per scene, and the comparison of two runs (figures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.runs import write_run

from soundstage.checks import CheckResult
from soundstage.errors import NotFound
from soundstage.figures import Trial, compare_runs, outcome, read_trials, run_figures, scene_figures


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

    deploy, greet, plain = run_figures(read_trials(run))

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
        "checks": {
            "posted": {"required": True, "passed": 2, "trials": 3, "pass_rate": 0.6667},
            "fast": {"required": False, "passed": 2, "trials": 3, "pass_rate": 0.6667},  # undecided: not a pass
        },
    }
    assert (greet["passed"], greet["pass_at_1"], greet["pass_at_k"], greet["pass_hat_k"]) == (2, 1.0, 1.0, 1.0)
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
        "checks": {},
    }


def trials(n: int, c: int) -> list[Trial]:
    """n trials of one scene, the first c passed."""
    return [
        Trial("s", number, "passed" if number <= c else "failed", "", [said(number <= c)]) for number in range(1, n + 1)
    ]


def said(passed: bool | None, required: bool = True, invalid: bool = False) -> CheckResult:
    return CheckResult(
        id="said",
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


def test_pass_at_k_and_pass_hat_k_are_estimated_for_every_k() -> None:
    figures = scene_figures("s", trials(5, 2))

    # pass@k = 1 - C(3, k) / C(5, k); pass^k = C(2, k) / C(5, k).
    assert figures["pass_at"] == {"1": 0.4, "2": 0.7, "3": 0.9, "4": 1.0, "5": 1.0}
    assert figures["pass_hat"] == {"1": 0.4, "2": 0.1, "3": 0.0, "4": 0.0, "5": 0.0}
    assert (figures["pass_at_1"], figures["pass_at_k"], figures["pass_hat_k"]) == (0.4, 1.0, 0.0)


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

    assert list(figures["pass_at"].values()) == pass_at
    assert list(figures["pass_hat"].values()) == pass_hat
    assert (figures["pass_at"][str(n)], figures["pass_hat"][str(n)]) == (figures["pass_at_k"], figures["pass_hat_k"])


def test_a_trials_outcome_by_its_check_results() -> None:
    assert outcome([said(True), said(False, required=False)]) == "passed"
    assert outcome([said(True), said(None)]) == "failed"
    assert outcome([said(True, invalid=True)]) == "invalid"
    assert outcome([]) == "ungraded"


def test_a_run_with_no_finished_trial_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="not a run folder with finished trials"):
        read_trials(tmp_path)
    with pytest.raises(NotFound, match="no such run folder"):
        read_trials(tmp_path / "nowhere")


def test_compare_names_what_got_better_and_worse_and_the_trials_behind_it(tmp_path: Path) -> None:
    a = write_run(
        tmp_path / "a",
        {"deploy": [{"posted": True, "fast": True}, {"posted": True, "fast": False}], "greet": [{"said": False}]},
        optional=("fast",),
    )
    b = write_run(
        tmp_path / "b",
        {"deploy": [{"posted": True, "fast": False}, {"posted": False, "fast": False}], "greet": [{"said": True}]},
        optional=("fast",),
    )

    comparison = compare_runs(a, b)

    assert comparison["regressed"] is True
    assert comparison["worse"] == [
        {
            "scene": "deploy",
            "check": None,
            "a": 1.0,
            "b": 0.5,
            "regression": True,
            "trials": [str(b / "deploy" / "2")],
            "trial_numbers": [2],
            "why": "every trial passed in A; these trials of B did not",
        },
        {
            "scene": "deploy",
            "check": "posted",
            "a": 1.0,
            "b": 0.5,
            "required": True,
            "regression": True,
            "trials": [str(b / "deploy" / "2")],
            "trial_numbers": [2],
            "why": "these trials of B did not pass it",
        },
        {
            "scene": "deploy",
            "check": "fast",
            "a": 0.5,
            "b": 0.0,
            "required": False,
            "regression": False,  # not required: worse, but no regression
            "trials": [str(b / "deploy" / "1"), str(b / "deploy" / "2")],
            "trial_numbers": [1, 2],
            "why": "these trials of B did not pass it",
        },
    ]
    assert comparison["better"] == [
        {
            "scene": "greet",
            "check": "said",
            "a": 0.0,
            "b": 1.0,
            "required": True,
            "trials": [str(a / "greet" / "1")],
            "trial_numbers": [1],
            "why": "these trials of A did not pass it",
        }
    ]
    deploy = comparison["scenes"][0]
    assert deploy["checks"] == [
        {"id": "posted", "required": True, "a": 1.0, "b": 0.5},
        {"id": "fast", "required": False, "a": 0.5, "b": 0.0},
    ]
    assert (deploy["a"]["passed"], deploy["b"]["passed"], deploy["b"]["pass_hat_k"]) == (2, 1, 0.0)


def test_only_a_fall_in_a_non_required_check_is_no_regression(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {"deploy": [{"posted": True, "fast": True}], "new": [{"x": True}]}, ("fast",))
    b = write_run(tmp_path / "b", {"deploy": [{"posted": True, "fast": False}], "plain": [{}]}, ("fast",))

    comparison = compare_runs(a, b)

    assert comparison["regressed"] is False
    assert [(w["check"], w["regression"]) for w in comparison["worse"]] == [("fast", False)]
    # A scene in one run only is listed, with nothing to compare.
    assert [(s["scene"], s["a"] is None, s["b"] is None) for s in comparison["scenes"]] == [
        ("deploy", False, False),
        ("new", False, True),
        ("plain", True, False),
    ]
