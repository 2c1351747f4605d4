"""Runs over HTTP (docs/http.md, "Runs"): a scene's trials as live worlds that the caller's agent drives.

A run is made of `trials` live worlds of one scene, with the scene's checks, custom checks added to them, or
custom checks alone. When a run's world finishes, its trial is scored once and the results are kept here, in
the run, so they outlive the world (which the hub drops by its time-to-live like any other), and written to
the results store when the server has one. The store is handed in (`ResultsSink`, which `store.Store` is):
the server does not import the store, its sibling.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from ..checks import Check, CheckResult, CheckSpecError, CheckSpecErrors, Evaluation, score
from ..checks.library import parse_with_library
from ..spec.loader import SpecErrors
from ..clock import US
from ..errors import InfrastructureError, NotFound
from ..figures import outcome
from ..stage import WorldImage
from ..world import World

log = logging.getLogger("soundstage.server")

# What the store's runs table holds as the agent of a run over HTTP: the caller runs the agent itself.
HTTP_AGENT = "http"
# Finished runs a server keeps in memory (with their trials' logs), the oldest dropped first; the store, when
# there is one, keeps them all. Running runs are bounded by the live worlds they hold.
MAX_DONE_RUNS = 1000


class ResultsSink(Protocol):
    """Where finished runs and trials are written: the results store (`soundstage.store.Store`)."""

    def start_run(self, run: dict[str, Any], started: datetime) -> None: ...

    def write_trial(self, run_id: str, trial: dict[str, Any], results: list[dict[str, Any]] | None = None) -> None: ...

    def finish_run(self, run_id: str, exit_code: int, finished: datetime) -> None: ...


def counts(world: World) -> dict[str, int]:
    """What a trial's result counts of its world's log."""
    calls = world.log.calls()
    return {
        "calls": len(calls),
        "events": len(world.log),
        "errors": sum(call.error for call in calls),
        "unimplemented": sum(call.unimplemented for call in calls),
        "after_finish": sum(event.kind == "after_finish" for event in world.log.events),
    }


def run_checks(image: WorldImage, raw: Any, replace: bool) -> tuple[list[Check], list[str] | None, list[Check]]:
    """The checks of a run's worlds, their pass list, and the custom checks among them. Custom checks
    without an id get `custom_1`, `custom_2`...; raises CheckSpecErrors naming every problem."""
    if raw is None:
        raw = []
    if isinstance(raw, list):
        missing = 0
        named = []
        for item in raw:
            if isinstance(item, dict) and "id" not in item and "use" not in item:  # a use is named after its check
                missing += 1
                item = {"id": f"custom_{missing}", **item}
            named.append(item)
        raw = named
    parsed = parse_with_library(raw, image.refs, source="custom")
    if parsed.library_errors:
        raise SpecErrors(parsed.library_errors)
    custom, errors = parsed.checks, parsed.errors
    if not replace:
        scene_ids = {check.id for check in image.checks}
        errors += [
            CheckSpecError(f"check id {check.id!r} is one of the scene's checks already", (i, "id"))
            for i, check in enumerate(custom)
            if check.id in scene_ids
        ]
    if errors:
        raise CheckSpecErrors(errors)
    if replace:
        return custom, None, custom
    pass_ids = image.pass_ids
    if pass_ids is not None:  # the scene's required checks, and every custom one
        pass_ids = [*pass_ids, *(check.id for check in custom)]
    return [*image.checks, *custom], pass_ids, custom


@dataclass
class TrialRecord:
    """One trial of a run: its world while it lives, what it scored once it finished."""

    number: int
    world_id: str
    started: float  # the server's wall clock, for the trial's wall_seconds
    outcome: str | None = None  # None while running
    finish_reason: str | None = None
    results: list[CheckResult] | None = None
    trace: list[dict[str, Any]] | None = None
    events: list[dict[str, Any]] | None = None
    diff: dict[str, Any] | None = None
    output: str | None = None

    def brief(self) -> dict[str, Any]:
        return {
            "trial": self.number,
            "world": self.world_id,
            "outcome": self.outcome,
            "finish_reason": self.finish_reason,
            "checks": None if self.results is None else [r.model_dump(mode="json") for r in self.results],
        }


@dataclass
class RunRecord:
    id: str
    scene: str
    metadata: dict[str, Any]
    created: str
    trials: list[TrialRecord] = field(default_factory=list)
    finished: str | None = None

    @property
    def status(self) -> str:
        return "done" if all(trial.outcome is not None for trial in self.trials) else "running"

    def exit_code(self) -> int:
        """As `soundstage run` has it (docs/cli.md): 3 when a trial could not be judged, 1 when one did not pass."""
        outcomes = [trial.outcome for trial in self.trials]
        if "invalid" in outcomes:
            return 3
        return 0 if all(o in ("passed", "ungraded") for o in outcomes) else 1


class Runs:
    """The server's runs, and the run and trial of each of their worlds."""

    def __init__(self, store: ResultsSink | None = None, max_done: int = MAX_DONE_RUNS) -> None:
        self.store = store
        self.max_done = max_done
        self.runs: dict[str, RunRecord] = {}
        self._by_world: dict[str, tuple[RunRecord, TrialRecord]] = {}
        self._lock = threading.Lock()

    def start(self, scene: str, source: str, metadata: dict[str, Any], worlds: list[World]) -> RunRecord:
        now = time.monotonic()
        run = RunRecord("run_" + secrets.token_hex(16), scene, metadata, _now())
        run.trials = [TrialRecord(n, world.id, now) for n, world in enumerate(worlds, 1)]
        with self._lock:
            done = [old for old in self.runs.values() if old.status == "done"]
            for old in done[: max(0, len(done) - self.max_done)]:
                del self.runs[old.id]
            self.runs[run.id] = run
            for trial in run.trials:
                self._by_world[trial.world_id] = (run, trial)
        self._write(
            "start_run",
            {
                "run_id": run.id,
                "folder": "",
                "agent": HTTP_AGENT,
                "scenes": [source],
                "trials": len(worlds),
                "strict": False,
            },
            datetime.now(UTC),
        )
        return run

    def get(self, run_id: str) -> RunRecord:
        run = self.runs.get(run_id)
        if run is None:
            raise NotFound(f"no run {run_id[:40]!r}")
        return run

    def finished(self, world: World) -> Evaluation | None:
        """Scores a run's world that has just finished, once; None for a world of no run."""
        with self._lock:
            found = self._by_world.pop(world.id, None)
        if found is None:
            return None
        run, trial = found
        evaluation = score(world)
        finish = next((event for event in world.log.events if event.kind == "finish"), None)
        trial.trace = [e.model_dump(mode="json") for e in world.log.calls()]
        trial.events = [e.model_dump(mode="json") for e in world.log.events]
        trial.diff = world.diff()
        trial.output = world.output or ""
        trial.results = evaluation.checks
        trial.finish_reason = getattr(finish, "reason", "finished")
        self._end(run, trial, outcome(evaluation.checks), world, (world.now() - world.clock.start) / US)
        return evaluation

    def settle(self, live: dict[str, World]) -> None:
        """Ends the trials whose world was dropped (deleted, or expired by the hub) before it finished:
        `invalid`, with no check results."""
        with self._lock:
            gone = [(wid, found) for wid, found in self._by_world.items() if wid not in live]
            for wid, _ in gone:
                del self._by_world[wid]
        for _, (run, trial) in gone:
            trial.finish_reason = "dropped"
            self._end(run, trial, "invalid", None, 0.0)

    def _end(self, run: RunRecord, trial: TrialRecord, result: str, world: World | None, simulated: float) -> None:
        empty = {"calls": 0, "events": 0, "errors": 0, "unimplemented": 0, "after_finish": 0}
        row = {
            "scene": run.scene,
            "trial": trial.number,
            "world": trial.world_id,
            "outcome": result,
            "exit_code": 0,
            "killed": False,
            "timed_out": False,
            "finish_reason": trial.finish_reason,
            "wall_seconds": round(time.monotonic() - trial.started, 3),
            "simulated_seconds": simulated,
            "counts": counts(world) if world is not None else empty,
            "folder": "",
        }
        results = [r.model_dump(mode="json") for r in trial.results or []]
        with self._lock:
            trial.outcome = result  # last: a trial with an outcome is complete
            done = run.status == "done" and run.finished is None
            if done:
                run.finished = _now()
        self._write("write_trial", run.id, row, results)
        if done:
            self._write("finish_run", run.id, run.exit_code(), datetime.now(UTC))

    def _write(self, action: str, *args: Any) -> None:
        """Writes to the store, if any. A store that fails loses that write, and the server log says so: the
        run's results are still here."""
        if self.store is None:
            return
        try:
            getattr(self.store, action)(*args)
        except InfrastructureError:
            log.exception("the results store could not %s", action.replace("_", " "))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
