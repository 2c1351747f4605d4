"""The local Ray cluster (docs/ray.md): the head `run --ray` starts on this machine when given no cluster, left
up for the runs after it until `soundstage ray stop` (or the machine restarts), and recorded in soundstage's
home with its address. Ray runs in processes of its own (`ray start --head --block`, in a session of its
own, so a Ctrl-C in the terminal that started it does not end it): nothing here imports Ray.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from .errors import InfrastructureError, UsageError
from .home import home

# Seconds the head may take to start (its processes, on a busy machine), and to stop once told to.
START_TIMEOUT = 120.0
STOP_TIMEOUT = 60.0
# Seconds a port of the head's may take to answer when asked whether the cluster is up.
ANSWER_TIMEOUT = 1.0
# What in a process's command line says it is a head this module started (where /proc says).
HEAD_COMMAND = b"ray.scripts.scripts"


@dataclass(frozen=True)
class LocalCluster:
    """A head on this machine: its address (`HOST:PORT`, as `--ray-address` takes it), the process of `ray
    start` that holds it, the port its raylet listens on, the Python it was started with (its workers run that
    Python's soundstage), and when it was started (UTC, ISO 8601)."""

    address: str
    pid: int
    raylet_port: int
    python: str
    started: str


def folder(env: Mapping[str, str] = os.environ) -> Path:
    """Where the record, the lock and the head's log are: `ray/` in soundstage's home."""
    return home(env) / "ray"


def running(env: Mapping[str, str] = os.environ) -> LocalCluster | None:
    """The local cluster, when it is up. A record of one that is not (the machine restarted, its processes
    were killed) is removed."""
    with _locked(env):
        return _running(env)


def start(env: Mapping[str, str] = os.environ) -> tuple[LocalCluster, bool]:
    """The local cluster, started when none is up; and whether it was started here. Raises UsageError when
    the one up was started from another Python (its workers would run another soundstage), InfrastructureError
    when a new one does not come up."""
    with _locked(env):
        cluster = _running(env)
        if cluster is not None:
            if cluster.python != sys.executable:
                raise UsageError(
                    f"the local Ray cluster at {cluster.address} runs {cluster.python}, not this {sys.executable}: "
                    "end it with `soundstage ray stop`, or give --ray-address"
                )
            return cluster, False
        cluster = _start(folder(env))
        _record(env).write_text(json.dumps(asdict(cluster)) + "\n", encoding="utf-8")
        return cluster, True


def stop(env: Mapping[str, str] = os.environ) -> LocalCluster | None:
    """Stops the local cluster; answers the one stopped, None when none was up."""
    with _locked(env):
        cluster = _running(env)
        if cluster is None:
            return None
        _end(cluster.pid)
        _record(env).unlink()
        return cluster


def _running(env: Mapping[str, str]) -> LocalCluster | None:
    record = _record(env)
    try:
        cluster = LocalCluster(**json.loads(record.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return None
    except (ValueError, TypeError):  # not a record this version writes: nothing can be told of it
        record.unlink()
        return None
    host, _, port = cluster.address.rpartition(":")
    alive = _alive(cluster.pid)
    if alive and _answers(host, int(port)) and _answers(host, cluster.raylet_port):
        return cluster
    if alive:  # its processes no longer listen (a listening port answers however busy they are)
        _end(cluster.pid)
    record.unlink()
    return None


def _start(where: Path) -> LocalCluster:
    """Starts a head on ports free now, reachable from this machine only, and waits until its control store
    and its raylet answer."""
    port, raylet_port = _free_port(), _free_port()
    command = [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", f"--port={port}"]
    command += [f"--node-manager-port={raylet_port}", "--node-ip-address=127.0.0.1"]
    command += ["--include-dashboard=false", "--disable-usage-stats"]
    # Told to stop, the head stops now: Ray's default first waits up to 30 s for the node's workers to drain,
    # and a stage is a worker that never does until it has been idle its time.
    env = {**os.environ, "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0"}
    with (where / "head.log").open("ab") as log:
        head = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=where, env=env, start_new_session=True
        )
    deadline = time.monotonic() + START_TIMEOUT
    while not (_answers("127.0.0.1", port) and _answers("127.0.0.1", raylet_port)):
        if head.poll() is not None or time.monotonic() > deadline:
            _end(head.pid)
            head.wait()
            raise InfrastructureError(f"the local Ray cluster did not start: see {where / 'head.log'}")
        time.sleep(0.1)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    return LocalCluster(f"127.0.0.1:{port}", head.pid, raylet_port, sys.executable, started)


def _end(pid: int) -> None:
    """Ends a head: `ray start` stops its processes when told to (SIGTERM); whatever of its session is left
    after STOP_TIMEOUT seconds is killed."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)  # its session's group: the head started it, nothing else is in it
    with contextlib.suppress(ChildProcessError):  # a head this process started is its child, to reap
        os.waitpid(pid, 0)


def _alive(pid: int) -> bool:
    """Whether the head's `ray start` runs: a process that exists and is not a zombie, whose command line (on a
    system with /proc) says it is one, so a pid taken by another process after a restart is not."""
    with contextlib.suppress(ChildProcessError):  # ended, and a child of this process: reaped here
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return False
    if not Path("/proc/self").exists():
        return True
    with contextlib.suppress(OSError):
        return HEAD_COMMAND in Path(f"/proc/{pid}/cmdline").read_bytes()
    return False


def _answers(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=ANSWER_TIMEOUT).close()
    except OSError:
        return False
    return True


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _record(env: Mapping[str, str]) -> Path:
    return folder(env) / "cluster.json"


@contextlib.contextmanager
def _locked(env: Mapping[str, str]) -> Iterator[None]:
    """Held while the record is read, the head started or stopped: two runs at once start one head."""
    where = folder(env)
    where.mkdir(parents=True, exist_ok=True)
    with (where / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
