"""Saved check results: the score and weight every result carries, results written by the versions before
them, and an evaluation's score: the weighted share of its checks."""

from __future__ import annotations

import pytest
from tests.runs import said

from soundstage.checks import RESULT_VERSION, CheckResult, Evaluation
from soundstage.checks.results import weighted_score

V1 = {
    "id": "posted",
    "kind": "trace",
    "required": True,
    "expected": "a call",
    "actual": "none",
    "explanation": "Failed.",
    "evidence": [],
    "source": "scene",
    "args": {},
    "invalid": False,
    "version": 1,
}


def test_a_version_1_result_gets_the_score_its_verdict_implies() -> None:
    assert RESULT_VERSION == 3
    passed = CheckResult.model_validate({**V1, "passed": True})
    failed = CheckResult.model_validate({**V1, "passed": False})
    undecided = CheckResult.model_validate({**V1, "passed": None})
    assert [(r.score, r.version) for r in (passed, failed, undecided)] == [(1.0, 1), (0.0, 1), (None, 1)]
    assert Evaluation.grade([passed, failed]).passed is False


def test_a_score_is_kept_and_null_exactly_when_undecided() -> None:
    kept = CheckResult.model_validate({**V1, "passed": True, "score": 0.75, "version": 2})
    undecided = CheckResult.model_validate({**V1, "passed": None, "score": 0.75, "version": 2})
    assert (kept.score, undecided.score) == (0.75, None)
    assert kept.model_dump(mode="json")["score"] == 0.75


def test_a_result_of_version_2_weighs_1() -> None:
    earlier = CheckResult.model_validate({**V1, "passed": True, "score": 1.0, "version": 2})
    assert (earlier.weight, earlier.version) == (1.0, 2)


def weighed(
    passed: bool | None,
    weight: float,
    score: float | None = None,
    required: bool = True,
    invalid: bool = False,
    id: str = "said",
) -> CheckResult:
    """A check result of that weight (and score, other than its verdict's)."""
    result = said(passed, required, invalid, id)
    return result.model_copy(update={"weight": weight, **({"score": score} if score is not None else {})})


def test_the_score_is_the_weighted_share_of_the_checks() -> None:
    # 3 of 4 + 0 of 1 + 0.5 (a similarity) of 2, over 7; a check of weight 0 is reported, not scored.
    results = [weighed(True, 3), weighed(False, 1), weighed(True, 2, score=0.5, id="similar"), weighed(False, 0)]
    assert weighted_score(results) == round(4 / 6, 4) == 0.6667
    evaluation = Evaluation.grade(results)
    assert (evaluation.passed, evaluation.score) == (False, 0.6667)
    assert Evaluation.grade([weighed(True, 1), weighed(True, 5)]).score == 1.0


def test_a_failed_required_check_fails_the_attempt_and_still_gives_its_share() -> None:
    results = [weighed(False, 1, id="required"), weighed(True, 3, required=False, id="optional")]
    evaluation = Evaluation.grade(results)
    assert (evaluation.passed, evaluation.score) == (False, 0.75)
    # Which checks are required changes the outcome, never the score.
    again = Evaluation.grade(results, ["optional"])
    assert (again.passed, again.score) == (True, 0.75)


def test_an_undecided_check_counts_0_and_an_invalid_one_leaves_no_score() -> None:
    assert Evaluation.grade([weighed(True, 1), weighed(None, 1, id="judge")]).score == 0.5
    invalid = Evaluation.grade([weighed(True, 1), weighed(None, 1, invalid=True, id="judge")])
    assert (invalid.invalid, invalid.score) == (True, None)


@pytest.mark.parametrize("results", [[], [weighed(True, 0), weighed(False, 0, id="other")]])
def test_no_check_or_no_weight_gives_no_score(results: list[CheckResult]) -> None:
    assert Evaluation.grade(results).score is None


def test_a_negative_weight_is_no_result() -> None:
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        CheckResult.model_validate({**V1, "passed": True, "weight": -1})
