"""Rehearsals in the caller's own process (docs/python.md): a stage, its live worlds, and their results.

    with Stage() as stage:                       # a server on free ports, in a thread of this process
        world = stage.world("refund-approval")   # a scene's name or path (or scene_yaml=TEXT)
        run_my_agent(env=world.env)              # what `soundstage run` would give the agent
        result = world.finish(output="...")      # the scene's checks, with their evidence
        assert result.passed, result.explain()

For a harness that runs the agent itself, as `soundstage run` does for a command. The stage serves the
same HTTP as `soundstage serve`; the caller reads and grades its worlds directly, without the control API.
`AsyncStage` is the same for asyncio code: each call runs in a worker thread, so the event loop is free
for the agent the caller runs on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self, TypeVar

from .checks import CheckResult, Evaluation, rescore, score, score_custom
from .checks.explaining import check_lines
from .clock import iso, parse_duration
from .errors import UsageError
from .events import Event, EventLog, StartEvent
from .results import outcome
from .runner import AgentEnv, agent_environment
from .server import Hub, Server
from .server import snapshot as snapshots
from .server.hub import MAX_WORLDS, TooManyWorlds
from .world import Record, World

T = TypeVar("T")
Spec = dict[str, Any]


@dataclass(frozen=True, repr=False)
class Result:
    """An attempt's evaluation, and the log entries behind each check that did not pass."""

    scene: str
    evaluation: Evaluation
    entries: dict[int, dict[str, Any]]  # the events of their evidence, by seq, as the log writes them

    @property
    def outcome(self) -> str:
        """`passed`, `failed`, `invalid` (a check could not be carried out) or `ungraded` (no checks)."""
        return outcome(self.evaluation.checks)

    @property
    def passed(self) -> bool:
        """Every required check passed (and there was at least one check)."""
        return self.outcome == "passed"

    @property
    def invalid(self) -> bool:
        return self.evaluation.invalid

    @property
    def checks(self) -> list[CheckResult]:
        """Every check's `CheckResult`, in the order of the check list."""
        return self.evaluation.checks

    @property
    def failed(self) -> list[str]:
        """The ids of the checks that did not pass (failed, or could not be decided)."""
        return [check.id for check in self.checks if check.passed is not True]

    def explain(self) -> str:
        """The outcome (and, for a saved trial, what its files lacked: a last line cut short), then each check
        that did not pass with what it expected, what it found, why, and the log entries behind it: what
        `soundstage explain` prints for a trial."""
        lines = [f"{self.scene}: {self.outcome}", *(f"  {note}" for note in self.evaluation.notes)]
        if self.outcome == "passed":
            lines.append("  every required check passed")
        if self.outcome == "ungraded":
            lines.append("  the scene has no checks")
        for check in self.checks:
            if check.passed is not True:
                entries = [self.entries[seq] for seq in check.evidence if seq in self.entries]
                lines += [f"  {line}" for line in check_lines(check.model_dump(mode="json"), entries)]
        return "\n".join(lines)

    def assert_passed(self) -> Result:
        """Raises AssertionError with `explain()` unless the attempt passed; answers the result."""
        if not self.passed:
            raise AssertionError(self.explain())
        return self

    def __str__(self) -> str:
        return self.explain()

    def __repr__(self) -> str:
        failed = f" ({', '.join(self.failed)})" if self.failed else ""
        return f"<Result {self.scene}: {self.outcome}{failed}>"


def _result(scene: str, evaluation: Evaluation, events: list[Event]) -> Result:
    wanted = {seq for check in evaluation.checks if check.passed is not True for seq in check.evidence}
    entries = {event.seq: event.model_dump(mode="json") for event in events if event.seq in wanted}
    return Result(scene, evaluation, entries)


def review(trial: str | Path, *checks: Spec) -> Result:
    """A saved trial (a trial folder `soundstage run` wrote) scored again: by its scene's checks, or by the
    checks given (`source: custom`) instead. Raises NotFound, UsageError, SpecError as `soundstage check` does."""
    folder = Path(trial)
    evaluation = rescore(folder, list(checks) if checks else None)
    log = EventLog.read(folder / "events.jsonl")
    start = next((event for event in log.events if isinstance(event, StartEvent)), None)
    return _result(start.scene if start is not None else folder.parent.name, evaluation, log.events)


class LiveWorld:
    """A live world on a stage: what the agent gets (`env`, `urls`), what it did (`trace`, `events`,
    `state`, `diff`), and its grading (`check`, `finish`)."""

    def __init__(self, stage: Stage, world: World) -> None:
        self.stage = stage
        self.world = world
        self.id = world.id
        self.scene = world.scene
        self.task = world.task
        self.env: dict[str, str] = agent_environment(stage.hub, world, stage.url, stage.given)
        self.urls: dict[str, str] = stage.hub.urls(world, stage.url)

    def __repr__(self) -> str:
        return f"<LiveWorld {self.scene} {self.id}{' finished' if self.finished else ''}>"

    @property
    def finished(self) -> bool:
        return self.world.finished

    @property
    def output(self) -> str | None:
        """What the attempt ended with: the output `finish` was given (by the caller or the agent); None before."""
        return self.world.output

    def trace(self, after: int = 0) -> list[dict[str, Any]]:
        """The agent's calls after seq `after`, oldest first, as `GET .../trace` answers them."""
        with self.world.lock:
            return [event.model_dump(mode="json") for event in self.world.log.after(after, kind="call")]

    def events(self, after: int = 0) -> list[dict[str, Any]]:
        """Every event after seq `after`."""
        with self.world.lock:
            return [event.model_dump(mode="json") for event in self.world.log.after(after)]

    def state(self) -> dict[str, list[Record]]:
        """Every collection's records as they are now, by collection name."""
        with self.world.lock:
            return self.world.state()

    def diff(self) -> dict[str, Any]:
        with self.world.lock:
            return self.world.diff()

    def advance(self, duration: str) -> str:
        """Moves the world's clock on (`"5m"`); what falls due meanwhile happens. Answers the new time."""
        try:
            us = parse_duration(duration)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if self.world.finished:
            raise UsageError(f"world {self.id} has finished; its clock no longer moves")
        self.world.advance(us)
        return iso(self.world.now())

    def check(self, *checks: Spec) -> Result:
        """The scene's checks on the world as it is now, or the checks given (`source: custom`) instead.
        Checks that read the output are undecided until the world has finished."""
        with self.world.lock:
            evaluation = score_custom(self.world, list(checks)) if checks else score(self.world)
            return _result(self.scene, evaluation, self.world.log.events)

    def finish(self, output: str | None = None, checks: list[Spec] | None = None) -> Result:
        """Ends the attempt with `output` unless the agent ended it already (`POST .../finish`; then its
        output stands, and another given here is an error), and grades it: by the scene's checks, or by
        `checks` instead. The agent's tokens stop working, as they do when `soundstage run` ends a trial."""
        finished = self.world.finish(output if output is not None else "")
        if not finished and output is not None and output != self.world.output:
            raise UsageError(
                f"world {self.id} had already finished, with the output {self.world.output!r}: the agent "
                "finished it; leave out `output` to grade it as it is"
            )
        return self.check(*(checks or []))

    def fork(self) -> LiveWorld:
        """A new live world on the stage in this one's state (`POST .../fork`): records, clock, log, people
        and faults as they are now; then each goes on alone. Its `env` holds tokens of its own. Raises
        UsageError when this world has finished or the stage is full."""
        try:
            return LiveWorld(self.stage, self.stage.hub.fork(self.id))
        except ValueError as exc:  # finished
            raise UsageError(str(exc)) from None
        except TooManyWorlds:
            raise UsageError(_FULL.format(limit=self.stage.hub.max_worlds)) from None

    def save(self, path: str | Path) -> None:
        """Writes this world to a snapshot file (docs/http.md, "Snapshots") that `Stage.load` makes again: its
        scene and the inputs that made it, never its tokens. Raises UsageError when it cannot be replayed
        exactly (the message says why)."""
        try:
            data = snapshots.save(self.stage.hub, self.world)
        except snapshots.SnapshotError as exc:
            raise UsageError(str(exc)) from None
        Path(path).write_bytes(snapshots.dumps(data))

    def close(self) -> None:
        """Drops the world from the stage: its tokens and URLs stop working. What was read from it stays."""
        if self.id in self.stage.hub.worlds:
            self.stage.hub.drop(self.id)


class Stage:
    """A soundstage server in a thread of this process, on free ports of 127.0.0.1 (and a TLS port, for the
    services whose clients need https; `tls=True`: every service's URL is https). Worlds live until they are
    closed or the stage stops; none expires meanwhile.

    As `soundstage run` takes them: `intercept` also serves the interception proxy and puts it in each
    world's `env`, so clients left at the vendors' own hosts reach the world; `pass_env` names variables of
    this process's environment each world's `env` gets too, and `env` adds variables with their values."""

    def __init__(
        self,
        tls: bool = False,
        max_worlds: int = MAX_WORLDS,
        intercept: bool = False,
        pass_env: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.hub = Hub(max_worlds=max_worlds, idle_ttl=None, finished_ttl=None)
        self.tls = tls
        self.intercept = intercept
        self.given = AgentEnv.of(pass_env, env)
        self.server: Server | None = None  # while started

    @property
    def url(self) -> str:
        """`http://127.0.0.1:PORT`: the control API (with `admin_token`) and every service."""
        return self._serving().url

    @property
    def admin_token(self) -> str:
        return self._serving().admin_token

    def start(self) -> Self:
        if self.server is None:
            self.server = Server(self.hub, tls_everywhere=self.tls, proxy_port=0 if self.intercept else None).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _serving(self) -> Server:
        if self.server is None:
            raise UsageError("the stage is not started: use `with Stage() as stage:` or `stage.start()`")
        return self.server

    def world(self, scene: str | Path | None = None, scene_yaml: str | None = None) -> LiveWorld:
        """A fresh live world of a scene: a known scene's name or a scene file (as `soundstage run` takes
        it), or `scene_yaml`, the scene's text. Raises SpecError (every problem, with its line), NotFound,
        UsageError (the stage is full: `max_worlds` live worlds)."""
        if (scene is None) == (scene_yaml is None):
            raise UsageError("give the stage a scene (a name or a path) or scene_yaml (the scene's text), not both")
        self._serving()
        image = self.hub.images.load(scene=str(scene) if scene is not None else None, scene_yaml=scene_yaml)
        try:
            return LiveWorld(self, self.hub.add(image))
        except TooManyWorlds:
            raise UsageError(_FULL.format(limit=self.hub.max_worlds)) from None

    def load(self, path: str | Path) -> LiveWorld:
        """A live world made again from a snapshot file (`LiveWorld.save`), with tokens of its own: the agent of
        a loaded world uses its `env`. Its scene is rebuilt from the text saved, else the file it was built from,
        else its name, and must be the same words as when saved. Raises UsageError (a file that is no snapshot,
        of another version, of a scene changed since, or that does not make the world it was saved from; no world
        is left on the stage), or when the stage is full."""
        self._serving()
        try:
            return LiveWorld(self, snapshots.load(self.hub, snapshots.read(path), named=False))
        except snapshots.SnapshotError as exc:
            raise UsageError(str(exc)) from None
        except TooManyWorlds:
            raise UsageError(_FULL.format(limit=self.hub.max_worlds)) from None


_FULL = (
    "the stage holds its limit of {limit} live worlds: close those done with (world.close()), or make the stage "
    "with a larger max_worlds"
)


class AsyncLiveWorld:
    """A `LiveWorld` for asyncio code: the same, each method awaited."""

    def __init__(self, world: LiveWorld) -> None:
        self.sync = world
        self.id, self.scene, self.task = world.id, world.scene, world.task
        self.env, self.urls = world.env, world.urls

    @property
    def finished(self) -> bool:
        return self.sync.finished

    @property
    def output(self) -> str | None:
        return self.sync.output

    async def trace(self, after: int = 0) -> list[dict[str, Any]]:
        return await _off_loop(self.sync.trace, after)

    async def events(self, after: int = 0) -> list[dict[str, Any]]:
        return await _off_loop(self.sync.events, after)

    async def state(self) -> dict[str, list[Record]]:
        return await _off_loop(self.sync.state)

    async def diff(self) -> dict[str, Any]:
        return await _off_loop(self.sync.diff)

    async def advance(self, duration: str) -> str:
        return await _off_loop(self.sync.advance, duration)

    async def check(self, *checks: Spec) -> Result:
        return await _off_loop(self.sync.check, *checks)

    async def finish(self, output: str | None = None, checks: list[Spec] | None = None) -> Result:
        return await _off_loop(self.sync.finish, output, checks)

    async def fork(self) -> AsyncLiveWorld:
        return AsyncLiveWorld(await _off_loop(self.sync.fork))

    async def close(self) -> None:
        await _off_loop(self.sync.close)


class AsyncStage:
    """A `Stage` for asyncio code: `async with AsyncStage() as stage: world = await stage.world(...)`."""

    def __init__(
        self,
        tls: bool = False,
        max_worlds: int = MAX_WORLDS,
        intercept: bool = False,
        pass_env: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.sync = Stage(tls=tls, max_worlds=max_worlds, intercept=intercept, pass_env=pass_env, env=env)

    @property
    def url(self) -> str:
        return self.sync.url

    @property
    def admin_token(self) -> str:
        return self.sync.admin_token

    async def start(self) -> Self:
        await _off_loop(self.sync.start)
        return self

    async def stop(self) -> None:
        await _off_loop(self.sync.stop)

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def world(self, scene: str | Path | None = None, scene_yaml: str | None = None) -> AsyncLiveWorld:
        return AsyncLiveWorld(await _off_loop(self.sync.world, scene, scene_yaml))


def _off_loop(work: Callable[..., T], *args: Any) -> Awaitable[T]:
    """`work(*args)` in a worker thread: building a world or grading it may take a while."""
    return asyncio.to_thread(work, *args)
