"""The evaluator: required checks, null never passing, a raising check, re-scoring saved results."""

from __future__ import annotations

import json

import pytest

from soundstage.checks import Args, Attempt, Check, CheckSpecError, Evaluation, Kind, Outcome, evaluate, parse_checks


@pytest.fixture
def attempt(log) -> Attempt:
    log.call("POST", "/api/chat.postMessage")  # 2
    log.call("GET", "/repos/acme/orders", service="github", status=404, error=True)  # 3
    return Attempt(log.events, output="done")


def checks():
    return parse_checks(
        [
            {"id": "posted", "trace": {"called": "POST /api/chat.postMessage"}},
            {"id": "clean", "trace": {"no_errors": True}},
            {"id": "judged", "judge": "It was polite."},
        ],
        {},
    )


def test_every_check_is_required_by_default(attempt, monkeypatch):
    for name in ("OPENROUTER_API_KEY", "SOUNDSTAGE_JUDGE_URL"):
        monkeypatch.delenv(name, raising=False)
    evaluation = evaluate(checks(), attempt)
    assert [(r.id, r.required, r.passed) for r in evaluation.checks] == [
        ("posted", True, True),
        ("clean", True, False),
        ("judged", True, None),
    ]
    assert (evaluation.passed, evaluation.invalid) == (False, False)


def test_the_pass_list_names_the_required_checks(attempt, monkeypatch):
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_JUDGE_URL", raising=False)
    evaluation = evaluate(checks(), attempt, ["posted"])
    assert [(r.id, r.required) for r in evaluation.checks] == [("posted", True), ("clean", False), ("judged", False)]
    assert evaluation.passed is True
    assert evaluate(checks(), attempt, []).passed is True
    assert evaluate(checks(), attempt, ["posted", "judged"]).passed is False  # a null never passes


def test_an_unknown_pass_id_is_an_error(attempt):
    with pytest.raises(CheckSpecError, match="no check has the id 'answered'"):
        evaluate(checks(), attempt, ["answered"])


def test_a_check_that_raises_is_undecided_and_the_others_still_run(attempt):
    def broken(args: Args, attempt: Attempt) -> Outcome:
        raise KeyError("channel")

    boom = Check(id="boom", kind=Kind("boom", Args, broken), args=Args(), spec={})
    evaluation = evaluate([boom, *checks()[:1]], attempt)
    first = evaluation.checks[0]
    assert (first.passed, first.kind, first.evidence) == (None, "boom", [])
    assert (first.expected, first.actual) == ("the boom check to run", "it raised KeyError: 'channel'")
    assert first.explanation == "Not decided: expected the boom check to run, but it raised KeyError: 'channel'."
    assert evaluation.checks[1].passed is True
    assert evaluation.passed is False


def test_an_invalid_check_makes_the_evaluation_invalid(attempt):
    def unreachable(args: Args, attempt: Attempt) -> Outcome:
        return Outcome(None, "a verdict", "the model could not be reached", invalid=True)

    check = Check(id="j", kind=Kind("judge", Args, unreachable), args=Args(), spec={})
    evaluation = evaluate([check], attempt)
    assert (evaluation.passed, evaluation.invalid, evaluation.checks[0].invalid) == (False, True, True)


def test_evidence_is_sorted_unique_and_capped(attempt):
    def many(args: Args, attempt: Attempt) -> Outcome:
        return Outcome(True, "x", "y", evidence=[300, *range(250, 0, -1), 3])

    check = Check(id="m", kind=Kind("many", Args, many), args=Args(), spec={})
    assert evaluate([check], attempt).checks[0].evidence == list(range(1, 101))


def test_a_result_as_saved(attempt):
    result = evaluate(checks()[1:2], attempt).checks[0]
    assert json.loads(result.model_dump_json()) == {
        "id": "clean",
        "kind": "trace",
        "required": True,
        "passed": False,
        "score": 0.0,
        "expected": "no call to get an error",
        "actual": "1 call did: GET /repos/acme/orders got HTTP 404 (seq 3)",
        "explanation": "Failed: expected no call to get an error, but 1 call did: GET "
        "/repos/acme/orders got HTTP 404 (seq 3).",
        "evidence": [3],
        "source": "scene",
        "args": {"no_errors": True},
        "invalid": False,
        "weight": 1.0,
        "version": 3,
    }


def test_saved_results_can_be_scored_again(attempt, monkeypatch):
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_JUDGE_URL", raising=False)
    saved = Evaluation.model_validate_json(evaluate(checks(), attempt).model_dump_json())
    assert saved.passed is False
    rescored = Evaluation.grade(saved.checks, ["posted"])
    assert (rescored.passed, [r.required for r in rescored.checks]) == (True, [True, False, False])
    assert Evaluation.grade(saved.checks).passed is False
