"""Reading run folders as `soundstage run` writes them (docs/cli.md, "Run folders"): a run as the results
store has it, and a trial's whole record (trace, events, checks, diff, output).

A run folder holds `run.json` once the run has ended, and `<scene>/<trial>/result.json` for each trial that
ended; a run stopped early has trial folders only, and is read from them.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import NotFound, UsageError
from .events import JsonLines

# A run folder's name is when it started, in the machine's local time: `YYYYMMDD-HHMMSS[-N]`.
_STAMP = re.compile(r"^(\d{8}-\d{6})(?:-\d+)?$")


def read_json(path: Path) -> Any:
    """A JSON file soundstage wrote; UsageError naming the file when it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise UsageError(f"{path}: not valid JSON: {exc}") from None


def read_results(run: Path) -> list[tuple[Path, dict[str, Any], list[dict[str, Any]]]]:
    """Each ended trial of a run folder: its folder, its `result.json` and its `checks.json` (empty when it
    has none), by scene and trial number. Raises NotFound for a folder with no ended trial."""
    if not run.is_dir():
        raise NotFound(f"{run}: no such run folder")
    found = []
    for path in run.glob("*/*/result.json"):
        result = read_json(path)
        if not isinstance(result, dict) or not isinstance(result.get("trial"), int) or "scene" not in result:
            raise UsageError(f"{path}: not a result.json soundstage writes")
        checks_file = path.parent / "checks.json"
        checks = read_json(checks_file) if checks_file.is_file() else []
        if not isinstance(checks, list):
            raise UsageError(f"{checks_file}: not a checks.json soundstage writes")
        found.append((path.parent, result, checks))
    if not found:
        raise NotFound(f"{run}: not a run folder with finished trials (<scene>/<trial>/result.json)")
    return sorted(found, key=lambda found: (str(found[1]["scene"]), found[1]["trial"]))


def read_run(run: Path) -> dict[str, Any]:
    """A run folder as the results store gives a run: its fields (from `run.json`, or from its trials when
    the run was stopped before writing one) and `results`, each trial with its `checks` and the `digests`
    of its files `run.json` recorded (None without)."""
    summary = read_json(run / "run.json") if (run / "run.json").is_file() else {}
    recorded = {
        (r.get("scene"), r.get("trial")): r.get("digests") for r in summary.get("results", []) if isinstance(r, dict)
    }
    # Each trial's folder as it is now (`result.json` has where it was written: the run may have moved since).
    results = [
        {**result, "folder": str(folder), "checks": checks, "digests": recorded.get((result["scene"], result["trial"]))}
        for folder, result, checks in read_results(run)
    ]
    return {**_head(run, results), "results": results}


def _head(run: Path, results: list[dict[str, Any]]) -> dict[str, Any]:
    """A run's fields, from its `run.json`; a run without one has those its `results` tell."""
    summary = read_json(run / "run.json") if (run / "run.json").is_file() else {}
    return {
        "run_id": summary.get("run_id", run.name),
        "folder": str(run),
        "agent": summary.get("agent", ""),
        "scenes": summary.get("scenes") or list(dict.fromkeys(str(result["scene"]) for result in results)),
        "trials": summary.get("trials") or max((result["trial"] for result in results), default=0),
        "strict": summary.get("strict", False),
        "exit_code": summary.get("exit_code"),
        "started_at": summary.get("started_at") or started(run.name),
        "finished_at": summary.get("finished_at"),
        "figures": summary.get("figures"),
    }


def started(name: str) -> str | None:
    """When a run started, from its folder's name (local time, taken as UTC: the folder says no zone)."""
    match = _STAMP.match(name)
    if match is None:
        return None
    return datetime.strptime(match.group(1), "%Y%m%d-%H%M%S").replace(tzinfo=UTC).isoformat().replace("+00:00", "Z")


def run_folders(out: Path) -> list[Path]:
    """The run folders under `out`: those with ended trials, newest name first."""
    if not out.is_dir():
        return []
    # A run that ended has run.json; only one stopped early is looked into, up to its first ended trial.
    found = [
        run
        for run in out.iterdir()
        if run.is_dir() and ((run / "run.json").is_file() or next(run.glob("*/*/result.json"), None) is not None)
    ]
    return sorted(found, reverse=True)


def read_trial(folder: Path) -> dict[str, Any]:
    """A trial folder's whole record: `result.json` with `checks`, `trace` (the calls), `events` (every event
    of the log), `diff`, `output`, and `notes` saying what was left out (a last line cut short). Missing
    files read as empty."""
    if not (folder / "result.json").is_file():
        raise NotFound(f"{folder}: not a trial folder that ended (no result.json)")
    result = read_json(folder / "result.json")
    trace, events = JsonLines(folder / "trace.jsonl"), JsonLines(folder / "events.jsonl")
    return {
        **result,
        "checks": read_json(folder / "checks.json") if (folder / "checks.json").is_file() else [],
        "trace": _lines(trace),
        "events": _lines(events),
        "diff": read_json(folder / "diff.json") if (folder / "diff.json").is_file() else {},
        "output": (folder / "output.txt").read_text(encoding="utf-8") if (folder / "output.txt").is_file() else "",
        "notes": [lines.cut_short for lines in (trace, events) if lines.cut_short],
    }


def _lines(lines: JsonLines) -> list[Any]:
    """Every value of a JSON-lines file (none when there is no file); a line that is not JSON, but for a
    last one cut short, is a usage error naming the file and the line."""
    if not lines.path.is_file():
        return []
    try:
        return [value for _, value in lines]
    except ValueError as exc:
        raise UsageError(str(exc)) from None


class FolderRuns:
    """The run folders under `out`, and any `extra` run folders, as a library of runs: the results store's
    reading methods (`runs`, `run`) over files."""

    def __init__(self, out: Path | None = None, extra: list[Path] | None = None) -> None:
        self.out = out
        self.extra = extra or []

    def folders(self) -> dict[str, Path]:
        """Each run's folder by its id (the folder's name); an `extra` folder wins over one of `out`."""
        found = {folder.name: folder for folder in run_folders(self.out)} if self.out is not None else {}
        found.update({folder.name: folder for folder in self.extra})
        return found

    def runs(self) -> list[dict[str, Any]]:
        """Every run, without its trials: from `run.json` (its trials are read only for a run that has none)."""
        listed = []
        for folder in self.folders().values():
            if (folder / "run.json").is_file():
                listed.append(_head(folder, []))
            else:
                listed.append({key: value for key, value in read_run(folder).items() if key != "results"})
        return listed

    def run(self, run_id: str) -> dict[str, Any] | None:
        folder = self.folders().get(run_id)
        return read_run(folder) if folder is not None else None
