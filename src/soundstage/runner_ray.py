"""A run's trials on a Ray cluster (`soundstage run --ray`, docs/ray.md). Only a run that asks imports this.

Each trial is a call of its node's stage, an actor holding a server and the live worlds of the trials on that
node, which runs the trial as a local run does (runner.py): the agent a process beside it, the trial folder
written into a staging folder. The call answers the trial and its folder's files, which the caller writes into
its run folder and its results store: once per trial, however many times it ran. A trial whose stage dies
under it (its worker or its node) is run again by the caller, on a new stage, and counts its attempts. The
caller's working folder is shipped to the nodes (Ray's `working_dir`), so scene files and the agent's command
are found there as they are here.

A stage outlives its run, for the next run of the same working folder: starting one (a Ray worker importing
soundstage, its server) took longer than 20 short trials. A call per trial, not a task: a task's worker would
import soundstage once more beside the stage's.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import ray
from ray.exceptions import ActorUnschedulableError, RayActorError, RayError, RayTaskError
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from . import local_cluster
from .errors import InfrastructureError, SoundstageError, UsageError
from .guard import undumpable
from .results import Trial
from .results.files import RESULT_FILE, result_json, write
from .runner import TrialPlan, _TrialRunner
from .server import Hub, Server
from .stage import ImageCache, WorldImage

# How many times a trial is run again after the stage running it died (its worker or its node).
RETRIES = 3
# A stage runs every trial its node is given at once (each run gives each node one a CPU).
STAGE_CONCURRENCY = 1000
# Seconds a stage stays up after its last trial ended, for the next run of the same working folder.
STAGE_IDLE = 600.0
# The stages of every run, named by their node and what they serve (the stage's own key).
NAMESPACE = "soundstage"
# Seconds a cluster's address may take to answer before the run gives up on it.
REACH_TIMEOUT = 10.0
# Where, in a shared run folder, trials are written before they are moved into place.
STAGING = ".staging"


@dataclass(frozen=True)
class _Job:
    """What each node needs of the run: how trials go (the caller's values of the variables the agent is
    passed among it), the scene files (relative to the working folder shipped when under it), where trial
    folders are staged (None: the stage's own temporary folder), and a name for the run's staged folders."""

    plan: TrialPlan
    scenes: list[tuple[str, str]]  # each scene's file as the node finds it, and as the caller named it
    staging: str | None
    run: str


@dataclass(frozen=True)
class _Ended:
    """A trial as its task answers it: the result, its attempt, and its folder: the path of a folder on
    shared storage, or its files (path in the folder, contents)."""

    result: Trial
    attempt: int
    folder: str | None
    files: dict[str, bytes] | None


class RayTrials:
    """Trials on the Ray cluster at `address`: `auto` (the one `ray start --head` started on this machine),
    `host:port`, `ray://host:port`, `local` (a new one on this machine, ended with the run); None: the one
    RAY_ADDRESS names, else the local cluster (local_cluster.py), started when it is not up and left up.
    `shared_out`: the run folder is on storage every node reaches at the same path, so nodes write trial
    folders there instead of sending them back. `on_cluster_start` is told the local cluster's address when
    this run started it."""

    def __init__(
        self,
        address: str | None = None,
        shared_out: bool = False,
        on_cluster_start: Callable[[str], None] | None = None,
    ) -> None:
        """Raises UsageError for an address of no such form, InfrastructureError for one that does not answer."""
        if address not in (None, "auto", "local"):
            _reachable(address)
        self.address = address
        self.shared_out = shared_out
        self.on_cluster_start = on_cluster_start

    def run(self, plan: TrialPlan, images: list[WorldImage], trials: int, folder: Path) -> Generator[Trial, None, None]:
        here = Path.cwd().resolve()
        started = not ray.is_initialized()
        if started:
            _connect(self._address(), here, folder)
        else:  # a cluster the caller connected to: nothing shipped, so every path is absolute
            plan = replace(plan, cwd=(plan.cwd or here).resolve())
        try:
            names = {name for image in images for name in image.agent.get("pass_env", [])} | set(plan.given.pass_env)
            read = tuple((name, os.environ[name]) for name in sorted(names) if name in os.environ)
            job = _Job(
                plan=replace(plan, given=replace(plan.given, read=read)),
                scenes=[(_portable(image.source, here if started else None), image.source) for image in images],
                staging=str((folder / STAGING).resolve()) if self.shared_out else None,
                run=f"{folder.name}-{secrets.token_hex(4)}",
            )
            yield from _dispatch(job, images, trials, folder)
        finally:
            if self.shared_out:
                shutil.rmtree(folder / STAGING, ignore_errors=True)
            if started:
                ray.shutdown()

    def _address(self) -> str | None:
        """The address to connect to (None: RAY_ADDRESS's), the local cluster started when it is the one."""
        if self.address is not None or os.environ.get("RAY_ADDRESS"):
            return self.address
        cluster, new = local_cluster.start()
        if new and self.on_cluster_start is not None:
            self.on_cluster_start(cluster.address)
        return cluster.address


def _dispatch(job: _Job, images: list[WorldImage], trials: int, folder: Path) -> Generator[Trial, None, None]:
    """Sends each trial to the node with the fewest trials for its CPUs, `--parallel` at most at once, as a call
    of that node's stage (made by the first trial the node is given), and yields each as it ends, placed in the
    run folder. A trial whose stage died under it (its worker or its node) is run again, on a new stage. A run
    stopped early (an error, Ctrl-C) ends the stages its trials still run on, and those trials with them."""
    todo = deque((index, number) for index in range(len(images)) for number in range(1, trials + 1))
    attempts: dict[tuple[int, int], int] = {}
    parallel = job.plan.parallel or max(1, sum(_nodes().values()))
    shared = ray.put(job)  # sent to each node once, not with each trial
    key = _stage_key()
    stages: dict[str, Any] = {}  # each node: its stage
    running: dict[Any, tuple[int, int, str, Any]] = {}  # each call: its trial, and the node and stage it went to
    busy: dict[str, int] = {}  # each node: the trials sent to it that have not ended
    try:
        while todo or running:
            nodes = _nodes()
            while todo and len(running) < parallel:
                free = [node for node, cpus in nodes.items() if busy.get(node, 0) < cpus]
                if not free:
                    break
                node = min(free, key=lambda node: busy.get(node, 0) / nodes[node])
                index, number = todo.popleft()
                attempts[index, number] = attempts.get((index, number), 0) + 1
                stage = stages.get(node) or stages.setdefault(node, _stage(key, node))
                running[stage.run.remote(shared, index, number, attempts[index, number])] = (index, number, node, stage)
                busy[node] = busy.get(node, 0) + 1
            if not running:
                raise InfrastructureError("the Ray cluster has no live node with a CPU to run a trial on")
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                index, number, node, stage = running.pop(ref)
                busy[node] -= 1
                ended = _answer(ref, images[index].name, number, attempts[index, number])
                if ended is None:  # its stage died: the node (if it lives) gets a new one, the trial another attempt
                    if stages.get(node) is stage:
                        ray.kill(stages.pop(node))
                    todo.appendleft((index, number))
                    continue
                yield _place(ended, folder / images[index].name / str(number))
    finally:
        for _, _, _, stage in running.values():  # stopped early: the trials still running end with their stages
            ray.kill(stage)


def _stage_key() -> str:
    """What a stage serves besides its node: this soundstage (its files as they are: another version, or an
    edited checkout, is another soundstage), and the working folder this run shipped (Ray's name for its
    contents), so a run of the same folder with the same soundstage finds the stage an earlier one left up."""
    shipped = ray.get_runtime_context().runtime_env.get("working_dir", "")
    code = [(path.as_posix(), path.stat()) for path in sorted(Path(__file__).parent.rglob("*.py"))]
    found = [(name, stat.st_mtime_ns, stat.st_size) for name, stat in code]
    return hashlib.sha256(repr((shipped, found)).encode()).hexdigest()[:16]


def _stage(key: str, node: str) -> Any:
    """The stage of `node` for `key`, as an earlier run left it, or a new one. It outlives the run (detached),
    until it has been idle STAGE_IDLE seconds: starting one (a worker importing soundstage, a server) costs
    more than a short run's trials."""
    return _Stage.options(  # type: ignore[attr-defined]
        name=f"{node}-{key}",
        namespace=NAMESPACE,
        get_if_exists=True,  # two runs at once make it once
        lifetime="detached",
        num_cpus=0,
        max_concurrency=STAGE_CONCURRENCY,
        scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
    ).remote(STAGE_IDLE)


def _connect(address: str | None, here: Path, out: Path) -> None:
    """Connects to the cluster (or starts a local one), shipping the working folder but the run folders and the
    virtual environments in it (a `.venv` beside the project is common: hundreds of MiB of installed packages,
    which the nodes have of their own)."""
    runs = out.parent.resolve()  # `--out`; the run folder itself when `--out` is the working folder
    left_out = [runs if runs != here else out.resolve(), Path(sys.prefix).resolve()]
    left_out += [folder for folder in here.iterdir() if (folder / "pyvenv.cfg").is_file()]
    excludes = sorted({"/" + f.relative_to(here).as_posix() for f in left_out if f != here and f.is_relative_to(here)})
    try:
        ray.init(
            address=address,
            runtime_env={"working_dir": str(here), "excludes": excludes},
            log_to_driver=False,  # what an agent prints is in its trial's agent.log
            logging_level=logging.WARNING,
        )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise InfrastructureError(f"cannot reach the Ray cluster at {address or 'RAY_ADDRESS'}: {exc}") from None


def _reachable(address: str) -> None:
    """Raises InfrastructureError unless the cluster's port answers: Ray itself keeps trying for minutes."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=REACH_TIMEOUT).close()
    except ValueError:
        raise UsageError(f"--ray-address takes auto, HOST:PORT or ray://HOST:PORT, not {address!r}") from None
    except OSError as exc:
        raise InfrastructureError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None


def _nodes() -> dict[str, int]:
    """The live nodes with a CPU, and how many trials each runs at once: one a CPU. A stage asks Ray for no CPU
    (it runs many trials at once), so the run counts them for itself."""
    return {
        node["NodeID"]: int(node["Resources"]["CPU"])
        for node in ray.nodes()
        if node["Alive"] and node["Resources"].get("CPU", 0) >= 1
    }


def _portable(source: str, here: Path | None) -> str:
    """A scene file as a node finds it: relative to the working folder shipped when it lies under it."""
    path = Path(source).resolve()
    return path.relative_to(here).as_posix() if here is not None and path.is_relative_to(here) else str(path)


def _answer(ref: Any, scene: str, number: int, attempt: int) -> _Ended | None:
    """The trial a stage answered; None when the stage died under it (its worker or its node) and the trial
    has attempts left."""
    try:
        ended: _Ended = ray.get(ref)
    except RayTaskError as exc:
        if isinstance(exc.cause, SoundstageError):  # as a local run says it (an agent that cannot start)
            raise exc.cause from None
        raise InfrastructureError(f"{scene} #{number} failed on the Ray cluster: {exc.cause}") from None
    except (RayActorError, ActorUnschedulableError) as exc:  # unschedulable: its node died before it started
        if attempt <= RETRIES:
            return None
        raise InfrastructureError(
            f"{scene} #{number} could not be run on the Ray cluster ({RETRIES + 1} attempts): {exc}"
        ) from None
    except RayError as exc:
        raise InfrastructureError(f"{scene} #{number} failed on the Ray cluster: {exc}") from None
    return ended


def _place(ended: _Ended, final: Path) -> Trial:
    """Puts a trial's folder where a local run writes it, its result.json saying so and how many attempts
    it took; answers its result."""
    final.parent.mkdir(parents=True, exist_ok=True)
    if ended.folder is not None:
        os.replace(ended.folder, final)
    else:
        final.mkdir()
        for name, data in (ended.files or {}).items():
            path = final / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    result = ended.result.model_copy(update={"folder": str(final), "attempts": ended.attempt})
    result.digests = {**(result.digests or {}), RESULT_FILE: write(final / RESULT_FILE, result_json(result))}
    return result


@ray.remote
class _Stage:
    """A node's stage: a server (one for each way the trials' servers listen: https for every service, the
    interception proxy) holding the live worlds of the trials running on the node, as `serve` does, and the
    scenes loaded once. It serves every run of its working folder, and ends itself once idle `idle` seconds."""

    def __init__(self, idle: float) -> None:
        undumpable()  # this worker holds the servers and their admin tokens, beside the node's agents
        self.cache = ImageCache()
        self.servers: dict[tuple[bool, bool], tuple[Hub, Server]] = {}
        self.staging = Path(tempfile.mkdtemp(prefix="soundstage-ray-"))
        # Ray starts this worker in its node's copy of the shipped working folder, which it puts first on the
        # worker's PYTHONPATH. Nodes on one machine share that copy, and each node's Ray replaces it (the same
        # path, a new folder) the first time it sets up a run there: a worker left in the old one finds no file
        # by a relative path, so each trial enters the copy again, by its path. None: nothing was shipped.
        shipped = ray.get_runtime_context().runtime_env.get("working_dir")
        self.folder = Path(os.environ["PYTHONPATH"].split(os.pathsep)[0]) if shipped else None
        self.running = 0  # trials running now
        self.ended = time.monotonic()  # when the last one ended
        self.lock = threading.Lock()
        threading.Thread(target=self._expire, args=(idle,), daemon=True).start()

    def run(self, job: _Job, index: int, number: int, attempt: int) -> _Ended:
        """Runs the trial into a folder of this attempt's own: an earlier attempt may still be running."""
        with self.lock:
            self.running += 1
        try:
            return self._run(job, index, number, attempt)
        finally:
            with self.lock:
                self.running -= 1
                self.ended = time.monotonic()

    def _run(self, job: _Job, index: int, number: int, attempt: int) -> _Ended:
        if self.folder is not None:
            os.chdir(self.folder)
        found, source = job.scenes[index]
        # The trial folder names the scene file as the caller does, wherever the node found it.
        image = replace(self.cache.load(scene=found), source=source)
        hub, server = self._server(job.plan.tls, job.plan.intercept)
        attempt_folder = Path(job.staging or self.staging) / f"{job.run}-{image.name}-{number}-{attempt}"
        shutil.rmtree(attempt_folder, ignore_errors=True)
        result = _TrialRunner(hub, server.url, job.plan, attempt_folder).run(image, number)
        trial = attempt_folder / image.name / str(number)
        if job.staging is not None:
            return _Ended(result, attempt, str(trial), None)
        files = {path.relative_to(trial).as_posix(): path.read_bytes() for path in trial.rglob("*") if path.is_file()}
        shutil.rmtree(attempt_folder)
        return _Ended(result, attempt, None, files)

    def _server(self, tls: bool, intercept: bool) -> tuple[Hub, Server]:
        with self.lock:
            if (tls, intercept) not in self.servers:
                hub = Hub(idle_ttl=None, finished_ttl=None)  # each trial drops its own world
                server = Server(hub, tls_everywhere=tls, proxy_port=0 if intercept else None).start()
                self.servers[tls, intercept] = (hub, server)
            return self.servers[tls, intercept]

    def _expire(self, idle: float) -> None:
        """Ends this stage once no trial has run on it for `idle` seconds."""
        while True:
            with self.lock:
                left = idle if self.running else self.ended + idle - time.monotonic()
            if left <= 0:
                break
            time.sleep(left)
        with self.lock:
            for _, server in self.servers.values():
                server.stop()
        shutil.rmtree(self.staging, ignore_errors=True)
        ray.kill(ray.get_runtime_context().current_actor)
