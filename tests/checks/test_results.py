"""Saved check results: the score every result carries, and results written by the version before scores."""

from __future__ import annotations

from soundstage.checks import RESULT_VERSION, CheckResult, Evaluation

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
    assert RESULT_VERSION == 2
    passed = CheckResult.model_validate({**V1, "passed": True})
    failed = CheckResult.model_validate({**V1, "passed": False})
    undecided = CheckResult.model_validate({**V1, "passed": None})
    assert [(r.score, r.version) for r in (passed, failed, undecided)] == [(1.0, 1), (0.0, 1), (None, 1)]
    assert Evaluation.score([passed, failed]).passed is False


def test_a_score_is_kept_and_null_exactly_when_undecided() -> None:
    kept = CheckResult.model_validate({**V1, "passed": True, "score": 0.75, "version": 2})
    undecided = CheckResult.model_validate({**V1, "passed": None, "score": 0.75, "version": 2})
    assert (kept.score, undecided.score) == (0.75, None)
    assert kept.model_dump(mode="json")["score"] == 0.75
