"""The runs a server shows besides those it made (docs/http.md, "Runs"): runs of `soundstage run`, from
the results store or from run folders, in the shapes runs over HTTP have, and the comparison of two runs.

A library is anything with the results store's two reading methods (`RunLibrary`): `store.Store` is one,
`folders.FolderRuns` another. The server imports neither; the command that starts it hands them in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from pydantic import ConfigDict, TypeAdapter, ValidationError

from ..checks import CheckResult
from ..digests import changed_since_graded, trust_notes
from ..errors import NotFound, UsageError
from ..figures import Trial, compare_trials, run_figures
from ..folders import read_trial
from .runs import RunRecord, Runs

_CHECKS = TypeAdapter(list[CheckResult], config=ConfigDict(defer_build=True))  # built by the first trial read


class RunLibrary(Protocol):
    """Runs kept outside the server's memory, as the results store reads them back."""

    def runs(self) -> list[dict[str, Any]]: ...

    def run(self, run_id: str) -> dict[str, Any] | None: ...


class Shelf:
    """The server's own runs (in memory) and its libraries' runs, as one list: a run in memory and in a
    library (a run over HTTP that the server also wrote to its store) is the one in memory."""

    def __init__(self, runs: Runs, libraries: list[RunLibrary]) -> None:
        self.own = runs
        self.libraries = libraries

    def list(self) -> list[dict[str, Any]]:
        """Every run's summary, oldest first."""
        found = {run.id: summary(run) for run in list(self.own.runs.values())}
        for library in self.libraries:
            for stored in library.runs():
                found.setdefault(stored["run_id"], stored_summary(stored))
        return sorted(found.values(), key=lambda run: (run["created"] or "", run["id"]))

    def find(self, run_id: str) -> RunRecord | dict[str, Any]:
        """A run of this server (its record) or of a library (as the store gives it, with its trials)."""
        if run_id in self.own.runs:
            return self.own.get(run_id)
        for library in self.libraries:
            stored = library.run(run_id)
            if stored is not None:
                return stored
        raise NotFound(f"no run {run_id[:80]!r}")

    def describe(self, run_id: str) -> dict[str, Any]:
        found = self.find(run_id)
        return describe(found) if isinstance(found, RunRecord) else stored_describe(found)

    def trials(self, run_id: str) -> list[Trial]:
        """What the figures need of each ended trial of a run."""
        found = self.find(run_id)
        if isinstance(found, RunRecord):
            return [
                Trial(found.scene, t.number, t.outcome, t.world_id, t.results or [])
                for t in found.trials
                if t.outcome is not None
            ]
        return [
            Trial(t["scene"], t["trial"], t["outcome"], t["folder"] or t.get("world", ""), _results(t["checks"]))
            for t in found["results"]
        ]

    def compare(self, a: str, b: str) -> dict[str, Any]:
        return compare_trials(self.trials(a), self.trials(b), a, b)


def summary(run: RunRecord) -> dict[str, Any]:
    """A run of this server as `GET /v1/runs` lists it."""
    figures = _figures(run) if run.status == "done" else []
    return {
        "id": run.id,
        "scene": run.scene,
        "trials": len(run.trials),
        "status": run.status,
        "metadata": run.metadata,
        "created": run.created,
        "source": "http",
        "agent": "http",
        "scenes": [run.scene],
        "finished": run.finished,
        "exit_code": run.exit_code() if run.status == "done" else None,
        "scene_figures": [_brief(f) for f in figures],
    }


def describe(run: RunRecord) -> dict[str, Any]:
    """A run of this server, with its trials, as `GET /v1/runs/<id>` answers."""
    figures = _figures(run) if run.status == "done" else []
    return {
        **summary(run),
        "results": [{"scene": run.scene, **trial.brief()} for trial in run.trials],
        "figures": figures[0] if figures else None,
        "scene_figures": figures,
    }


def stored_summary(run: dict[str, Any]) -> dict[str, Any]:
    """A run of `soundstage run` (as the store lists it) as `GET /v1/runs` lists runs."""
    names = [f["scene"] for f in run.get("figures") or []] or [Path(source).stem for source in run["scenes"]]
    return {
        "id": run["run_id"],
        "scene": names[0] if len(names) == 1 else None,
        "trials": run["trials"],
        "status": "running" if run["exit_code"] is None else "done",
        "metadata": {},
        "created": run["started_at"],
        "source": "cli",
        "agent": run["agent"],
        "scenes": names,
        "finished": run["finished_at"],
        "exit_code": run["exit_code"],
        "scene_figures": [_brief(f) for f in run.get("figures") or []],
    }


def stored_describe(run: dict[str, Any]) -> dict[str, Any]:
    """A run of `soundstage run`, with its trials, as `GET /v1/runs/<id>` answers."""
    trials = [Trial(t["scene"], t["trial"], t["outcome"], t["folder"], _results(t["checks"])) for t in run["results"]]
    figures = run_figures(trials)
    head = stored_summary({**run, "figures": figures})
    return {
        **head,
        "folder": run["folder"],
        "results": [
            {
                "scene": t["scene"],
                "trial": t["trial"],
                "world": t.get("world"),
                "outcome": t["outcome"],
                "finish_reason": t.get("finish_reason"),
                "checks": t["checks"],
                **_trust(t, run.get("evaluation", 0)),
            }
            for t in run["results"]
        ],
        "figures": figures[0] if len(figures) == 1 else None,
        "scene_figures": figures,
        # Re-scorings of the run's trials (`soundstage check RUN`), when the store holds any; the run's own
        # grading is what this answer shows.
        "evaluations": run.get("evaluations", []),
    }


def stored_trial(run: dict[str, Any], scene: str, number: int) -> dict[str, Any]:
    """A trial of a run of `soundstage run`: its entry of `results` with what its folder holds (trace, events,
    diff, output; null when the folder cannot be read here: a shared store, another machine), and `notes`: what
    a reader should know before trusting its grade, and what reading its files left out."""
    trial = next((t for t in run["results"] if t["scene"] == scene and t["trial"] == number), None)
    if trial is None:
        raise NotFound(f"run {run['run_id']} has no trial {number} of scene {scene[:80]!r}")
    folder = Path(trial["folder"]) if trial["folder"] else None
    answer = {key: trial.get(key) for key in ("scene", "trial", "world", "outcome", "finish_reason", "checks")}
    answer.update(_trust(trial, run.get("evaluation", 0)))
    if folder is None or not (folder / "result.json").is_file():
        return {**answer, "trace": None, "events": None, "diff": None, "output": None, "folder": trial["folder"]}
    saved = read_trial(folder)
    return {
        **answer,
        "trace": saved["trace"],
        "events": saved["events"],
        "diff": saved["diff"],
        "output": saved["output"],
        "notes": [*answer["notes"], *saved["notes"]],  # and what reading its files left out
        "folder": trial["folder"],
    }


def _trust(trial: dict[str, Any], evaluation: int) -> dict[str, Any]:
    """How far a stored trial's grade can be trusted: the sandbox its agent had, the failure of soundstage's own
    that made it invalid, its files changed since it was graded (None: no digests recorded), and these in
    words (`notes`)."""
    found = {
        "sandbox": trial.get("sandbox"),
        "infrastructure": trial.get("infrastructure"),
        "changed_since_graded": changed_since_graded(trial),
    }
    return {**found, "notes": trust_notes({**trial, **found}, evaluation)}


def _figures(run: RunRecord) -> list[dict[str, Any]]:
    return run_figures([Trial(run.scene, t.number, t.outcome or "", t.world_id, t.results or []) for t in run.trials])


def _brief(figures: dict[str, Any]) -> dict[str, Any]:
    """A scene's figures without each check's."""
    return {key: value for key, value in figures.items() if key != "checks"}


def _results(raw: list[dict[str, Any]]) -> list[CheckResult]:
    try:
        return _CHECKS.validate_python(raw)
    except ValidationError as exc:
        raise UsageError(f"a stored check result does not read back: {exc.errors()[0]['msg']}") from None
