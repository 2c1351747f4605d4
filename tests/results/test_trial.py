"""A trial as it is saved (results/trial.py): its outcome by its check results, the failed checks its check
results give, and result.json files of earlier versions read as version 1."""

from __future__ import annotations

from tests.runs import said

from soundstage.results import Counts, Trial, outcome


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
    trial = Trial.model_validate(FIRST)

    assert trial.model_dump(mode="json") == {
        **FIRST,
        "version": 1,
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
