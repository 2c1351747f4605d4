"""Reading run folders (results/folders.py, results/files.py): a run, a trial's log, the digests a run recorded,
a folder of runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.runs import write_run

from soundstage.errors import NotFound, UsageError
from soundstage.results import FolderRuns, read_log, read_run
from soundstage.results.files import read_trial
from soundstage.results.folders import recorded_digests, started


def test_a_run_stopped_before_it_wrote_run_json_is_read_from_its_trials(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "20261201-093000-2", {"greet": [{"said": True}, {"said": False}], "deploy": [{}]})
    run = read_run(folder).model_dump(mode="json")
    assert {key: run[key] for key in ("run_id", "agent", "scenes", "trials", "exit_code", "started_at", "figures")} == {
        "run_id": "20261201-093000-2",
        "agent": "",
        "scenes": ["deploy", "greet"],
        "trials": 2,
        "exit_code": None,
        "started_at": "2026-12-01T09:30:00Z",
        "figures": None,
    }
    assert [(t["scene"], t["trial"], t["outcome"], t["folder"]) for t in run["results"]] == [
        ("deploy", 1, "ungraded", str(folder / "deploy" / "1")),
        ("greet", 1, "passed", str(folder / "greet" / "1")),
        ("greet", 2, "failed", str(folder / "greet" / "2")),
    ]
    assert [c["id"] for c in run["results"][2]["checks"]] == ["said"]


def test_run_json_gives_the_runs_fields_and_the_trials_their_folders_as_they_are_now(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "copied", {"greet": [{"said": True}]})
    # run.json as the first soundstage wrote it: no times, no figures; its trials with their digests.
    result = json.loads((folder / "greet" / "1" / "result.json").read_text())
    summary = {
        "run_id": "20261130-101010",
        "folder": "/elsewhere",
        "agent": "python a.py",
        "scenes": ["seeds/greet.yaml"],
        "trials": 1,
        "strict": True,
        "exit_code": 0,
        "results": [{**result, "digests": {"result.json": "sha256:00"}}],
    }
    (folder / "run.json").write_text(json.dumps(summary))
    (folder / "greet" / "1" / "result.json").write_text(json.dumps({**result, "folder": "/elsewhere/greet/1"}))
    run = read_run(folder)
    assert (run.run_id, run.agent, run.scenes, run.strict, run.exit_code, run.started_at, run.figures) == (
        "20261130-101010",
        "python a.py",
        ["seeds/greet.yaml"],
        True,
        0,
        None,
        None,
    )
    assert (run.folder, run.results[0].folder) == (str(folder), str(folder / "greet" / "1"))
    assert run.results[0].digests == {"result.json": "sha256:00"}
    [listed] = FolderRuns(extra=[folder]).runs()
    assert (listed.run, listed.trials_written, listed.trials_passed) == (run.model_copy(update={"results": []}), 1, 1)


def test_a_trials_record_leaves_out_a_line_cut_short(tmp_path: Path) -> None:
    trial = write_run(tmp_path / "run", {"greet": [{"said": True}]}) / "greet" / "1"
    (trial / "events.jsonl").write_text('{"seq": 1, "kind": "start"}\n{"seq": 2, "kind": "ca')
    (trial / "output.txt").write_text("done")
    log = read_log(trial)
    assert (log.events, log.trace, log.diff, log.output) == ([{"seq": 1, "kind": "start"}], [], {}, "done")
    assert log.notes == [
        "events.jsonl: its last line is cut short (the run was stopped while writing it) and is left out"
    ]
    assert [c.id for c in read_trial(trial).checks] == ["said"]
    with pytest.raises(NotFound, match="no result.json"):
        read_log(trial.parent)


def test_a_trials_record_with_a_line_that_is_no_json_before_its_last_is_an_error_naming_it(tmp_path: Path) -> None:
    trial = write_run(tmp_path / "run", {"greet": [{"said": True}]}) / "greet" / "1"
    (trial / "trace.jsonl").write_text('{"seq": 2, "kind": \n{"seq": 3, "kind": "call"}\n')
    with pytest.raises(UsageError) as caught:
        read_log(trial)
    assert str(caught.value) == f"{trial / 'trace.jsonl'}:1: not JSON: Expecting value: line 2 column 1 (char 20)"


def test_a_folder_of_runs(tmp_path: Path) -> None:
    older = write_run(tmp_path / "runs" / "20261130-080000", {"greet": [{"said": True}]})
    newer = write_run(tmp_path / "runs" / "20261201-080000", {"greet": [{"said": False}]})
    (tmp_path / "runs" / "empty").mkdir()
    library = FolderRuns(tmp_path / "runs")
    assert list(library.folders().values()) == [newer, older]
    assert [listed.run.run_id for listed in library.runs()] == ["20261201-080000", "20261130-080000"]
    assert library.run("20261130-080000").results[0].outcome == "passed"
    assert library.run("empty") is None
    assert FolderRuns(tmp_path / "nowhere").runs() == []


def test_files_that_are_not_soundstages(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "run", {"greet": [{"said": True}]})
    (folder / "greet" / "1" / "checks.json").write_text("{}")
    with pytest.raises(UsageError) as caught:
        read_run(folder)
    assert (
        str(caught.value)
        == f"{folder}/greet/1/checks.json: not what soundstage writes there (Input should be a valid array)"
    )
    (folder / "greet" / "1" / "result.json").write_text("{not json")
    with pytest.raises(UsageError, match="result.json: not valid JSON"):
        read_run(folder)
    assert started("not-a-stamp") is None


def test_a_run_with_no_finished_trial_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="not a run folder with finished trials"):
        read_run(tmp_path)
    with pytest.raises(NotFound, match="no such run folder"):
        read_run(tmp_path / "nowhere")


def test_the_digests_a_run_recorded_of_a_trial(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "20261201-093000", {"greet": [{"said": True}, {"said": False}]})
    assert recorded_digests(folder / "greet" / "1") is None  # no run.json
    result = json.loads((folder / "greet" / "1" / "result.json").read_text())
    run = {"run_id": folder.name, "folder": str(folder), "agent": "a", "scenes": ["greet"], "trials": 2,
           "results": [{**result, "digests": {"result.json": "sha256:01"}}]}  # fmt: skip
    (folder / "run.json").write_text(json.dumps(run))
    assert recorded_digests(folder / "greet" / "1") == {"result.json": "sha256:01"}
    assert recorded_digests(folder / "greet" / "2") is None  # run.json does not hold it
    (folder / "run.json").write_text("[]")
    assert recorded_digests(folder / "greet" / "1") is None
