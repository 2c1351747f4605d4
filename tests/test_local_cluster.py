"""The local Ray cluster: started once, found again by the runs after, stopped whole; a record of one that is
no longer up is dropped and a new one started, without waiting on the dead one. Each test stops what it starts
(the heads here are real: `ray start --head`, in this test session's soundstage home)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="Ray is not installed (pip install 'soundstage[ray]'): the local cluster is untested")
from tests.processes import wait_until

from soundstage import local_cluster
from soundstage.local_cluster import LocalCluster

ROOT = Path(__file__).parents[1]
SCENE = "seeds/csv-export.yaml"
PASSING = f"{sys.executable} examples/agents/csv_export.py"


@pytest.fixture(autouse=True)
def no_cluster_left(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No RAY_ADDRESS (the local cluster is the one a run finds), and no local cluster left up after a test."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    yield
    local_cluster.stop()


def answers(address: str) -> bool:
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
    except OSError:
        return False
    return True


def group_alive(pid: int) -> bool:
    """Whether a process of the head's session is left (a zombie included, until init reaps it)."""
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_local_cluster_is_started_once_found_again_and_stopped_whole() -> None:
    assert local_cluster.running() is None

    cluster, started = local_cluster.start()
    again, started_again = local_cluster.start()

    assert (started, started_again) == (True, False)
    assert again == cluster
    assert local_cluster.running() == cluster
    assert cluster.address.startswith("127.0.0.1:") and answers(cluster.address)
    assert json.loads((local_cluster.folder() / "cluster.json").read_text()) == {
        "address": cluster.address,
        "pid": cluster.pid,
        "raylet_port": cluster.raylet_port,
        "python": sys.executable,
        "started": cluster.started,
    }

    assert local_cluster.stop() == cluster
    assert local_cluster.running() is None
    assert not (local_cluster.folder() / "cluster.json").exists()
    assert not answers(cluster.address)
    assert wait_until(lambda: not group_alive(cluster.pid), 10)  # its head's every process (killed: reaped soon)
    assert local_cluster.stop() is None


def test_a_record_of_a_cluster_that_died_is_dropped_and_a_new_one_started() -> None:
    dead, _ = local_cluster.start()
    os.killpg(dead.pid, signal.SIGKILL)  # the machine's processes killed under it
    os.waitpid(dead.pid, 0)
    assert wait_until(lambda: not answers(dead.address), 30)

    assert local_cluster.running() is None
    assert not (local_cluster.folder() / "cluster.json").exists()
    cluster, started = local_cluster.start()
    assert started and cluster.pid != dead.pid and answers(cluster.address)


def test_a_record_whose_pid_is_another_process_is_not_taken_for_a_cluster() -> None:
    """After a restart, the recorded pid may be any process: it is neither a cluster nor ended by `stop`."""
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        record = LocalCluster("127.0.0.1:1", other.pid, 1, sys.executable, "2026-01-01T00:00:00+00:00")
        local_cluster.folder().mkdir(parents=True, exist_ok=True)
        (local_cluster.folder() / "cluster.json").write_text(json.dumps(record.__dict__))

        assert local_cluster.stop() is None
        assert other.poll() is None
        assert not (local_cluster.folder() / "cluster.json").exists()
    finally:
        other.kill()
        other.wait()


def test_a_second_run_uses_the_cluster_the_first_started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)  # the working folder shipped: the scene and the agent are found there by these paths
    runs = []
    for _ in range(2):
        command = [sys.executable, "-m", "soundstage", "run", SCENE, "--agent", PASSING, "--trials", "2", "--ray"]
        ran = subprocess.run([*command, "--out", str(tmp_path)], capture_output=True, text=True, check=False)
        runs.append(ran)
        assert runs[-1].returncode == 0, runs[-1].stderr
    cluster = local_cluster.running()
    assert cluster is not None

    said = [[line for line in run.stderr.splitlines() if "Ray cluster" in line] for run in runs]
    started = f"started the local Ray cluster at {cluster.address}; it stays up for the next runs "
    assert said == [[started + "(soundstage ray stop ends it)"], []]
    stop = [sys.executable, "-m", "soundstage", "ray", "stop"]
    stopped = subprocess.run(stop, capture_output=True, text=True, check=False)
    assert stopped.stdout.splitlines()[0] == (
        f"stopped: the local Ray cluster at {cluster.address} (pid {cluster.pid}, started {cluster.started})"
    )
    assert wait_until(lambda: not group_alive(cluster.pid), 10) and local_cluster.running() is None
