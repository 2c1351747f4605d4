"""A run's trials on a Ray cluster (`soundstage run --ray`, docs/ray.md). Only a run that asks imports this.

Each trial is a Ray task. The task finds its node's stage, an actor holding a server and the live worlds of
the trials on that node (one per node and run), which runs the trial as a local run does (runner.py): the
agent a process beside it, the trial folder written into a staging folder. The task answers the trial and
its folder's files, which the caller writes into its run folder and its results store: once per trial,
however many times it ran. A task whose worker or node dies is run again, by Ray, on whichever node is free;
the trial counts its attempts. The caller's working folder is shipped to the nodes (Ray's `working_dir`), so
scene files and the agent's command are found there as they are here.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import socket
import tempfile
from collections.abc import Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import ray
from ray.exceptions import RayActorError, RayError, RayTaskError
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from .errors import InfrastructureError, SoundstageError, UsageError
from .guard import undumpable
from .results import Trial
from .results.files import RESULT_FILE, result_json, write
from .runner import TrialPlan, _TrialRunner
from .server import Hub, Server
from .stage import ImageCache, WorldImage

# How many times a trial is run again after the worker or node running it died (Ray's task retries).
RETRIES = 3
# A stage runs every trial its node is given at once (the caller gives each node one a CPU).
STAGE_CONCURRENCY = 1000
# Seconds a cluster's address may take to answer before the run gives up on it.
REACH_TIMEOUT = 10.0
# Where, in a shared run folder, trials are written before they are moved into place.
STAGING = ".staging"


@dataclass(frozen=True)
class _Job:
    """What each node needs of the run: how trials go, the scene files (relative to the working folder
    shipped when under it), where trial folders are staged (None: the node's own temporary folder), the
    namespace of the run's actors, and the caller's values of the variables the agent is passed."""

    plan: TrialPlan
    scenes: list[tuple[str, str]]  # each scene's file as the node finds it, and as the caller named it
    staging: str | None
    namespace: str
    env: dict[str, str]


@dataclass(frozen=True)
class _Ended:
    """A trial as its task answers it: the result, its attempt, and its folder: the path of a folder on
    shared storage, or its files (path in the folder, contents)."""

    result: Trial
    attempt: int
    folder: str | None
    files: dict[str, bytes] | None


class RayTrials:
    """Trials as tasks of the Ray cluster at `address` (None: the one `ray.init()` finds or starts; `auto`,
    `host:port`, `ray://host:port`); `shared_out`: the run folder is on storage every node reaches at the
    same path, so nodes write trial folders there instead of sending them back."""

    def __init__(self, address: str | None = None, shared_out: bool = False) -> None:
        """Raises UsageError for an address of no such form, InfrastructureError for one that does not answer."""
        if address is not None and address != "auto":
            _reachable(address)
        self.address = address
        self.shared_out = shared_out

    def run(self, plan: TrialPlan, images: list[WorldImage], trials: int, folder: Path) -> Generator[Trial, None, None]:
        here = Path.cwd().resolve()
        started = not ray.is_initialized()
        if started:
            _connect(self.address, here, folder)
        else:  # a cluster the caller connected to: nothing shipped, so every path is absolute
            plan = replace(plan, cwd=(plan.cwd or here).resolve())
        try:
            names = {name for image in images for name in image.agent.get("pass_env", [])} | set(plan.given.pass_env)
            job = _Job(
                plan=plan,
                scenes=[(_portable(image.source, here if started else None), image.source) for image in images],
                staging=str((folder / STAGING).resolve()) if self.shared_out else None,
                namespace=f"soundstage-{folder.name}-{secrets.token_hex(4)}",
                env={name: os.environ[name] for name in sorted(names) if name in os.environ},
            )
            yield from _dispatch(job, images, trials, folder)
        finally:
            if self.shared_out:
                shutil.rmtree(folder / STAGING, ignore_errors=True)
            if started:
                ray.shutdown()


def _dispatch(job: _Job, images: list[WorldImage], trials: int, folder: Path) -> Generator[Trial, None, None]:
    """Sends each trial to the node with the fewest trials for its CPUs, `--parallel` at most at once, and
    yields each as it ends, placed in the run folder; ends the run's stages however it ends."""
    # The count lives on the caller's node, held there (not soft): a node that dies takes only its trials.
    attempts = _Attempts.options(  # type: ignore[attr-defined]
        num_cpus=0,
        scheduling_strategy=NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False),
    ).remote()
    todo = [(index, number) for index in range(len(images)) for number in range(1, trials + 1)]
    parallel = job.plan.parallel or max(1, sum(_nodes().values()))
    running: dict[Any, tuple[int, int, str]] = {}  # each task: its trial and the node it was sent to
    busy: dict[str, int] = {}  # each node: the trials sent to it that have not ended
    try:
        while todo or running:
            nodes = _nodes()
            while todo and len(running) < parallel:
                free = [node for node, cpus in nodes.items() if busy.get(node, 0) < cpus]
                if not free:
                    break
                node = min(free, key=lambda node: busy.get(node, 0) / nodes[node])
                index, number = todo.pop(0)
                # Soft: a task run again after its node died goes to another.
                task = _trial.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=True))
                running[task.remote(job, attempts, index, number)] = (index, number, node)
                busy[node] = busy.get(node, 0) + 1
            if not running:
                raise InfrastructureError("the Ray cluster has no live node with a CPU to run a trial on")
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                index, number, node = running.pop(ref)
                busy[node] -= 1
                ended = _answer(ref, images[index].name, number)
                yield _place(ended, folder / images[index].name / str(number))
    finally:
        for ref in running:  # stopped early: the trials still running end with their stages below
            ray.cancel(ref, force=True)
        _close_stages(job.namespace)
        ray.kill(attempts)


def _connect(address: str | None, here: Path, out: Path) -> None:
    """Connects to the cluster (or starts a local one), shipping the working folder but the run folders."""
    runs = out.parent.resolve()  # `--out`; the run folder itself when `--out` is the working folder
    left_out = runs if runs != here else out.resolve()
    excludes = ["/" + left_out.relative_to(here).as_posix()] if left_out.is_relative_to(here) else []
    try:
        ray.init(
            address=address,
            runtime_env={"working_dir": str(here), "excludes": excludes},
            log_to_driver=False,  # what an agent prints is in its trial's agent.log
            logging_level=logging.WARNING,
        )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise InfrastructureError(f"cannot reach the Ray cluster at {address or 'ray.init()'}: {exc}") from None


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
    """The live nodes with a CPU, and how many trials each runs at once: one a CPU. A task waiting for its
    stage gives its CPU back to Ray (as any task blocked in `ray.get` does), so the run counts for itself."""
    return {
        node["NodeID"]: int(node["Resources"]["CPU"])
        for node in ray.nodes()
        if node["Alive"] and node["Resources"].get("CPU", 0) >= 1
    }


def _portable(source: str, here: Path | None) -> str:
    """A scene file as a node finds it: relative to the working folder shipped when it lies under it."""
    path = Path(source).resolve()
    return path.relative_to(here).as_posix() if here is not None and path.is_relative_to(here) else str(path)


def _answer(ref: Any, scene: str, number: int) -> _Ended:
    try:
        ended: _Ended = ray.get(ref)
    except RayTaskError as exc:
        if isinstance(exc.cause, SoundstageError):  # as a local run says it (an agent that cannot start)
            raise exc.cause from None
        raise InfrastructureError(f"{scene} #{number} failed on the Ray cluster: {exc.cause}") from None
    except RayError as exc:  # its worker or node died more than RETRIES times
        raise InfrastructureError(
            f"{scene} #{number} could not be run on the Ray cluster ({RETRIES + 1} attempts): {exc}"
        ) from None
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


def _close_stages(namespace: str) -> None:
    for actor in ray.util.list_named_actors(all_namespaces=True):
        if actor["namespace"] == namespace:
            try:
                stage = ray.get_actor(actor["name"], namespace=namespace)
                ray.get(stage.close.remote())
            except (RayError, ValueError):  # it died, or its node did (ValueError: its name is gone already)
                continue
            ray.kill(stage)


@ray.remote
class _Attempts:
    """How many times each trial was started, kept by the caller's node: a trial's node may die."""

    def __init__(self) -> None:
        self.started: dict[tuple[int, int], int] = {}

    def begin(self, index: int, number: int) -> int:
        attempt = self.started.get((index, number), 0) + 1
        self.started[index, number] = attempt
        return attempt


@ray.remote
class _Stage:
    """A node's part of a run: a server holding the live worlds of the trials running on the node, as
    `serve` does, and the scenes loaded once."""

    def __init__(self, job: _Job) -> None:
        undumpable()  # this worker holds the server and its admin token, beside the node's agents
        self.job = job
        cache = ImageCache()
        # The trial folder names the scene file as the caller does, wherever the node found it.
        self.images = [replace(cache.load(scene=found), source=source) for found, source in job.scenes]
        self.hub = Hub(idle_ttl=None, finished_ttl=None)
        self.server = Server(self.hub, tls_everywhere=job.plan.tls, proxy_port=0 if job.plan.intercept else None)
        self.server.start()
        self.staging = Path(job.staging or Path(tempfile.gettempdir()) / "soundstage-ray" / job.namespace)

    def run(self, index: int, number: int, attempt: int) -> _Ended:
        """Runs the trial into a folder of this attempt's own: an earlier attempt may still be running."""
        plan, image = self.job.plan, self.images[index]
        attempt_folder = self.staging / f"{image.name}-{number}-{attempt}"
        shutil.rmtree(attempt_folder, ignore_errors=True)
        runner = _TrialRunner(self.hub, self.server.url, plan, attempt_folder)
        result = runner.run(image, number)
        trial = attempt_folder / image.name / str(number)
        if self.job.staging is not None:
            return _Ended(result, attempt, str(trial), None)
        files = {path.relative_to(trial).as_posix(): path.read_bytes() for path in trial.rglob("*") if path.is_file()}
        shutil.rmtree(attempt_folder)
        return _Ended(result, attempt, None, files)

    def close(self) -> None:
        self.server.stop()
        if self.job.staging is None:
            shutil.rmtree(self.staging, ignore_errors=True)


@ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=[RayActorError])  # type: ignore[call-overload]
def _trial(job: _Job, attempts: Any, index: int, number: int) -> _Ended:
    """One trial, on this node's stage (made by the first trial the node is given). Its stage dying with
    the trial (a worker killed) fails the task, which Ray runs again; so does its node dying."""
    attempt = ray.get(attempts.begin.remote(index, number))
    node = ray.get_runtime_context().get_node_id()
    stage = _Stage.options(  # type: ignore[attr-defined]
        name=node,
        namespace=job.namespace,
        get_if_exists=True,
        lifetime="detached",  # the task that makes it ends before the run does; the caller kills it
        num_cpus=0,
        max_concurrency=STAGE_CONCURRENCY,
        scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
        runtime_env={"env_vars": job.env},
    ).remote(job)
    ended: _Ended = ray.get(stage.run.remote(index, number, attempt))
    return ended
