"""What soundstage wrote before the results package reads into its models, and is answered as before.

`main/` is what main (commit 08ac9ce) wrote, from the repository's root:

    soundstage run tests/cli/stage/hello.yaml --agent "python tests/cli/stage/agent.py hello" --trials 2 \\
        --out tests/results/main
    soundstage run tests/cli/stage/hello.yaml --agent "python tests/cli/stage/agent.py exit 0" --trials 2 \\
        --out tests/results/main

two run folders and their results store (`soundstage.sql`: the store's SQLite file, dumped as SQL). Their paths
are relative to the root, so each test works in a copy of them from the folder holding it.
`main-answers.json` is what that soundstage answered for them, asked as `answers` below asks, in that order:
`runs`, `show`, `compare`, the runs API over the folders and over the store, then `check RUN` twice (which
writes evaluations 1 and 2) and `show` again.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from soundstage.checks import RESULT_VERSION
from soundstage.cli import app
from soundstage.results import VERSION, Counts, Evaluation, FolderRuns, RunLibrary, read_run
from soundstage.server import Server
from soundstage.store import Store, open_store

HERE = Path(__file__).parent
OUT = Path("tests/results/main")
GOOD, BAD = "20261206-221249", "20261206-221254"  # the agent that says hello; the one that exits at once
MAIN = json.loads((HERE / "main-answers.json").read_text())


@pytest.fixture
def main(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """A copy of main's runs and store, at their paths from the current folder; the store, open."""
    shutil.copytree(HERE / "main", tmp_path / OUT, ignore=shutil.ignore_patterns("soundstage.sql"))
    with closing(sqlite3.connect(tmp_path / OUT / "soundstage.db")) as connection:
        connection.executescript((HERE / "main" / "soundstage.sql").read_text())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")  # the width main's tables were printed at: a pipe's are no longer held to it
    monkeypatch.delenv("SOUNDSTAGE_DB", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_JSON", raising=False)
    store = open_store(f"sqlite:///{OUT}/soundstage.db", create=False)
    assert store is not None
    yield store
    store.close()


def files(folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """A run folder's run.json, and each trial's result.json and checks.json."""
    trials = [folder / "hello" / str(number) for number in (1, 2)]
    return (
        json.loads((folder / "run.json").read_text()),
        [json.loads((trial / "result.json").read_text()) for trial in trials],
        [json.loads((trial / "checks.json").read_text()) for trial in trials],
    )


def _with_model_counts(found: Any) -> Any:
    """`found` with every trial's counts counting no captured model call, as a trial written before capture reads."""
    if isinstance(found, dict):
        if "after_finish" in found and "unimplemented" in found:
            found.update(model_calls=0, model_tokens=0, model_refused=0)
        for value in found.values():
            _with_model_counts(value)
    elif isinstance(found, list):
        for value in found:
            _with_model_counts(value)
    return found


def test_a_run_folder_reads_into_the_models_field_for_field(main: Store) -> None:
    saved, results, checks = files(OUT / GOOD)

    run = read_run(OUT / GOOD)

    # Every field of each file, the version they did not say (1) and no evaluations listed (a folder's is its own);
    # and what version 1 gave none of: no trial's score, no scene's mean score, each check weighing 1.
    recorded = [
        {
            **_with_model_counts(result),
            "version": 1,
            "score": None,
            "digests": entry["digests"],
            "checks": [{**check, "weight": 1.0} for check in trial_checks],
        }
        for result, entry, trial_checks in zip(results, saved["results"], checks, strict=True)
    ]
    assert run.model_dump(mode="json") == {
        **saved,
        "version": 1,
        "figures": [{**scene, "mean_score": None} for scene in saved["figures"]],
        "evaluation": 0,
        "evaluations": [],
        "results": recorded,
    }
    assert (run.run_id, run.folder, run.agent, run.scenes, run.trials, run.strict) == (
        GOOD,
        f"{OUT}/{GOOD}",
        "python tests/cli/stage/agent.py hello",
        ["tests/cli/stage/hello.yaml"],
        2,
        False,
    )
    assert (run.started_at, run.finished_at) == (
        datetime(2026, 12, 6, 22, 12, 49, 593298, tzinfo=UTC),
        datetime(2026, 12, 6, 22, 12, 50, 788406, tzinfo=UTC),
    )
    assert (run.sandbox, run.exit_code, run.infrastructure) == ("bwrap", 0, [])
    [figures] = run.figures or []
    assert (figures.scene, figures.status, figures.trials, figures.invalid, figures.passed, figures.k) == (
        "hello",
        "graded",
        2,
        0,
        2,
        2,
    )
    assert (figures.pass_at_1, figures.pass_at_k, figures.pass_hat_k, figures.pass_at, figures.pass_hat) == (
        1.0,
        1.0,
        1.0,
        {"1": 1.0, "2": 1.0},
        {"1": 1.0, "2": 1.0},
    )
    assert {check: (c.required, c.passed, c.trials, c.pass_rate) for check, c in figures.checks.items()} == {
        "said_hello": (True, 2, 2, 1.0),
        "posted": (True, 2, 2, 1.0),
    }
    first, second = run.results
    assert (first.scene, first.trial, first.world, first.outcome, first.exit_code, first.killed) == (
        "hello",
        1,
        "wbef0644d89872a35a605b6477ac27c56",
        "passed",
        0,
        False,
    )
    assert (first.timed_out, first.finish_reason, first.wall_seconds, first.simulated_seconds) == (
        False,
        "exited",
        0.618,
        10.0,
    )
    assert first.counts == second.counts == Counts(calls=2, events=5, errors=0, unimplemented=0, after_finish=0)
    assert (first.failed_checks, first.folder, first.attempts, first.sandbox, first.infrastructure) == (
        [],
        f"{OUT}/{GOOD}/hello/1",
        1,
        "bwrap",
        None,
    )
    assert first.digests is not None and sorted(first.digests) == [
        "agent.log",
        "checks.json",
        "diff.json",
        "events.jsonl",
        "output.txt",
        "result.json",
        "scene.json",
        "state.json",
        "trace.jsonl",
    ]
    assert first.digests["result.json"] == "sha256:6b72248a7797b8e95a46fb176f10b6c26bf3267fd9df91fcaebe1095fdb2bfee"
    assert [(c.id, c.kind, c.required, c.passed, c.score, c.source, c.version) for c in first.checks] == [
        ("said_hello", "state:slack.message", True, True, 1.0, "scene", 2),
        ("posted", "trace", True, True, 1.0, "scene", 2),
    ]
    assert (second.world, second.wall_seconds) == ("wd9daaa24c0d9d3d0be13b7747d3f977b", 0.258)


def test_the_store_reads_into_the_same_models_but_for_what_it_keeps_not(main: Store) -> None:
    for run_id in (GOOD, BAD):
        folder = read_run(OUT / run_id)
        # The store keeps no run's sandbox and no check's arguments; it lists the run's own grading. Its rows say
        # no version: they read as this one's, with what they lack (scores) none.
        own = Evaluation(number=0, checks_from="run", created_at=folder.started_at)
        results = [
            trial.model_copy(
                update={
                    "version": VERSION,
                    "checks": [
                        check.model_copy(update={"args": {}, "version": RESULT_VERSION}) for check in trial.checks
                    ],
                }
            )
            for trial in folder.results
        ]
        update = {"version": VERSION, "sandbox": None, "evaluations": [own], "results": results}
        expected = folder.model_copy(update=update)

        assert main.run(run_id) == expected

    libraries: list[RunLibrary] = [main, FolderRuns(OUT)]
    for library in libraries:
        listed = {entry.run.run_id: (entry.trials_written, entry.trials_passed) for entry in library.runs()}
        assert listed == {GOOD: (2, 2), BAD: (2, 0)}


def cli(*args: str) -> dict[str, Any]:
    """The command's exit code and output: its JSON document with `--json` (its keys in any order)."""
    answered = CliRunner().invoke(app, list(args))
    return {"exit_code": answered.exit_code, "stdout": answered.stdout}


def documents(answers: dict[str, Any]) -> dict[str, Any]:
    """The answers with each command's JSON output read."""
    read = copy.deepcopy(answers)
    for answer in read.values():
        if "stdout" in answer and answer["stdout"].startswith("{"):
            answer["stdout"] = json.loads(answer["stdout"])
    return read


def api(library: RunLibrary) -> dict[str, Any]:
    answers = {}
    with Server(tls_port=None, libraries=[library]) as server:
        headers = {"authorization": f"Bearer {server.admin_token}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=30) as http:
            answers["/v1/runs"] = http.get("/v1/runs").json()
            for run in (GOOD, BAD):
                answers[f"/v1/runs/{run}"] = http.get(f"/v1/runs/{run}").json()
                answers[f"/v1/runs/{run}/trials/2"] = http.get(f"/v1/runs/{run}/trials/2").json()
            answers["/v1/compare"] = http.get(f"/v1/compare?a={GOOD}&b={BAD}").json()
    return answers


def _beside_tables(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1] not in "┏┃┡│└"]


def answers(store: Store) -> dict[str, Any]:
    """What main was asked, in the order it was asked (`check` writes evaluations 1 and 2 to the store)."""
    found = {"runs": cli("runs", "--out", str(OUT), "--json"), "runs_human": cli("runs", "--out", str(OUT))}
    for run in (GOOD, BAD):
        found[f"show {run}"] = cli("show", run, "--out", str(OUT), "--json")
        found[f"show {run} human"] = cli("show", run, "--out", str(OUT))
    found["compare"] = cli("compare", str(OUT / GOOD), str(OUT / BAD), "--json")
    found["compare human"] = cli("compare", str(OUT / GOOD), str(OUT / BAD))
    found["api folders"] = api(FolderRuns(OUT))
    found["api store"] = api(store)
    found["check"] = cli("check", str(OUT / BAD), "--json")
    found["check human"] = cli("check", str(OUT / BAD))
    found["show after check"] = cli("show", BAD, "--out", str(OUT), "--json")
    found["show after check human"] = cli("show", BAD, "--out", str(OUT))
    return found


def test_the_commands_and_the_runs_api_answer_as_before(main: Store) -> None:
    asked = datetime.now(UTC)
    found = documents(answers(main))

    expected = documents(MAIN)
    _with_model_counts(expected)
    # Compatible extensions. Over the runs API, a run of the store lists each scene's figures whole, as a run
    # folder's does (`k`, `pass_at`, `pass_hat`), and its check results carry `args` (empty: the store keeps
    # none) and `version`, as a run folder's do.
    for listed, in_folders in zip(expected["api store"]["/v1/runs"], expected["api folders"]["/v1/runs"], strict=True):
        listed["scene_figures"] = in_folders["scene_figures"]
    for run in (GOOD, BAD):
        described, trial = expected["api store"][f"/v1/runs/{run}"], expected["api store"][f"/v1/runs/{run}/trials/2"]
        for check in [*(c for entry in described["results"] for c in entry["checks"]), *trial["checks"]]:
            check.update(args={}, version=RESULT_VERSION)
    # A trial over the runs API also gives its agent's stderr (agent.log) and its records' names.
    for source in ("api folders", "api store"):
        for run, stderr in ((GOOD, '{"env": {"PATH": '), (BAD, "no idea")):
            trial = found[source][f"/v1/runs/{run}/trials/2"]
            assert trial["stderr"].startswith(stderr)
            assert sorted(trial["names"].values()) == ["#general", "@maya", "@slackbot", "@stagebot"]
            expected[source][f"/v1/runs/{run}/trials/2"].update(stderr=trial["stderr"], names=trial["names"])
    # The evaluations `check` wrote are dated now, not when main wrote them.
    made = [evaluation["created_at"] for evaluation in found["show after check"]["stdout"]["run"]["evaluations"]]
    assert made[0] == "2026-12-06T22:12:54.488685Z"
    assert all(datetime.fromisoformat(stamp) >= asked for stamp in made[1:])
    for evaluation, stamp in zip(expected["show after check"]["stdout"]["run"]["evaluations"], made, strict=True):
        evaluation["created_at"] = stamp
    # Piped, a table is as wide as its content, where main squashed the list of runs to COLUMNS and cut its cells
    # short (`scen…`): each row now holds its run whole, and the lines around the table are as they were.
    listed = found.pop("runs_human")
    rows = [
        [cell.strip() for cell in line.split("│")[1:-1]] for line in listed["stdout"].splitlines() if line[:1] == "│"
    ]
    assert rows == [
        [run, f"2026-12-06 22:12:{second}", f"python tests/cli/stage/agent.py {how}", "tests/cli/stage/hello.yaml"]
        + ["2", passed, f"{OUT}/{run}"]
        for run, second, how, passed in ((BAD, "54", "exit 0", "0/2"), (GOOD, "49", "hello", "2/2"))
    ]
    before = expected.pop("runs_human")
    assert listed["exit_code"] == before["exit_code"]
    assert _beside_tables(listed["stdout"]) == _beside_tables(before["stdout"])
    scored_since(expected, found)
    dated = re.compile(r"^(evaluation [12]: .*, )\d{4}-\d\d-\d\d \d\d:\d\d:\d\d( UTC)$", re.MULTILINE)
    for answer in (expected, found):
        answer["show after check human"]["stdout"] = dated.sub(r"\1(now)\2", answer["show after check human"]["stdout"])

    assert found == expected


# The answers that grade main's trials again: every check of the agent that exits at once fails, so each trial
# scores 0.
RESCORED = ("check", "check human", "show after check", "show after check human")


def scored_since(expected: dict[str, Any], found: dict[str, Any]) -> None:
    """What the answers gained since main, put into main's: each check result's `weight` (1: main's checks had
    none), each trial's `score` and each scene's `mean_score` (none for the trials main graded, 0 for those graded
    again), a comparison's `scores` that changed (none: main's trials have none), and the lines that say them."""

    def extend(value: Any, score: float | None, fresh: bool) -> None:
        if isinstance(value, dict):
            if "explanation" in value and "evidence" in value:  # a check result
                value["weight"] = 1.0
                if fresh:
                    value["version"] = RESULT_VERSION
            elif "outcome" in value and "trial" in value:  # a trial
                value["score"] = score
                if fresh and "version" in value:  # graded now: an evaluation of this version
                    value["version"] = RESULT_VERSION
            if "pass_at_1" in value:  # a scene's figures
                value["mean_score"] = score
            if "regressed" in value:  # a comparison
                value["scores"] = []
            for item in value.values():
                extend(item, score, fresh)
        elif isinstance(value, list):
            for item in value:
                extend(item, score, fresh)

    for name, answer in expected.items():
        extend(answer, 0.0 if name in RESCORED else None, name == "check")
    compared = expected["compare human"]["stdout"].splitlines(keepends=True)
    compared.insert(-2, "scores: no change\n")  # before `regressed:` and `next:`
    expected["compare human"]["stdout"] = "".join(compared)
    for name in ("check human", "show after check human"):
        line = "hello: 0/2 passed, pass@1 0%, pass@2 0%, pass^2 0%"
        expected[name]["stdout"] = expected[name]["stdout"].replace(line + "\n", line + ", mean score 0.00\n")
    # Its table's row says each trial's score, which widens it: the lines around it are as they were.
    shown = found["show after check human"]["stdout"]
    assert "│ hello │ 0/2    │ #1 failed (score 0.00) #2 failed (score 0.00) │" in shown.splitlines()
    found["show after check human"]["stdout"] = "\n".join(_beside_tables(shown))
    expected["show after check human"]["stdout"] = "\n".join(
        _beside_tables(expected["show after check human"]["stdout"])
    )
