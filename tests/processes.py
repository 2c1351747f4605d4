"""The agent's processes as the tests see them: whether one is still alive, bounded waits, a run killed midway.

The scripted agent (tests/cli/stage/agent.py) writes `[pid, start time]` of itself and of the daemon it leaves
behind to a file; a process is alive while /proc shows it with that start time and not as a zombie.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the agent's whole tree is ended on Linux only (docs/cli.md)"
)


def alive(process: list[int | str]) -> bool:
    pid, started = process
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    state, *rest = text[text.rindex(")") + 2 :].split()
    return state != "Z" and rest[18] == started


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether `condition` came true within `seconds` (a bound on waiting, not a measurement)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def agent_processes(pids_file: Path) -> list[list[int | str]]:
    return json.loads(pids_file.read_text()) if pids_file.exists() else []


def marked(marker: str) -> list[int]:
    """The processes of this machine whose command line holds `marker` (a sandboxed agent's, seen from outside)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:  # it has just gone
            continue
    return found


def kill_a_run(scene: Path, agent: str, out: Path, started: Callable[[], bool], sandbox: str = "none") -> Path:
    """Runs `soundstage run SCENE --agent AGENT` in a process of its own, SIGKILLs it once the agent has
    `started`, and answers the trial folder it left."""
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "soundstage",
            "run",
            str(scene),
            "--agent",
            agent,
            "--out",
            str(out),
            "--timeout",
            "600",
            "--sandbox",
            sandbox,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(started, 120), "the agent never started"
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    [trial] = out.glob("*/*/*/")
    return trial
