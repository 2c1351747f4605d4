"""Running an agent against live worlds: trials, their folders (docs/cli.md) and the run's result.

One server serves the whole run. Each trial builds a fresh live world, starts the agent as a process
with the agent's environment (docs/http.md), waits until it exits, finishes through the control API, or runs out
of time, then scores the world and writes the trial folder. The wall clock is read here only to time
trials and to name the run folder; none of it enters a world.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from .checks import score
from .clock import US
from .errors import InfrastructureError, NotFound, UsageError
from .events import CallEvent, Event, FinishEvent
from .server import Hub, Server
from .stage import WorldImage
from .world import World

# Of the user's environment, only these reach the agent (plus the scene's `agent.pass_env`).
KEPT_ENV = ("PATH", "HOME", "LANG")
# How long an agent that finished through the control API may take to exit before it is killed.
FINISH_GRACE = 2.0


@dataclass
class TrialResult:
    """What `result.json` holds."""

    scene: str
    trial: int
    world: str
    outcome: str  # passed | failed | invalid
    exit_code: int  # negative: killed by that signal
    timed_out: bool
    finish_reason: str
    wall_seconds: float
    simulated_seconds: float
    counts: dict[str, int]
    failed_checks: list[str]
    folder: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RunResult:
    run_id: str
    folder: Path
    agent: str
    scenes: list[str]
    trials: int
    strict: bool
    results: list[TrialResult] = field(default_factory=list)

    @property
    def unimplemented(self) -> int:
        return sum(result.counts["unimplemented"] for result in self.results)

    @property
    def exit_code(self) -> int:
        """The exit code (docs/cli.md): 3 when a trial could not be judged, else 4 (strict, unimplemented), else 1 or 0."""
        if any(result.outcome == "invalid" for result in self.results):
            return 3
        if self.strict and self.unimplemented:
            return 4
        return 0 if all(result.outcome == "passed" for result in self.results) else 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "folder": str(self.folder),
            "agent": self.agent,
            "scenes": self.scenes,
            "trials": self.trials,
            "strict": self.strict,
            "exit_code": self.exit_code,
            "results": [result.to_dict() for result in self.results],
        }


def run_scenes(
    scenes: list[str],
    agent: str,
    trials: int = 1,
    parallel: int = 1,
    out: Path = Path("runs"),
    strict: bool = False,
    timeout: float = 300.0,
    tls: bool = False,
    cwd: Path | None = None,
    on_progress: Callable[[TrialResult], None] | None = None,
) -> RunResult:
    """Runs `agent` `trials` times against each scene; writes `out/<run-id>/`. The server listens on http
    and https (`tls`: every service's URL is https). Raises SpecError,
    NotFound or UsageError before anything runs, InfrastructureError when the run cannot be carried out."""
    argv = _command(agent)
    if not scenes:
        raise UsageError("give at least one scene")
    if trials < 1 or parallel < 1 or timeout <= 0:
        raise UsageError("--trials and --parallel must be at least 1, and --timeout more than 0")
    hub = Hub(idle_ttl=None, finished_ttl=None)  # each trial drops its own world, however slow its agent
    images = [hub.images.load(scene=scene) for scene in scenes]
    names = [image.name for image in images]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"two of the scenes given are named {name!r}; a run needs distinct scene names")
    server = Server(hub, tls_everywhere=tls).start()
    try:
        folder = _new_run_folder(out)
        run = RunResult(folder.name, folder, agent, [image.source for image in images], trials, strict)
        runner = _TrialRunner(hub, server.url, argv, folder, timeout, cwd)
        with ThreadPoolExecutor(max_workers=parallel) as pool:
            futures = [pool.submit(runner.run, image, n) for image in images for n in range(1, trials + 1)]
            try:
                for future in as_completed(futures):
                    if on_progress is not None:
                        on_progress(future.result())
            except BaseException:  # an agent that cannot start, or Ctrl-C: end every trial now
                pool.shutdown(cancel_futures=True)
                runner.kill_all()
                raise
            run.results = [future.result() for future in futures]
    finally:
        server.stop()
    (folder / "run.json").write_text(json.dumps(run.to_dict(), indent=2) + "\n", encoding="utf-8")
    return run


def latest_run(out: Path = Path("runs")) -> Path:
    """The run folder under `out` whose `run.json` was written last."""
    runs = sorted(out.glob("*/run.json"), key=lambda path: path.stat().st_mtime_ns)
    if not runs:
        raise NotFound(f"no runs in {out}/ (a run folder holds run.json)")
    return runs[-1].parent


def trial_folders(path: Path) -> list[Path]:
    """The trial folders of a run folder, by scene and trial number; a trial folder by itself."""
    if (path / "result.json").is_file():
        return [path]
    if not path.is_dir():
        raise NotFound(f"{path}: no such run or trial folder")
    trials = sorted(
        (found.parent for found in path.glob("*/*/result.json")), key=lambda t: (t.parent.name, _number(t.name))
    )
    if not trials:
        raise NotFound(f"{path}: neither a trial folder (with result.json) nor a run folder (with <scene>/<trial>/)")
    return trials


def _number(name: str) -> int:
    return int(name) if name.isdigit() else 0


def _command(agent: str) -> list[str]:
    try:
        argv = shlex.split(agent)
    except ValueError as exc:
        raise UsageError(f"cannot read the agent command {agent!r}: {exc}") from None
    if not argv:
        raise UsageError("the agent command is empty")
    return argv


def _new_run_folder(out: Path) -> Path:
    """`out/YYYYMMDD-HHMMSS`, or with `-2`, `-3`... when that second is taken (mkdir decides, atomically)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    number = 1
    while True:
        folder = out / (stamp if number == 1 else f"{stamp}-{number}")
        try:
            folder.mkdir(parents=True)
            return folder
        except FileExistsError:
            number += 1
        except OSError as exc:
            raise UsageError(f"cannot write the run folder {folder}: {exc.strerror}") from None


def agent_environment(hub: Hub, world: World, base_url: str) -> dict[str, str]:
    """What of the user's environment the agent gets: PATH, HOME, LANG and the scene's `pass_env` names that are set, plus the world's own."""
    names = list(KEPT_ENV) + list(world.agent.get("pass_env", []))
    env = {name: os.environ[name] for name in names if name in os.environ}
    env.update(hub.environment(world, base_url))
    return env


class _Trace:
    """Writes each `call` event to `trace.jsonl` as it is logged. `ended` is set when the world finishes
    (and by the runner when the agent exits): the attempt is over."""

    def __init__(self, path: Path) -> None:
        self.file: IO[str] = path.open("w", encoding="utf-8")
        self.ended = threading.Event()
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        if isinstance(event, CallEvent):
            with self._lock:
                if not self.file.closed:  # a call still in flight when the trial ended
                    self.file.write(event.model_dump_json() + "\n")
                    self.file.flush()
        elif isinstance(event, FinishEvent):
            self.ended.set()

    def close(self) -> None:
        with self._lock:
            self.file.close()


class _TrialRunner:
    """Runs trials of one run; the run's threads share it."""

    def __init__(
        self, hub: Hub, base_url: str, argv: list[str], run_folder: Path, timeout: float, cwd: Path | None
    ) -> None:
        self.hub = hub
        self.base_url = base_url
        self.argv = argv
        self.run_folder = run_folder
        self.timeout = timeout
        self.cwd = cwd
        self._running: set[int] = set()  # process group ids of the agents running now

    def kill_all(self) -> None:
        for pgid in list(self._running):
            _kill_group(pgid)

    def run(self, image: WorldImage, number: int) -> TrialResult:
        folder = self.run_folder / image.name / str(number)
        folder.mkdir(parents=True)
        world = self.hub.add(image)
        world.log.mirror_to(folder / "events.jsonl")
        trace = _Trace(folder / "trace.jsonl")
        world.log.listen(trace)
        try:
            started = time.monotonic()
            exit_code, timed_out, stdout = self._attempt(world, folder, trace)
            wall = time.monotonic() - started
            world.finish(stdout, "timeout" if timed_out else "exited")
            return self._write(world, folder, number, exit_code, timed_out, wall)
        finally:
            self.hub.drop(world.id)  # no call reaches the world any more; closes events.jsonl
            trace.close()

    def _attempt(self, world: World, folder: Path, trace: _Trace) -> tuple[int, bool, str]:
        """Runs the agent until it exits, finishes the world, or times out; answers its exit code, whether
        it timed out, and its stdout."""
        env = agent_environment(self.hub, world, self.base_url)
        with (folder / "agent.log").open("wb") as log:
            try:
                process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    env=env,
                    cwd=self.cwd,
                    start_new_session=True,  # its own process group, so all of it can be killed
                )
            except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
                raise InfrastructureError(f"the agent command could not be started: {exc}") from None
        stdin, stdout = process.stdin, process.stdout
        assert stdin is not None and stdout is not None
        self._running.add(process.pid)
        chunks: list[bytes] = []
        threads = [
            threading.Thread(target=_feed, args=(stdin, world.task), daemon=True),
            threading.Thread(target=lambda: chunks.append(stdout.read()), daemon=True),
            threading.Thread(target=lambda: (process.wait(), trace.ended.set()), daemon=True),
        ]
        for thread in threads:
            thread.start()
        timed_out = not trace.ended.wait(self.timeout)
        if not timed_out and process.poll() is None:
            try:
                process.wait(FINISH_GRACE)
            except subprocess.TimeoutExpired:
                pass
        _kill_group(process.pid)  # the agent when it outlived the attempt, and anything it left running
        process.wait()
        self._running.discard(process.pid)
        for thread in threads:
            thread.join()
        stdout.close()
        return process.returncode, timed_out, b"".join(chunks).decode("utf-8", "replace")

    def _write(
        self, world: World, folder: Path, number: int, exit_code: int, timed_out: bool, wall: float
    ) -> TrialResult:
        evaluation = score(world)
        calls = world.log.calls()
        finish = next(event for event in world.log.events if isinstance(event, FinishEvent))
        result = TrialResult(
            scene=world.scene,
            trial=number,
            world=world.id,
            outcome="invalid" if evaluation.invalid else "passed" if evaluation.passed else "failed",
            exit_code=exit_code,
            timed_out=timed_out,
            finish_reason=finish.reason,
            wall_seconds=round(wall, 3),
            simulated_seconds=(world.now() - world.clock.start) / US,
            counts={
                "calls": len(calls),
                "events": len(world.log),
                "errors": sum(call.error for call in calls),
                "unimplemented": sum(call.unimplemented for call in calls),
            },
            failed_checks=[check.id for check in evaluation.checks if check.required and check.passed is not True],
            folder=str(folder),
        )
        _dump(folder / "checks.json", [check.model_dump(mode="json") for check in evaluation.checks])
        _dump(folder / "result.json", result.to_dict())
        _dump(folder / "state.json", world.state())
        _dump(folder / "diff.json", world.diff())
        _dump(folder / "scene.json", world.scene_record)
        (folder / "output.txt").write_text(world.output or "", encoding="utf-8")  # what output checks read
        return result


def _feed(stdin: IO[bytes], task: str) -> None:
    """Writes the task to the agent's stdin and closes it; an agent that exits without reading it is fine."""
    with contextlib.suppress(BrokenPipeError):
        stdin.write(task.encode("utf-8"))
    with contextlib.suppress(BrokenPipeError):
        stdin.close()


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # nothing left in the group


def _dump(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
