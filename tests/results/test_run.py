"""A run's exit code (results/run.py), as `soundstage run` and runs over HTTP set it."""

from __future__ import annotations

from tests.stores import trial, trial_json

from soundstage.results import Trial, exit_code, unimplemented


def called(unimplemented: int) -> Trial:
    counts = {"calls": 3, "events": 7, "errors": 1, "unimplemented": unimplemented, "after_finish": 0}
    return Trial.model_validate({**trial_json(1), "counts": counts})


def test_the_exit_code_of_a_run() -> None:
    assert exit_code([trial(1), trial(2, "ungraded")]) == 0
    assert exit_code([trial(1), trial(2, "failed")]) == 1
    assert exit_code([trial(1, "failed"), trial(2, "invalid")]) == 3  # a trial that could not be judged
    assert exit_code([trial(1)], infrastructure=["run.json could not be written"]) == 3
    assert exit_code([called(2)]) == 0
    assert exit_code([called(2), trial(2, "failed")], strict=True) == 4  # before the failed trial's 1
    assert exit_code([called(2), trial(2, "invalid")], strict=True) == 3
    assert unimplemented([called(2), called(1), trial(1)]) == 3
