"""A trial as it is saved (results/trial.py): its outcome and score by its check results, the failed checks its
check results give, and result.json files of earlier versions read as they were written."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runs import said

from soundstage.results import VERSION, Counts, Trial, outcome
from soundstage.results.files import read_trial, result_json
from soundstage.results.trial import score
from soundstage.results.version import READ


def test_a_trials_outcome_by_its_check_results() -> None:
    assert outcome([said(True), said(False, required=False)]) == "passed"
    assert outcome([said(True), said(None)]) == "failed"
    assert outcome([said(True, invalid=True)]) == "invalid"
    assert outcome([]) == "ungraded"


# result.json as the first soundstage wrote it: no killed, attempts, sandbox, infrastructure, after_finish.
FIRST = {
    "scene": "hello",
    "trial": 2,
    "world": "w1",
    "outcome": "failed",
    "exit_code": 1,
    "timed_out": False,
    "finish_reason": "exited",
    "wall_seconds": 0.5,
    "simulated_seconds": 10.0,
    "counts": {"calls": 2, "events": 5, "errors": 0, "unimplemented": 0},
    "failed_checks": ["said"],
    "folder": "runs/x/hello/2",
}


def test_a_result_json_of_the_first_version_reads_with_what_it_lacks_filled_in() -> None:
    trial = Trial.model_validate(FIRST, context=READ)  # as files.py reads one

    assert trial.model_dump(mode="json") == {
        **FIRST,
        "version": 1,
        "score": None,  # version 1 gave none
        "killed": False,
        "counts": {"calls": 2, "events": 5, "errors": 0, "unimplemented": 0, "after_finish": 0}
        | {"model_calls": 0, "model_tokens": 0, "model_refused": 0},
        "attempts": 1,
        "sandbox": None,
        "infrastructure": None,
        "digests": None,
        "checks": [],
    }
    assert trial.counts == Counts(calls=2, events=5, errors=0, unimplemented=0, after_finish=0)


def test_the_failed_checks_are_those_its_check_results_give_unless_written() -> None:
    unwritten = {key: value for key, value in FIRST.items() if key != "failed_checks"}
    checks = [said(False), said(None, required=False, id="tone"), said(True, id="posted"), said(None, id="polite")]

    assert Trial.model_validate({**unwritten, "checks": checks}).failed_checks == ["said", "polite"]
    assert Trial.model_validate({**unwritten, "checks": [said(True)]}).failed_checks == []
    assert Trial.model_validate({**FIRST, "checks": [said(True)]}).failed_checks == ["said"]  # as written


def test_a_trials_score_by_its_check_results_and_outcome() -> None:
    checks = [said(True), said(False, required=False, id="tone").model_copy(update={"weight": 3.0})]

    assert score(checks, "passed") == 0.25
    assert score(checks, "invalid") is None  # a failure of soundstage's own, whatever the checks say
    assert score([], "ungraded") is None


def test_the_score_is_the_one_its_check_results_give_unless_written() -> None:
    unwritten = {key: value for key, value in FIRST.items() if key != "failed_checks"}
    checks = [said(False), said(True, id="posted"), said(True, id="polite")]

    made = Trial.model_validate({**unwritten, "checks": checks})
    assert (made.version, made.score) == (VERSION, 0.6667)
    assert Trial.model_validate({**unwritten, "score": 0.5, "checks": checks}).score == 0.5  # as written
    assert Trial.model_validate({**unwritten, "version": 1, "checks": checks}).score is None


def test_result_json_keeps_the_score_and_one_without_a_version_reads_as_version_1(tmp_path: Path) -> None:
    graded = Trial.model_validate({**FIRST, "checks": [said(False), said(True, id="posted")]})
    (tmp_path / "result.json").write_bytes(result_json(graded))

    again = read_trial(tmp_path)

    assert (again.version, again.score, again.outcome) == (VERSION, 0.5, "failed")
    (tmp_path / "result.json").write_text(json.dumps({**FIRST, "folder": str(tmp_path)}))
    earlier = read_trial(tmp_path)
    assert (earlier.version, earlier.score) == (1, None)  # its checks.json is read, but gave it no score
