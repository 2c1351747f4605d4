"""The agent's sandbox (sandbox.py): the command line it makes, the choice of `--sandbox`, and what an agent run
in it sees of this machine."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from tests.processes import kill_a_run, marked, wait_until
from tests.sandboxes import needs_bwrap

from soundstage import sandbox
from soundstage.errors import UsageError
from soundstage.runner import run_scenes
from soundstage.sandbox import Cover, bwrap_command, choose, command_words, unstartable

STAGE = Path(__file__).parent / "cli" / "stage"
SCENE = STAGE / "hello.yaml"
BWRAP = "/usr/bin/bwrap"


@pytest.fixture
def bwrap_at(monkeypatch: pytest.MonkeyPatch) -> None:
    """bwrap found at one place, whether or not it is installed: the command line is the same."""
    monkeypatch.setattr(sandbox.shutil, "which", lambda name, **_: BWRAP if name == "bwrap" else None)


# -- the command line --------------------------------------------------------------------------------


def test_words_naming_files_of_the_folder_are_made_absolute(tmp_path: Path) -> None:
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "mine.py").write_text("")
    (tmp_path / "prompt.txt").write_text("")
    (tmp_path / "python").write_text("")  # a file named like the program: the program is still looked up on PATH

    words = command_words(["python", "agents/mine.py", "--quiet", "prompt.txt", "hello", "./agents/mine.py"], tmp_path)

    assert words == [
        "python",
        str(tmp_path / "agents" / "mine.py"),
        "--quiet",
        str(tmp_path / "prompt.txt"),
        "hello",
        str(tmp_path / "agents" / "mine.py"),
    ]
    assert command_words(["./agents/mine.py"], tmp_path) == [str(tmp_path / "agents" / "mine.py")]


def test_the_sandbox_covers_what_is_hidden_and_shows_what_the_agent_needs(tmp_path: Path, bwrap_at: None) -> None:
    project = tmp_path / "project"  # where the user runs from: their agent, the scenes, the runs
    for folder in ("agents", "seeds", "runs/r1/hello/1", "venv/bin"):
        (project / folder).mkdir(parents=True)
    for file in ("agents/mine.py", "seeds/hello.yaml", "soundstage.yaml"):
        (project / file).write_text("")
    home = tmp_path / "home"
    (home / ".soundstage" / "tls").mkdir(parents=True)
    for file in ("ca.pem", "ca.key", "bundle.pem"):
        (home / ".soundstage" / "tls" / file).write_text("")
    workdir = tmp_path / "work"
    scene = project / "seeds" / "hello.yaml"
    cover = Cover(
        hidden=(
            project / "runs",
            project / "runs" / "r1",
            project / "missing.db",  # not there: nothing to cover
            home / ".soundstage",
            scene,
            scene.parent,
            project / "soundstage.yaml",
            project,  # the folder of the project file holds the agent's own folder: only the file is covered
        ),
        shown=(home / ".soundstage" / "tls" / "bundle.pem", home / ".soundstage" / "tls" / "ca.pem"),
    )
    argv = ["python", str(project / "agents" / "mine.py")]

    command = bwrap_command(argv, workdir, cover, [project / "venv" / "bin", home])

    fresh = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    namespaces = ["--unshare-all", "--share-net", "--die-with-parent", "--new-session"]
    assert command == [
        BWRAP,
        *fresh,
        *namespaces,
        # Under /tmp (as pytest's folders are), what the agent runs from is mounted again in the fresh /tmp.
        *["--ro-bind", str(home), str(home)],
        *["--ro-bind", str(project / "agents"), str(project / "agents")],
        *["--ro-bind", str(project / "venv" / "bin"), str(project / "venv" / "bin")],
        *["--tmpfs", str(home / ".soundstage")],
        *["--tmpfs", str(project / "runs")],
        *["--tmpfs", str(project / "seeds")],
        *["--ro-bind", "/dev/null", str(project / "soundstage.yaml")],
        *["--ro-bind", *[str(home / ".soundstage" / "tls" / "bundle.pem")] * 2],
        *["--ro-bind", *[str(home / ".soundstage" / "tls" / "ca.pem")] * 2],
        *["--ro-bind", *[str(project / "agents" / "mine.py")] * 2],
        *["--bind", str(workdir), str(workdir), "--chdir", str(workdir)],
        "--",
        *argv,
    ]


def test_a_program_that_cannot_be_started_is_known_before_the_sandbox_starts(tmp_path: Path) -> None:
    script = tmp_path / "agent.sh"
    script.write_text("#!/bin/sh\n")
    env = {"PATH": "/usr/bin:/bin"}

    assert unstartable("sh", env) is None
    assert unstartable("soundstage-no-such-agent", env) == "No such file or directory"
    assert unstartable(str(tmp_path / "nothing.sh"), env) == "No such file or directory"
    assert unstartable(str(script), env) == "Permission denied"
    assert unstartable(str(tmp_path), env) == "Permission denied"
    script.chmod(0o755)
    assert unstartable(str(script), env) is None
    for line, missing in (
        ("#!/nowhere/python3 -u", "'/nowhere/python3'"),
        ("#!/usr/bin/env no-such-python", "'no-such-python'"),
    ):
        script.write_text(f"{line}\nprint('hi')\n")
        assert unstartable(str(script), env) == f"No such file or directory: its interpreter {missing} (its #! line)"
    script.write_text("#!/usr/bin/env sh\n")
    assert unstartable(str(script), env) is None


# -- the choice --------------------------------------------------------------------------------------


def test_auto_runs_without_a_sandbox_where_there_is_none_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_unavailable", lambda: "bwrap is not installed: install bubblewrap")

    assert choose("auto") == sandbox.Choice(
        "none", "the agent runs without a sandbox: bwrap is not installed: install bubblewrap (docs/security.md)"
    )
    assert choose("none") == sandbox.Choice("none")
    with pytest.raises(UsageError, match="^--sandbox required: bwrap is not installed: install bubblewrap$"):
        choose("required")
    with pytest.raises(UsageError, match="--sandbox is one of auto, required, none, not 'always'"):
        choose("always")


def test_a_run_that_requires_a_sandbox_where_there_is_none_starts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox, "_unavailable", lambda: "bwrap is not installed: install bubblewrap")
    notes: list[str] = []
    with pytest.raises(UsageError, match="--sandbox required"):
        run_scenes([str(SCENE)], "python agent.py", out=tmp_path / "runs", sandbox="required")
    assert not (tmp_path / "runs").exists()

    run = run_scenes([str(SCENE)], _agent("hello"), out=tmp_path / "runs", on_note=notes.append)
    assert notes == ["the agent runs without a sandbox: bwrap is not installed: install bubblewrap (docs/security.md)"]
    assert (run.sandbox, run.results[0].sandbox, run.results[0].outcome) == ("none", "none", "passed")


def _agent(*args: str) -> str:
    return shlex.join([sys.executable, str(STAGE / "agent.py"), *args])


# -- an agent in the sandbox -------------------------------------------------------------------------


PEEK = """
import json, os, sys
out, home, scene = (os.environ[name] for name in ("PEEK_RUNS", "PEEK_HOME", "PEEK_SCENE"))
def listing(path):
    try:
        return sorted(os.listdir(path))
    except OSError as exc:
        return exc.strerror
def reading(path):
    try:
        with open(path) as file:
            return len(file.read())
    except OSError as exc:
        return exc.strerror
def writing(path):
    try:
        with open(path, "w") as file:
            file.write("x")
        return "written"
    except OSError as exc:
        return exc.strerror
print(json.dumps({
    "runs": listing(out),
    "home": listing(os.path.join(home, "tls")),
    "key": reading(os.path.join(home, "tls", "ca.key")),
    "bundle": reading(os.environ["SSL_CERT_FILE"]) > 0,
    "scene": reading(scene),
    "scenes": listing(os.path.dirname(scene)),
    "processes": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "cwd": listing("."),
    "own file": writing("notes.txt"),
    "its own script": writing(sys.argv[0]),
}))
"""


@needs_bwrap
def test_the_agent_sees_neither_runs_nor_scenes_nor_keys_nor_other_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("SOUNDSTAGE_HOME", str(home))
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    scene = seeds / "hello.yaml"
    scene.write_text(SCENE.read_text())
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "peek.py").write_text(PEEK)
    out = tmp_path / "runs"
    command = shlex.join([sys.executable, "agents/peek.py"])
    where = {"PEEK_RUNS": str(out), "PEEK_HOME": str(home), "PEEK_SCENE": str(scene)}

    run = run_scenes([str(scene)], command, out=out, tls=True, cwd=tmp_path, sandbox="required", env=where)

    seen = json.loads(Path(run.results[0].folder, "output.txt").read_text())
    assert (home / "tls" / "ca.key").is_file() and (out / "soundstage.db").exists() is False  # no store asked for
    assert seen == {
        "runs": [],
        "home": ["bundle.pem", "ca.pem"],
        "key": "No such file or directory",
        "bundle": True,
        "scene": "No such file or directory",
        "scenes": [],
        "processes": [1, 2],  # bubblewrap's own first process, and the agent
        "cwd": [],
        "own file": "written",
        "its own script": "Read-only file system",
    }
    assert run.results[0].sandbox == "bwrap"


@needs_bwrap
def test_a_sandboxed_agent_and_what_it_started_end_with_the_trial(tmp_path: Path) -> None:
    marker = str(tmp_path / "pids.json")  # in the command lines of the agent and of its daemon
    # The agent exits at once; the daemon it started in a new session holds its stdout open.
    run = run_scenes([str(SCENE)], _agent("daemon", marker), out=tmp_path / "runs", timeout=600, sandbox="required")

    assert marked(marker) == []
    result = run.results[0]
    assert (result.exit_code, result.killed, result.finish_reason, result.sandbox) == (0, False, "exited", "bwrap")
    assert Path(result.folder, "output.txt").read_text() == "left a daemon\n"


@needs_bwrap
def test_at_the_timeout_a_sandboxed_agents_tree_is_killed(tmp_path: Path) -> None:
    marker = str(tmp_path / "pids.json")
    run = run_scenes([str(SCENE)], _agent("daemon-hang", marker), out=tmp_path / "runs", timeout=3, sandbox="required")

    assert marked(marker) == []
    result = run.results[0]
    assert (result.timed_out, result.exit_code, result.killed) == (True, -9, True)


@needs_bwrap
def test_a_sandboxed_agent_that_crashes_is_recorded_with_its_signal(tmp_path: Path) -> None:
    run = run_scenes([str(SCENE)], _agent("signal", "SIGSEGV"), out=tmp_path / "runs", sandbox="required")

    result = run.results[0]
    assert (result.exit_code, result.killed, result.sandbox) == (-11, False, "bwrap")


@needs_bwrap
def test_a_missing_agent_program_makes_an_invalid_trial_in_the_sandbox_too(tmp_path: Path) -> None:
    run = run_scenes([str(SCENE)], "soundstage-no-such-agent --flag", out=tmp_path / "runs", sandbox="required")

    [trial] = run.results
    assert (trial.outcome, trial.sandbox, trial.infrastructure) == (
        "invalid",
        "bwrap",
        "the agent command 'soundstage-no-such-agent --flag' could not be started: No such file or directory",
    )


@needs_bwrap
def test_a_killed_run_takes_its_sandboxed_agent_with_it(tmp_path: Path) -> None:
    marker = str(tmp_path / "pids.json")
    daemon = marker + ".survived"  # in the command line of the daemon the agent leaves, alone
    trial = kill_a_run(SCENE, _agent("hello-hang", marker), tmp_path / "runs", lambda: bool(marked(daemon)), "required")

    assert wait_until(lambda: marked(marker) == [], 30)
    assert (trial / "events.jsonl").is_file()
