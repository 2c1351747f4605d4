"""Two runs compared (results/compare.py): what got better and worse, the trials behind it, and whether B
regressed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runs import write_run

from soundstage.results import compare_runs


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
    # Each scene's mean score that changed, with the trials of the lower run that scored below the other's mean.
    assert comparison["scores"] == [
        {
            "scene": "deploy",
            "a": 0.75,
            "b": 0.25,
            "change": -0.5,
            "trials": [str(b / "deploy" / "1"), str(b / "deploy" / "2")],
            "trial_numbers": [1, 2],
            "why": "these trials of B scored below A's mean",
        },
        {
            "scene": "greet",
            "a": 0.0,
            "b": 1.0,
            "change": 1.0,
            "trials": [str(a / "greet" / "1")],
            "trial_numbers": [1],
            "why": "these trials of A scored below B's mean",
        },
    ]
    deploy = comparison["scenes"][0]
    assert (deploy["a"]["mean_score"], deploy["b"]["mean_score"]) == (0.75, 0.25)
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


def test_a_score_that_fell_alone_is_no_regression_and_no_score_is_no_change(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {"deploy": [{"posted": True, "fast": True}]}, ("fast",))
    b = write_run(
        tmp_path / "b", {"deploy": [{"posted": True, "fast": True}, {"posted": True, "fast": False}]}, ("fast",)
    )
    # A trial of a version before scores has none: its scene's mean is of the trials that have one.
    old = tmp_path / "b" / "deploy" / "2" / "result.json"
    old.write_text(json.dumps({k: v for k, v in json.loads(old.read_text()).items() if k not in ("version", "score")}))

    same = compare_runs(a, b)
    assert (same["scores"], same["scenes"][0]["b"]["mean_score"]) == ([], 1.0)

    c = write_run(tmp_path / "c", {"deploy": [{"posted": True, "fast": False}]}, ("fast",))
    fell = compare_runs(a, c)
    assert fell["regressed"] is False  # the required check still passes: a lower score is said, not a regression
    assert [(s["scene"], s["a"], s["b"], s["trial_numbers"]) for s in fell["scores"]] == [("deploy", 1.0, 0.5, [1])]
