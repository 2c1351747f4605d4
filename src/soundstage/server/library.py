"""The runs a server shows (docs/http.md, "Runs"): its own runs over HTTP, and those of the libraries it is
handed (runs of `soundstage run`, from the results store or from run folders), each read as a `results.Run`
and answered in the one shape runs over HTTP have; and the comparison of two runs.

A library is a `results.RunLibrary`: `store.Store` is one, `results.FolderRuns` another. The server imports
neither; the command that starts it hands them in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import NotFound
from ..results import Run, RunFilter, RunLibrary, Trial, TrialLog, compare_trials, read_log, run_figures
from ..results.files import RESULT_FILE
from ..results.trust import changed_since_graded, trust_notes
from .runs import RunRecord, Runs, TrialRecord

# Where a run comes from: this server (a run over HTTP), or a library (a run of `soundstage run`).
OWN, LIBRARY = "http", "cli"
# A trial's log where there is none to read: its folder is elsewhere, or its world was dropped before it ended.
NO_LOG = {"trace": None, "events": None, "diff": None, "output": None, "stderr": None, "names": None}


class Shelf:
    """The server's own runs (in memory) and its libraries' runs, as one list: a run in memory and in a
    library (a run over HTTP that the server also wrote to its store) is the one in memory."""

    def __init__(self, runs: Runs, libraries: list[RunLibrary]) -> None:
        self.own = runs
        self.libraries = libraries

    def list(self, selection: RunFilter | None = None) -> list[dict[str, Any]]:
        """Every run as `GET /v1/runs` lists it, oldest first; with a `selection`, those it selects."""
        found: dict[str, dict[str, Any] | None] = {}  # None: a run the selection leaves out
        for record in list(self.own.runs.values()):
            found[record.id] = _selected(record.run(), OWN, record.metadata, [record.scene], selection)
        for library in self.libraries:
            for listed in library.runs():
                if listed.run.run_id not in found:
                    found[listed.run.run_id] = _selected(listed.run, LIBRARY, {}, _names(listed.run), selection)
        shown = [run for run in found.values() if run is not None]
        return sorted(shown, key=lambda run: (run["created"] or "", run["id"]))

    def find(self, run_id: str) -> RunRecord | Run:
        """A run of this server (its record) or of a library (with its trials)."""
        if run_id in self.own.runs:
            return self.own.get(run_id)
        for library in self.libraries:
            found = library.run(run_id)
            if found is not None:
                return found
        raise NotFound(f"no run {run_id[:80]!r}")

    def describe(self, run_id: str) -> dict[str, Any]:
        """A run with its trials, as `GET /v1/runs/<id>` answers: for a library's run, also its folder and its
        evaluations; its figures as `soundstage run` computes them, from its trials."""
        found = self.find(run_id)
        if isinstance(found, RunRecord):
            return _description(found.run(), OWN, found.metadata, [found.scene], [_own(found, t) for t in found.trials])
        run = found.model_copy(update={"figures": run_figures(found.results)})
        results = [{**_entry(trial), **_trust(trial, run.evaluation)} for trial in run.results]
        evaluations = [evaluation.model_dump(mode="json") for evaluation in run.evaluations]
        described = _description(run, LIBRARY, {}, _names(run), results)
        return {**described, "folder": run.folder, "evaluations": evaluations}

    def compare(self, a: str, b: str) -> dict[str, Any]:
        return compare_trials(_ended(self.find(a)), _ended(self.find(b)), a, b)


def _ended(found: RunRecord | Run) -> list[Trial]:
    """A run's trials that ended."""
    return (found.run() if isinstance(found, RunRecord) else found).results


def stored_trial(run: Run, scene: str, number: int) -> dict[str, Any]:
    """A trial of a library's run, as `GET /v1/runs/<id>/trials/<n>` answers: its entry of `results` with what
    its folder holds (null when the folder cannot be read here: a shared store, another machine), and `notes`:
    what a reader should know before trusting its grade, and what reading its files left out."""
    trial = next((t for t in run.results if t.scene == scene and t.trial == number), None)
    if trial is None:
        raise NotFound(f"run {run.run_id} has no trial {number} of scene {scene[:80]!r}")
    answer = {**_entry(trial), **_trust(trial, run.evaluation), "folder": trial.folder}
    if not trial.folder or not (Path(trial.folder) / RESULT_FILE).is_file():
        return {**answer, **NO_LOG}
    log = read_log(Path(trial.folder))
    return {**answer, **_log(log), "notes": [*answer["notes"], *log.notes]}


def own_trial(run: RunRecord, trial: TrialRecord, live: TrialLog | None) -> dict[str, Any]:
    """A trial of a run over HTTP, as `GET /v1/runs/<id>/trials/<n>` answers: its entry of `results` with its
    log (`live`, its world's now, while it runs; null for a world dropped before it finished). Read from no
    file, it has no notes."""
    log = live if trial.result is None else trial.log
    return {**_own(run, trial), "notes": [], **(_log(log) if log is not None else NO_LOG)}


def _selected(
    run: Run, source: str, metadata: dict[str, Any], scenes: list[str], selection: RunFilter | None
) -> dict[str, Any] | None:
    """A run as `GET /v1/runs` lists it, or None when `selection` leaves it out."""
    if selection is not None and not selection.matches(run, scenes):
        return None
    return _summary(run, source, metadata, scenes)


def _summary(run: Run, source: str, metadata: dict[str, Any], scenes: list[str]) -> dict[str, Any]:
    """A run as `GET /v1/runs` lists it; `scenes` are its scenes' names."""
    times = run.model_dump(mode="json", include={"started_at", "finished_at"})
    return {
        "id": run.run_id,
        "scene": scenes[0] if len(scenes) == 1 else None,
        "trials": run.trials,
        "status": "running" if run.exit_code is None else "done",
        "metadata": metadata,
        "created": times["started_at"],
        "source": source,
        "agent": run.agent,
        "scenes": scenes,
        "finished": times["finished_at"],
        "exit_code": run.exit_code,
        "scene_figures": [figures.model_dump(mode="json", exclude={"checks"}) for figures in run.figures or []],
    }


def _description(
    run: Run, source: str, metadata: dict[str, Any], scenes: list[str], results: list[dict[str, Any]]
) -> dict[str, Any]:
    """A run with its trials (`results`, as each is answered), as `GET /v1/runs/<id>` answers."""
    figures = [scene.model_dump(mode="json") for scene in run.figures or []]
    return {
        **_summary(run, source, metadata, scenes),
        "results": results,
        "figures": figures[0] if len(figures) == 1 else None,
        "scene_figures": figures,
    }


def _names(run: Run) -> list[str]:
    """A library's run's scenes by name: its figures', else its scene files' (a run stopped before its end)."""
    return [figures.scene for figures in run.figures or []] or [Path(source).stem for source in run.scenes]


def _entry(trial: Trial, scored: bool = True) -> dict[str, Any]:
    """A trial's entry of a run's `results` (`checks` null for a trial that was never `scored`)."""
    checks = [check.model_dump(mode="json") for check in trial.checks] if scored else None
    fields = {"scene", "trial", "world", "outcome", "score", "finish_reason"}
    return {**trial.model_dump(mode="json", include=fields), "checks": checks}


def _own(run: RunRecord, trial: TrialRecord) -> dict[str, Any]:
    """A trial of a run over HTTP: while it runs, its world and nothing else; a trial whose world was dropped
    before it finished was never scored (no log, no check results)."""
    if trial.result is None:
        running = {"outcome": None, "score": None, "finish_reason": None, "checks": None}
        return {"scene": run.scene, "trial": trial.number, "world": trial.world_id, **running}
    return _entry(trial.result, scored=trial.log is not None)


def _trust(trial: Trial, evaluation: int) -> dict[str, Any]:
    """How far a stored trial's grade can be trusted: the sandbox its agent had, the failure of soundstage's own
    that made it invalid, its files changed since it was graded (None: that cannot be told), and these in
    words (`notes`)."""
    changed = changed_since_graded(trial)
    return {
        "sandbox": trial.sandbox,
        "infrastructure": trial.infrastructure,
        "changed_since_graded": changed,
        "notes": trust_notes(trial, changed, evaluation),
    }


def _log(log: TrialLog) -> dict[str, Any]:
    return {
        "trace": log.trace,
        "events": log.events,
        "diff": log.diff,
        "output": log.output,
        "stderr": log.stderr,
        "names": log.names,
    }
