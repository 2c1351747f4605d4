"""Writing a run as it goes (results/writer.py): the store part by part, tried again and then given up for the
run (or the failure raised), and run.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.stores import RUN, trial

from soundstage.errors import InfrastructureError
from soundstage.results import Run, RunWriter, Trial
from soundstage.results import writer as writing
from soundstage.results.files import run_document


class Flaky:
    """A results store whose writes fail `failures` times before they work (each write's own count)."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.written: list[tuple[str, str]] = []

    def _write(self, what: str, run_id: str) -> None:
        if self.failures:
            self.failures -= 1
            raise InfrastructureError("the results store sqlite:///x.db failed: database is locked")
        self.written.append((what, run_id))

    def start_run(self, run: Run) -> None:
        self._write("start", run.run_id)

    def write_trial(self, run_id: str, trial: Trial) -> None:
        self._write(f"trial {trial.trial}", run_id)

    def finish_run(self, run: Run) -> None:
        self._write("finish", run.run_id)


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setattr(writing.time, "sleep", slept.append)
    return slept


def test_a_write_that_fails_is_tried_again_after_each_pause(pauses: list[float]) -> None:
    store = Flaky(failures=2)
    writer = RunWriter(store, (0.5, 1.0, 2.0), on_failure=lambda why: pytest.fail(why))

    writer.start(RUN)
    writer.trial(RUN.run_id, trial(1))
    writer.finish(RUN)

    assert store.written == [("start", RUN.run_id), ("trial 1", RUN.run_id), ("finish", RUN.run_id)]
    assert (pauses, writer.failure) == ([0.5, 1.0], None)


def test_a_store_that_fails_for_good_is_told_once_and_written_no_more(pauses: list[float]) -> None:
    store = Flaky(failures=3)
    told: list[str] = []
    writer = RunWriter(store, (0.5, 1.0), on_failure=told.append)

    writer.start(RUN)
    writer.trial(RUN.run_id, trial(1))  # the store works again, but the run has given it up
    writer.finish(RUN)

    assert (store.written, pauses) == ([], [0.5, 1.0])
    assert told == [writer.failure] == ["the results store sqlite:///x.db failed: database is locked"]


def test_without_anyone_to_tell_the_failure_is_raised(pauses: list[float]) -> None:
    writer = RunWriter(Flaky(failures=1))

    with pytest.raises(InfrastructureError, match="database is locked"):
        writer.start(RUN)
    assert pauses == []


def test_no_store_is_written_nothing() -> None:
    writer = RunWriter(None)

    writer.start(RUN)
    writer.trial(RUN.run_id, trial(1))

    assert writer.failure is None


def test_run_json_is_the_run_without_its_check_results_and_evaluations(tmp_path: Path) -> None:
    run = RUN.model_copy(update={"folder": str(tmp_path), "results": [trial(1)]})

    assert RunWriter.save(run) is None

    saved = json.loads((tmp_path / "run.json").read_text())
    assert saved == run_document(run)
    assert "evaluations" not in saved and "evaluation" not in saved
    assert "checks" not in saved["results"][0] and saved["results"][0]["digests"] == trial(1).digests
    gone = RUN.model_copy(update={"folder": str(tmp_path / "gone")})
    assert RunWriter.save(gone) == f"{tmp_path / 'gone' / 'run.json'} could not be written: No such file or directory"
