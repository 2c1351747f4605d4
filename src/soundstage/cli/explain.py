"""`soundstage explain [TRIAL_DIR or RUN_DIR]`: why trials failed, with the log entries behind each check."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from ..checks.explaining import check_lines
from ..errors import UsageError
from ..events import JsonLines, cut_short
from ..results import Counts, Run
from ..results.files import read_run_json, read_trial
from ..results.folders import interrupted, latest_run, trial_folders
from ..runner import how_the_agent_ended
from .output import JsonOption, emit, handles_errors, next_step, quote, say


@handles_errors("explain")
def explain(
    target: Annotated[
        Path | None,
        typer.Argument(
            help="A trial folder or a run folder (default: the latest run under ./runs).", show_default=False
        ),
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Print each failed check of each failed trial: expected, actual, explanation and its evidence."""
    folder = target if target is not None else latest_run()
    trials = [_explain(trial) for trial in trial_folders(folder)]
    run = _run_record(folder)
    if json_output:
        emit({"folder": str(folder), "trials": trials})
        return
    for trial in trials:
        _print(trial)
    stopped = [trial["folder"] for trial in trials if trial["interrupted"]]
    if stopped:
        next_step(f"soundstage check {quote(stopped[0])}")
    elif run is not None:
        next_step(f"soundstage run {quote(*run.scenes)} --agent {quote(run.agent)}")
    else:
        next_step(f"soundstage check {quote(str(folder))} --checks checks.yaml")


def _explain(folder: Path) -> dict[str, Any]:
    if interrupted(folder):
        return _interrupted(folder)
    result = read_trial(folder)
    failed = [check for check in result.checks if check.passed is not True]
    events = _events(folder / "events.jsonl", {seq for check in failed for seq in check.evidence})
    return {
        "folder": str(folder),
        "scene": result.scene,
        "trial": result.trial,
        "outcome": result.outcome,
        "timed_out": result.timed_out,
        "interrupted": False,
        "finished": True,
        "agent": how_the_agent_ended(result.exit_code, result.killed),
        "agent_log": str(folder / "agent.log"),
        "notes": _notes(folder / "events.jsonl"),
        "models": _models(result.counts),
        "failed": [
            {**check.model_dump(mode="json"), "entries": [events[seq] for seq in check.evidence if seq in events]}
            for check in failed
        ],
    }


def _interrupted(folder: Path) -> dict[str, Any]:
    """A trial the run never finished writing: what its folder says of it, no checks (none were run)."""
    scene = folder / "scene.json"
    name = _scene_name(scene) if scene.is_file() else None
    return {
        "folder": str(folder),
        "scene": name or folder.parent.name,
        "trial": int(folder.name) if folder.name.isdigit() else None,
        "outcome": "interrupted",
        "timed_out": False,
        "interrupted": True,
        "finished": _has_finish(folder / "events.jsonl"),
        "agent": None,
        "agent_log": str(folder / "agent.log"),
        "notes": _notes(folder / "events.jsonl"),
        "models": None,
        "failed": [],
    }


def _models(counts: Counts) -> str | None:
    """The agent's captured model calls in a line (docs/interception.md, "Model calls"); None without any."""
    if not counts.model_calls:
        return None
    capped = f", {counts.model_refused} refused at its token cap" if counts.model_refused else ""
    return f"model calls: {counts.model_calls}, {counts.model_tokens} tokens{capped}"


def _scene_name(path: Path) -> Any:
    """The scene's name, from the `scene.json` a trial writes first."""
    try:
        scene = json.loads(path.read_bytes())
    except ValueError as exc:
        raise UsageError(f"{path}: not valid JSON: {exc}") from None
    return scene.get("name") if isinstance(scene, dict) else None


def _events(path: Path, seqs: set[int]) -> dict[int, dict[str, Any]]:
    """The events of the log whose seq is wanted, read line by line (a log may be long)."""
    found: dict[int, dict[str, Any]] = {}
    if not seqs or not path.is_file():
        return found
    for event in _each(path):
        if event.get("seq") in seqs:
            found[event["seq"]] = event
    return found


def _has_finish(path: Path) -> bool:
    """Whether the log has its `finish` event (the last one, when there is one)."""
    last = deque(_each(path), maxlen=1)
    return bool(last) and last[0].get("kind") == "finish"


def _each(path: Path) -> Iterator[dict[str, Any]]:
    """Each event of a log, but for a last line cut short; a line that is none is a usage error naming the
    file and the line."""
    try:
        for number, event in JsonLines(path):
            if not isinstance(event, dict):
                raise UsageError(f"{path}:{number}: not an event of the log")
            yield event
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _notes(path: Path) -> list[str]:
    """What the trial's log lacks: a last line cut short (the run was stopped while writing it)."""
    note = cut_short(path) if path.is_file() else None
    return [note] if note else []


def _run_record(folder: Path) -> Run | None:
    """The run.json of a run folder, or of the run a trial folder belongs to."""
    for candidate in (folder, folder.parent.parent):
        found = read_run_json(candidate)
        if found is not None:
            return found
    return None


def _print(trial: dict[str, Any]) -> None:
    note = " (the agent timed out)" if trial["timed_out"] else ""
    say(f"{trial['scene']} #{trial['trial']}: {trial['outcome']}{note}  [{trial['folder']}]")
    for line in trial["notes"]:
        say(f"  {line}")
    if trial["interrupted"]:
        missing = "no result.json" if trial["finished"] else "no result.json, no finish event in events.jsonl"
        say(f"  the run ended before this trial did ({missing}); its checks were never run")
        say(f"  score what was recorded: soundstage check {quote(trial['folder'])}")
    if trial["agent"]:
        say(f"  {trial['agent']}; its stderr: {trial['agent_log']}")
    if trial["models"]:
        say(f"  {trial['models']}")
    if trial["outcome"] == "passed":
        say("  every required check passed")
    if trial["outcome"] == "ungraded":
        say("  the scene has no checks")
    for check in trial["failed"]:
        for line in check_lines(check, check["entries"]):
            say(f"  {line}")
    say()
