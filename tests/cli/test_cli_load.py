"""`soundstage load RUN_DIR`: a run folder written into the results store as the run would have written it,
a trial whose files changed since it was graded written as invalid."""

from __future__ import annotations

import json
from pathlib import Path


def test_a_run_folder_is_written_into_a_store_as_the_run_would_have(bench, cli, store_url: str) -> None:
    assert cli("run", "hello.yaml", "--agent", bench.hello(), "--trials", "2").exit_code == 0
    [run] = [path for path in bench.out.iterdir() if path.is_dir()]
    own = json.loads(cli("show", run.name, "--json").stdout)

    loaded = cli("load", f"runs/{run.name}", "--db", store_url)  # as `run` names its folder: runs/<id>
    again = cli("load", f"runs/{run.name}", "--db", store_url, "--json")  # loading again replaces what it loaded
    shown = json.loads(cli("show", run.name, "--db", store_url, "--json").stdout)

    assert loaded.exit_code == 0, loaded.output
    assert loaded.stdout.splitlines() == [
        f"run {run.name}: 2 trial(s) written to {json.loads(again.stdout)['store']}",
        f"next: soundstage show {run.name} --db ...",
    ]
    assert json.loads(again.stdout)["changed"] == {}
    assert shown["run"]["exit_code"] == own["run"]["exit_code"] == 0
    assert shown["run"]["started_at"] == own["run"]["started_at"]
    assert shown["scenes"] == own["scenes"]
    assert shown["run"]["figures"] == own["run"]["figures"]


def test_a_trial_whose_files_changed_is_written_as_invalid(bench, cli, store_url: str) -> None:
    assert cli("run", "hello.yaml", "--agent", bench.agent("exit", "0"), "--trials", "2").exit_code == 1
    [run] = [path for path in bench.out.iterdir() if path.is_dir()]
    result = run / "hello" / "2" / "result.json"
    result.write_text(json.dumps({**json.loads(result.read_text()), "outcome": "passed"}))  # a forged pass

    loaded = cli("load", str(run), "--db", store_url)
    shown = json.loads(cli("show", run.name, "--db", store_url, "--json").stdout)

    assert loaded.exit_code == 0, loaded.output
    assert loaded.stdout.splitlines()[1] == "hello #2: changed since it was graded: result.json; written as invalid"
    [scene] = shown["scenes"]
    assert [(t["trial"], t["outcome"], t["infrastructure"]) for t in scene["trials"]] == [
        (1, "failed", None),
        (2, "invalid", "changed since it was graded: result.json"),
    ]
    assert [(c["trial"], c["id"], c["source"]) for c in scene["failing_checks"] if c["trial"] == 2] == [
        (2, "files_unchanged", "soundstage")
    ]
    [figures] = shown["run"]["figures"]
    assert (figures["trials"], figures["invalid"], figures["passed"]) == (2, 1, 0)


def test_a_run_killed_before_its_end_is_loaded_without_one(bench, cli, store_url: str) -> None:
    assert cli("run", "hello.yaml", "--agent", bench.hello()).exit_code == 0
    [run] = [path for path in bench.out.iterdir() if path.is_dir()]
    (run / "run.json").unlink()  # as a run killed after its trial ended leaves it

    assert cli("load", str(run), "--db", store_url).exit_code == 0
    shown = json.loads(cli("show", run.name, "--db", store_url, "--json").stdout)
    assert (shown["run"]["exit_code"], shown["run"]["finished_at"]) == (None, None)
    [scene] = shown["scenes"]
    # Without run.json there are no digests to hold its files to.
    assert [(t["outcome"], t["changed_since_graded"]) for t in scene["trials"]] == [("passed", None)]


def test_a_store_holding_another_folders_run_of_that_id_is_left_alone(bench, cli, store_url: str) -> None:
    assert cli("run", "hello.yaml", "--agent", bench.hello(), "--db", store_url).exit_code == 0
    [run] = [path for path in bench.out.iterdir() if path.is_dir()]
    elsewhere = Path(bench.root / "copy" / run.name)
    elsewhere.parent.mkdir()
    run.rename(elsewhere)

    refused = cli("load", str(elsewhere), "--db", store_url)

    assert refused.exit_code == 2
    assert refused.stderr.splitlines()[0].startswith("error: the results store ")
    assert refused.stderr.splitlines()[0].endswith(f" holds a run {run.name} of another folder, runs/{run.name}")
