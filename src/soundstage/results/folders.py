"""Reading run folders as `soundstage run` writes them (docs/cli.md, "Run folders"): a run with its trials, a
trial's log, the digests a run recorded of a trial, and a folder of runs as a library of runs.

A run folder holds `run.json` once the run has ended, and `<scene>/<trial>/result.json` for each trial that
ended; a run stopped early has trial folders only, and is read from them.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import NotFound, UsageError
from ..events import JsonLines
from .files import RESULT_FILE, RUN_FILE, read_run_json, read_trial
from .log import TrialLog
from .names import record_names
from .run import ListedRun, Run
from .trial import Trial

# A run folder's name is when it started, in the machine's local time: `YYYYMMDD-HHMMSS[-N]`.
_STAMP = re.compile(r"^(\d{8}-\d{6})(?:-\d+)?$")
# How much of an agent's stderr (`agent.log`) a trial's log keeps: its end, where a traceback is.
STDERR_LIMIT = 64 * 1024


def read_run(folder: Path) -> Run:
    """A run folder: its `run.json` (or, for a run stopped before writing one, what its trials tell), with each
    trial that ended, by scene and trial number: its check results, the folder it is in now (the run may have
    moved since) and the digests `run.json` recorded of its files (None without). Raises NotFound for a folder
    with no ended trial."""
    saved = read_run_json(folder)
    recorded = {(trial.scene, trial.trial): trial.digests for trial in saved.results} if saved else {}
    results = [
        trial.model_copy(update={"digests": recorded.get((trial.scene, trial.trial))}) for trial in _ended(folder)
    ]
    return _head(folder, saved, results).model_copy(update={"results": results})


def _ended(folder: Path) -> list[Trial]:
    if not folder.is_dir():
        raise NotFound(f"{folder}: no such run folder")
    trials = [read_trial(result.parent) for result in folder.glob(f"*/*/{RESULT_FILE}")]
    if not trials:
        raise NotFound(f"{folder}: not a run folder with finished trials (<scene>/<trial>/{RESULT_FILE})")
    return sorted(trials, key=lambda trial: (trial.scene, trial.trial))


def _head(folder: Path, saved: Run | None, results: list[Trial]) -> Run:
    """A run without its trials, from its `run.json`; a run without one has what its `results` tell."""
    if saved is not None:
        started_at = saved.started_at or started(folder.name)  # run.json said no time before version 1
        return saved.model_copy(update={"folder": str(folder), "started_at": started_at, "results": []})
    return Run(
        run_id=folder.name,
        folder=str(folder),
        agent="",
        scenes=list(dict.fromkeys(trial.scene for trial in results)),
        trials=max((trial.trial for trial in results), default=0),
        started_at=started(folder.name),
    )


def started(name: str) -> datetime | None:
    """When a run started, from its folder's name (local time, taken as UTC: the folder says no zone)."""
    match = _STAMP.match(name)
    if match is None:
        return None
    return datetime.strptime(match.group(1), "%Y%m%d-%H%M%S").replace(tzinfo=UTC)


def run_folders(out: Path) -> list[Path]:
    """The run folders under `out`: those with ended trials, newest name first."""
    if not out.is_dir():
        return []
    # A run that ended has run.json; only one stopped early is looked into, up to its first ended trial.
    found = [
        run
        for run in out.iterdir()
        if run.is_dir() and ((run / RUN_FILE).is_file() or next(run.glob(f"*/*/{RESULT_FILE}"), None) is not None)
    ]
    return sorted(found, reverse=True)


def latest_run(out: Path = Path("runs")) -> Path:
    """The run folder under `out` written last: by its `run.json`, or for a run that was stopped before it
    wrote one, by the newest `events.jsonl` of its trials."""
    written: dict[Path, int] = {}
    for path in [*out.glob(f"*/{RUN_FILE}"), *out.glob("*/*/*/events.jsonl")]:
        run = path.parent if path.name == RUN_FILE else path.parent.parent.parent
        written[run] = max(written.get(run, 0), path.stat().st_mtime_ns)
    if not written:
        raise NotFound(f"no runs in {out}/ (a run folder holds run.json, or trial folders)")
    return max(written, key=lambda run: written[run])


def trial_folders(path: Path) -> list[Path]:
    """The trial folders of a run folder, by scene and trial number; a trial folder by itself. A trial folder
    holds `result.json`, or only `events.jsonl` when the run was stopped before the trial ended."""
    if _is_trial(path):
        return [path]
    if not path.is_dir():
        raise NotFound(f"{path}: no such run or trial folder")
    trials = sorted(
        (found for found in path.glob("*/*") if _is_trial(found)), key=lambda t: (t.parent.name, _number(t.name))
    )
    if not trials:
        raise NotFound(
            f"{path}: neither a trial folder (with result.json or events.jsonl) "
            "nor a run folder (with <scene>/<trial>/)"
        )
    return trials


def interrupted(trial: Path) -> bool:
    """Whether the run ended before this trial did (killed, or still running): its folder has no result.json."""
    return not (trial / RESULT_FILE).is_file()


def _is_trial(path: Path) -> bool:
    return (path / RESULT_FILE).is_file() or (path / "events.jsonl").is_file()


def _number(name: str) -> int:
    return int(name) if name.isdigit() else 0


def recorded_digests(trial: Path) -> dict[str, str] | None:
    """The digests of a trial folder's files its run recorded in `run.json`, if that holds the trial."""
    try:
        run = read_run_json(trial.parent.parent)
    except UsageError:
        return None
    number = int(trial.name) if trial.name.isdigit() else None
    found = next((t for t in run.results if (t.scene, t.trial) == (trial.parent.name, number)), None) if run else None
    return found.digests if found is not None and found.digests else None


def read_log(folder: Path) -> TrialLog:
    """A trial folder's log: its calls (`trace.jsonl`), every event (`events.jsonl`), `diff.json`, `output.txt`,
    the agent's stderr (`agent.log`, its last `STDERR_LIMIT` bytes) and its records' names (from `state.json`
    and `diff.json`), and notes saying what was left out (a last line cut short, the start of a long stderr, a
    state that is not JSON). Missing files read as empty."""
    if not (folder / RESULT_FILE).is_file():
        raise NotFound(f"{folder}: not a trial folder that ended (no {RESULT_FILE})")
    trace, events = JsonLines(folder / "trace.jsonl"), JsonLines(folder / "events.jsonl")
    diff = json.loads((folder / "diff.json").read_text(encoding="utf-8")) if (folder / "diff.json").is_file() else {}
    stderr, stderr_note = _tail(folder / "agent.log", STDERR_LIMIT)
    names, names_note = _names(folder / "state.json", diff)
    return TrialLog(
        trace=_lines(trace),
        events=_lines(events),
        diff=diff,
        output=(folder / "output.txt").read_text(encoding="utf-8") if (folder / "output.txt").is_file() else "",
        stderr=stderr,
        names=names,
        notes=[note for note in (trace.cut_short, events.cut_short, stderr_note, names_note) if note],
    )


def _tail(path: Path, limit: int) -> tuple[str, str | None]:
    """A file's last `limit` bytes as text (bytes that are not UTF-8 replaced), and a note when it has more."""
    if not path.is_file():
        return "", None
    with path.open("rb") as file:
        size = file.seek(0, 2)
        file.seek(max(0, size - limit))
        text = file.read().decode("utf-8", "replace")
    if size <= limit:
        return text, None
    return text, f"{path.name}: {size:,} bytes; only its last {limit:,} are shown"


def _names(state: Path, diff: dict[str, Any]) -> tuple[dict[str, str], str | None]:
    """The names of a trial's records, and a note when its `state.json` cannot be read as JSON."""
    if not state.is_file():
        return record_names({}, diff), None
    try:
        return record_names(json.loads(state.read_bytes()), diff), None
    except ValueError:
        return {}, f"{state.name}: not JSON, so its records are shown by their ids alone"


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
    """The run folders under `out`, and any `extra` run folders, as a library of runs (`library.RunLibrary`)."""

    def __init__(self, out: Path | None = None, extra: list[Path] | None = None) -> None:
        self.out = out
        self.extra = extra or []

    def folders(self) -> dict[str, Path]:
        """Each run's folder by its id (the folder's name); an `extra` folder wins over one of `out`."""
        found = {folder.name: folder for folder in run_folders(self.out)} if self.out is not None else {}
        found.update({folder.name: folder for folder in self.extra})
        return found

    def runs(self) -> list[ListedRun]:
        """Every run, from its `run.json` (its trial folders are read only for a run that has none)."""
        listed = []
        for folder in self.folders().values():
            saved = read_run_json(folder)
            trials = saved.results if saved is not None else read_run(folder).results
            listed.append(
                ListedRun(
                    run=_head(folder, saved, trials),
                    trials_written=len(trials),
                    trials_passed=sum(trial.outcome == "passed" for trial in trials),
                )
            )
        return listed

    def run(self, run_id: str) -> Run | None:
        folder = self.folders().get(run_id)
        return read_run(folder) if folder is not None else None
