"""Runs over HTTP (docs/http.md, "Runs"): a scene's trials as live worlds that the caller's agent drives.

A run is made of `trials` live worlds of one scene, with the scene's checks, custom checks added to them, or
custom checks alone. When a run's world finishes, its trial is scored once and the results are kept here, in
the run, so they outlive the world (which the hub drops by its time-to-live like any other), and written to
the results store when the server has one. The store is handed in (`ResultsSink`, which `store.Store` is):
the server does not import the store, its sibling. A run and its trials are kept as the store keeps them
(`results.Run`, `results.Trial`), with what only a live run has: its trials still running, their logs and the
caller's metadata.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..checks import Check, CheckResult, CheckSpecError, CheckSpecErrors, Evaluation, score
from ..checks.library import parse_with_library
from ..clock import US
from ..errors import InfrastructureError, NotFound
from ..events import ModelCallEvent
from ..results import Counts, Outcome, ResultsSink, Run, Trial, TrialLog, exit_code, outcome, record_names, run_figures
from ..spec.loader import SpecErrors
from ..stage import WorldImage
from ..world import World

log = logging.getLogger("soundstage.server")

# What the store's runs table holds as the agent of a run over HTTP: the caller runs the agent itself.
HTTP_AGENT = "http"
# How a trial whose world was dropped (deleted, or expired) before it finished ends.
DROPPED = "dropped"
# Finished runs a server keeps in memory (with their trials' logs), the oldest dropped first; the store, when
# there is one, keeps them all. Running runs are bounded by the live worlds they hold.
MAX_DONE_RUNS = 1000


def counts(world: World) -> Counts:
    """What a trial's result counts of its world's log."""
    calls = world.log.calls()
    models = [event for event in world.log.events if isinstance(event, ModelCallEvent)]
    return Counts(
        calls=len(calls),
        events=len(world.log),
        errors=sum(call.error for call in calls),
        unimplemented=sum(call.unimplemented for call in calls),
        after_finish=sum(event.kind == "after_finish" for event in world.log.events),
        model_calls=len(models),
        model_tokens=sum(call.usage["total_tokens"] for call in models if call.usage is not None),
        model_refused=sum(call.refused is not None for call in models),
    )


def world_log(world: World, output: str | None) -> TrialLog:
    """A world's log as its trial's: its calls, every event, its state's diff, `output` (None while it runs) and
    its records' names. No stderr: the caller runs the agent."""
    diff = world.diff()
    return TrialLog(
        trace=[e.model_dump(mode="json") for e in world.log.calls()],
        events=[e.model_dump(mode="json") for e in world.log.events],
        diff=diff,
        output=output,
        names=record_names(world.state(), diff),
    )


def live_trial(
    scene: str,
    number: int,
    world_id: str,
    started: float,
    graded: Outcome,
    reason: str,
    world: World | None,
    checks: list[CheckResult],
) -> Trial:
    """A trial whose caller ran the agent on a live world (a run over HTTP, an environment's episode), as
    `soundstage run` records one: the server knows no exit code, and no folder holds it. `started` is
    `time.monotonic()` when its world was made; `world` is None when it was dropped before it finished."""
    return Trial(
        scene=scene,
        trial=number,
        world=world_id,
        outcome=graded,
        exit_code=0,
        timed_out=False,
        finish_reason=reason,
        wall_seconds=round(time.monotonic() - started, 3),
        simulated_seconds=(world.now() - world.clock.start) / US if world is not None else 0.0,
        counts=counts(world) if world is not None else Counts(calls=0, events=0, errors=0, unimplemented=0),
        folder="",
        checks=checks,
    )


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
    """One trial of a run: its world while it lives; once it has ended, its result (and its log, unless its
    world was dropped before it finished)."""

    number: int
    world_id: str
    started: float  # the server's wall clock, for the trial's wall_seconds
    result: Trial | None = None  # None while it runs
    log: TrialLog | None = None


@dataclass
class RunRecord:
    """A run over HTTP: the run as the store keeps it (`head`, without its trials), its scene's name, the
    caller's metadata and each trial."""

    head: Run
    scene: str
    metadata: dict[str, Any]
    trials: list[TrialRecord] = field(default_factory=list)
    finished: datetime | None = None

    @property
    def id(self) -> str:
        return self.head.run_id

    @property
    def status(self) -> str:
        return "done" if all(trial.result is not None for trial in self.trials) else "running"

    def run(self) -> Run:
        """The run as far as it has gone: its trials that ended; once every one has, its end, exit code (as
        `soundstage run` sets it) and figures."""
        ended = [trial.result for trial in self.trials if trial.result is not None]
        if self.status != "done":
            return self.head.model_copy(update={"results": ended})
        return self.head.model_copy(
            update={
                "results": ended,
                "finished_at": self.finished,
                "exit_code": exit_code(ended),
                "figures": run_figures(ended),
            }
        )


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
        head = Run(
            run_id="run_" + secrets.token_hex(16),
            folder="",
            agent=HTTP_AGENT,
            scenes=[source],
            trials=len(worlds),
            started_at=_now(),
        )
        run = RunRecord(head, scene, metadata, [TrialRecord(n, world.id, now) for n, world in enumerate(worlds, 1)])
        with self._lock:
            done = [old for old in self.runs.values() if old.status == "done"]
            for old in done[: max(0, len(done) - self.max_done)]:
                del self.runs[old.id]
            self.runs[run.id] = run
            for trial in run.trials:
                self._by_world[trial.world_id] = (run, trial)
        self._write("start a run", lambda store: store.start_run(head))
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
        trial.log = world_log(world, world.output or "")
        reason = getattr(finish, "reason", "finished")
        self._end(run, trial, self._trial(run, trial, outcome(evaluation.checks), reason, world, evaluation.checks))
        return evaluation

    def settle(self, live: dict[str, World]) -> None:
        """Ends the trials whose world was dropped (deleted, or expired by the hub) before it finished:
        `invalid`, with no check results and no log."""
        with self._lock:
            gone = [(wid, found) for wid, found in self._by_world.items() if wid not in live]
            for wid, _ in gone:
                del self._by_world[wid]
        for _, (run, trial) in gone:
            self._end(run, trial, self._trial(run, trial, "invalid", DROPPED, None, []))

    @staticmethod
    def _trial(
        run: RunRecord, trial: TrialRecord, graded: Outcome, reason: str, world: World | None, checks: list[CheckResult]
    ) -> Trial:
        return live_trial(run.scene, trial.number, trial.world_id, trial.started, graded, reason, world, checks)

    def _end(self, run: RunRecord, trial: TrialRecord, result: Trial) -> None:
        with self._lock:
            trial.result = result  # last: a trial with a result is complete
            done = run.status == "done" and run.finished is None
            if done:
                run.finished = _now()
        self._write("write a trial", lambda store: store.write_trial(run.id, result))
        if done:
            ended = run.run()
            self._write("finish a run", lambda store: store.finish_run(ended))

    def _write(self, what: str, write: Callable[[ResultsSink], None]) -> None:
        """Writes to the store, if any. A store that fails loses that write, and the server log says so: the
        run's results are still here."""
        if self.store is None:
            return
        try:
            write(self.store)
        except InfrastructureError:
            log.exception("the results store could not %s", what)


def _now() -> datetime:
    """The server's wall clock, to the second: when a run over HTTP started and ended."""
    return datetime.now(UTC).replace(microsecond=0)
