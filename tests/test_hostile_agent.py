"""A hostile agent run through `soundstage run` beside an honest one (tests/hostile/agent.py): in the sandbox it
changes no grade, aborts no run and finds no token; without one, what it changed is revealed, and a store it
locks costs the run its store, never a trial its grade."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.sandboxes import needs_bwrap

from soundstage import runner
from soundstage.cli.history import opened
from soundstage.store import sqlite

STAGE = Path(__file__).parent / "cli" / "stage"
HOSTILE = Path(__file__).parent / "hostile" / "agent.py"


@pytest.fixture
def scenes(tmp_path: Path) -> list[Path]:
    """The hello scene, which the agent does honestly, and the same scene asking it to do its worst."""
    honest, hostile = tmp_path / "seeds" / "hello.yaml", tmp_path / "seeds" / "hostile.yaml"
    honest.parent.mkdir()
    text = (STAGE / "hello.yaml").read_text()
    honest.write_text(text)
    hostile.write_text(text.replace("name: hello", "name: hostile").replace("Say hello in #general.", "Do your worst."))
    return [honest, hostile]


def soundstage(*args: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "SOUNDSTAGE_HOME": str(home), **env}
    return subprocess.run(
        [sys.executable, "-m", "soundstage", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
        check=False,
    )


def hostile_run(tmp_path: Path, scenes: list[Path], sandbox: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    home, out = tmp_path / "home", tmp_path / "runs"
    # In the sandbox it never sees the honest trial end: it waits 5 s, then tries all the same. Out of it, it
    # waits for that trial's grade, to change it (locking the store would only cost the run its store: below).
    sandboxed = sandbox != "none"
    told = {
        "HOSTILE_RUNS": str(out),
        "HOSTILE_HOME": str(home),
        "HOSTILE_SCENE": str(scenes[0]),
        "HOSTILE_WAIT": "5" if sandboxed else "120",
        "HOSTILE_LOCK": "2" if sandboxed else "0",
    }
    words = [f"--env={name}={value}" for name, value in told.items()]
    agent = shlex.join([sys.executable, str(HOSTILE)])
    ran = soundstage(
        "run", *map(str, scenes), "--agent", agent, "--parallel", "2", "--out", str(out), "--intercept",
        "--sandbox", sandbox, *words, home=home,
    )  # fmt: skip
    [folder] = [path for path in out.iterdir() if path.is_dir()]
    return ran, folder


def report(run: Path) -> dict[str, Any]:
    return json.loads((run / "hostile" / "1" / "output.txt").read_text())


def outcomes(document: dict[str, Any]) -> dict[str, str]:
    return {trial["scene"]: trial["outcome"] for scene in document["scenes"] for trial in scene["trials"]}


@needs_bwrap
def test_in_the_sandbox_a_hostile_agent_changes_no_grade_aborts_no_run_and_finds_no_token(
    tmp_path: Path, scenes: list[Path]
) -> None:
    ran, run = hostile_run(tmp_path, scenes, "required")
    home = tmp_path / "home"

    assert ran.returncode == 1, ran.stderr  # as the honest outcomes say: hello passed, the hostile scene failed
    found = report(run)
    assert found["lock"] == found["store"] == "OperationalError: unable to open database file"
    assert (found["events"], found["results"]) == (0, 0)
    assert found["key"].startswith("FileNotFoundError") and found["scene"].startswith("FileNotFoundError")
    assert found["processes"] == {}  # not one process of soundstage's in sight, let alone its memory
    assert found["proxy"] == "HTTP/1.1 403 Forbidden: not a public address (a scene may allow it: agent.allow)"

    shown = json.loads(soundstage("show", run.name, "--out", str(run.parent), "--json", home=home).stdout)
    assert outcomes(shown) == {"hello": "passed", "hostile": "failed"}
    trials = [trial for scene in shown["scenes"] for trial in scene["trials"]]
    assert [(t["sandbox"], t["changed_since_graded"]) for t in trials] == [("bwrap", []), ("bwrap", [])]
    checked = soundstage("check", str(run), "--json", home=home)
    assert checked.returncode == 1
    assert {t["scene"]: (t["outcome"], t["changed_since_graded"]) for t in json.loads(checked.stdout)["trials"]} == {
        "hello": ("passed", []),
        "hostile": ("failed", []),
    }


def test_without_a_sandbox_what_a_hostile_agent_changed_is_revealed(tmp_path: Path, scenes: list[Path]) -> None:
    ran, run = hostile_run(tmp_path, scenes, "none")
    home = tmp_path / "home"

    assert ran.returncode == 1, ran.stderr
    assert "warning" not in ran.stderr  # none was asked for
    found = report(run)
    assert (found["store"], found["events"], found["results"]) == (1, 1, 1)  # it got at the honest trial's grade

    shown = soundstage("show", run.name, "--out", str(run.parent), home=home)
    assert "hello #1: the agent ran without a sandbox: it could read and change files of this run" in shown.stdout
    assert "hello #1: changed since it was graded: events.jsonl, result.json" in shown.stdout
    checked = soundstage("check", str(run), "--json", home=home)
    assert checked.returncode == 3  # the honest trial cannot be scored again: invalid, neither passed nor failed
    trials = {t["scene"]: t for t in json.loads(checked.stdout)["trials"]}
    assert (trials["hello"]["outcome"], trials["hello"]["changed_since_graded"]) == (
        "invalid",
        ["events.jsonl", "result.json"],
    )
    assert [c["id"] for c in trials["hello"]["checks"]] == ["files_unchanged"]


def test_a_store_locked_by_the_agent_costs_the_run_its_store_not_a_trial_its_grade(
    tmp_path: Path, scenes: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, home = tmp_path / "runs", tmp_path / "home"
    monkeypatch.setenv("SOUNDSTAGE_HOME", str(home))
    monkeypatch.setattr(runner, "STORE_RETRIES", (0.1,))
    monkeypatch.setattr(sqlite, "BUSY_TIMEOUT", 0.2)
    notes: list[str] = []
    told = {"HOSTILE_RUNS": str(out), "HOSTILE_HOME": str(home), "HOSTILE_SCENE": str(scenes[0])}
    agent = shlex.join([sys.executable, str(HOSTILE)])

    run = runner.run_scenes(
        [str(scene) for scene in scenes],
        agent,
        parallel=2,
        out=out,
        store=lambda: opened(None, out),
        sandbox="none",
        env={**told, "HOSTILE_LOCK": "3", "HOSTILE_ATTEMPTS": "lock", "HOSTILE_HONEST_DELAY": "1"},
        on_note=notes.append,
    )

    assert [(result.scene, result.outcome) for result in run.results] == [("hello", "passed"), ("hostile", "failed")]
    assert run.exit_code == 3  # the machinery failed: the store
    [failure] = run.infrastructure
    locked = f"the results store sqlite:///{out}/soundstage.db failed: database is locked"
    assert (
        failure
        == f"{locked}; every trial is in its folder: write the run to the store with `soundstage load {run.folder}`"
    )
    assert notes == [f"{locked}; the run goes on, its trials written to their folders only"]
    written = json.loads((Path(run.folder) / "run.json").read_text())
    assert (written["exit_code"], written["infrastructure"]) == (3, [failure])
    assert [r["outcome"] for r in written["results"]] == ["passed", "failed"]

    loaded = soundstage("load", str(run.folder), home=home)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.splitlines()[0] == f"run {run.run_id}: 2 trial(s) written to sqlite:///{out}/soundstage.db"
    shown = json.loads(soundstage("show", run.run_id, "--out", str(out), "--json", home=home).stdout)
    assert outcomes(shown) == {"hello": "passed", "hostile": "failed"}
    assert shown["run"]["exit_code"] == 3
