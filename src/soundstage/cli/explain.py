"""`soundstage explain [TRIAL_DIR or RUN_DIR]`: why trials failed, with the log entries behind each check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import TypeAdapter, ValidationError

from ..checks import CheckResult
from ..errors import UsageError
from ..runner import how_the_agent_ended, interrupted, latest_run, trial_folders
from .output import JsonOption, emit, handles_errors, next_step, quote, say

_OBJECT = TypeAdapter(dict[str, Any])  # result.json, run.json, a line of events.jsonl
_CHECKS = TypeAdapter(list[CheckResult])  # checks.json


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
        next_step(f"soundstage run {quote(*run['scenes'])} --agent {quote(run['agent'])}")
    else:
        next_step(f"soundstage check {quote(str(folder))} --checks checks.yaml")


def _explain(folder: Path) -> dict[str, Any]:
    if interrupted(folder):
        return _interrupted(folder)
    result = _read_json(folder / "result.json", _OBJECT)
    failed = [check for check in _read_json(folder / "checks.json", _CHECKS) if check.passed is not True]
    events = _events(folder / "events.jsonl", {seq for check in failed for seq in check.evidence})
    return {
        "folder": str(folder),
        "scene": result.get("scene"),
        "trial": result.get("trial"),
        "outcome": result.get("outcome"),
        "timed_out": result.get("timed_out", False),
        "interrupted": False,
        "finished": True,
        "agent": _agent(result),
        "agent_log": str(folder / "agent.log"),
        "failed": [
            {**check.model_dump(mode="json"), "entries": [events[seq] for seq in check.evidence if seq in events]}
            for check in failed
        ],
    }


def _agent(result: dict[str, Any]) -> str | None:
    """How the agent ended, when it crashed or exited with an error (result.json's exit_code and killed)."""
    exit_code, killed = result.get("exit_code"), result.get("killed", False)
    return how_the_agent_ended(exit_code, bool(killed)) if isinstance(exit_code, int) else None


def _interrupted(folder: Path) -> dict[str, Any]:
    """A trial the run never finished writing: what its folder says of it, no checks (none were run)."""
    scene = folder / "scene.json"
    name = _read_json(scene, _OBJECT).get("name") if scene.is_file() else None
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
        "failed": [],
    }


def _has_finish(path: Path) -> bool:
    """Whether the log has its `finish` event (the last one, when there is one)."""
    last = b""
    with path.open("rb") as lines:
        for line in lines:
            if line.strip():
                last = line
    try:
        return bool(last) and _OBJECT.validate_json(last).get("kind") == "finish"
    except ValidationError:
        return False


def _read_json(path: Path, shape: TypeAdapter[Any]) -> Any:
    try:
        return shape.validate_json(path.read_bytes())
    except FileNotFoundError:
        raise UsageError(f"{path}: missing; is {path.parent} a complete trial folder?") from None
    except ValidationError as exc:
        raise UsageError(f"{path}: not what soundstage writes there ({exc.errors()[0]['msg']})") from None


def _events(path: Path, seqs: set[int]) -> dict[int, dict[str, Any]]:
    """The events of the log whose seq is wanted, read line by line (a log may be long)."""
    found: dict[int, dict[str, Any]] = {}
    if not seqs or not path.is_file():
        return found
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                event = _OBJECT.validate_json(line) if line.strip() else {}
            except ValidationError:
                raise UsageError(f"{path}:{number}: not an event of the log") from None
            if event.get("seq") in seqs:
                found[event["seq"]] = event
    return found


def _run_record(folder: Path) -> dict[str, Any] | None:
    """The run.json of a run folder, or of the run a trial folder belongs to."""
    for candidate in (folder / "run.json", folder.parent.parent / "run.json"):
        if candidate.is_file():
            return _read_json(candidate, _OBJECT)
    return None


def _print(trial: dict[str, Any]) -> None:
    note = " (the agent timed out)" if trial["timed_out"] else ""
    say(f"{trial['scene']} #{trial['trial']}: {trial['outcome']}{note}  [{trial['folder']}]")
    if trial["interrupted"]:
        missing = "no result.json" if trial["finished"] else "no result.json, no finish event in events.jsonl"
        say(f"  the run ended before this trial did ({missing}); its checks were never run")
        say(f"  score what was recorded: soundstage check {quote(trial['folder'])}")
    if trial["agent"]:
        say(f"  {trial['agent']}; its stderr: {trial['agent_log']}")
    if trial["outcome"] == "passed":
        say("  every required check passed")
    if trial["outcome"] == "ungraded":
        say("  the scene has no checks")
    for check in trial["failed"]:
        state = "undecided" if check["passed"] is None else "failed"
        required = "" if check["required"] else ", not required"
        say(f"  {check['id']} ({check['kind']}): {state}{required}")
        say(f"    expected:    {check['expected']}")
        say(f"    actual:      {check['actual']}")
        say(f"    explanation: {check['explanation']}")
        for entry in check["entries"]:
            say(f"    {_entry_line(entry)}")
    say()


def _entry_line(event: dict[str, Any]) -> str:
    """One log entry in a line: a call as `#seq time service METHOD path status [error=code]`."""
    head = f"#{event.get('seq')} {event.get('t')}"
    if event.get("kind") == "call":
        line = f"{head} {event.get('service')} {event.get('method')} {event.get('path')} {event.get('status')}"
        response = event.get("response")
        if isinstance(response, dict) and response.get("ok") is False:  # Slack answers errors with 200
            line += f" error={response.get('error')}"
        return line
    if event.get("kind") == "write":
        fields = f" ({', '.join(event['fields'])})" if event.get("fields") else ""
        by = f", by #{event['by']}" if event.get("by") else ""
        return f"{head} {event.get('collection')} {event.get('id')} {event.get('op')}{fields}{by}"
    said = _PEOPLE_LINES.get(event.get("kind", ""))
    if said is not None:
        return f"{head} {event['kind']} " + said.format_map(_Blank({**event, "text": _short(event.get("text"))}))
    rest = {k: v for k, v in event.items() if k not in ("seq", "t", "kind")}
    details = json.dumps(rest, ensure_ascii=False, separators=(",", ":"))
    return f"{head} {event.get('kind')} {details if len(details) <= 160 else details[:157] + '...'}"


# What passed between the agent and the people, one readable line per kind (ids as the log has them).
_PEOPLE_LINES = {
    "message": "{user} in {channel} to [{to}] carrying [{facts}]: {text}",
    "asked": "{by} asked {person} for {fact}{decision}",
    "revealed": "{person} shared {fact} with {to}",
    "withheld": "{person} withheld {fact} from {to} ({reason})",
    "referred": "{person} sent {to} to {owner} for {fact}",
    "told": "{person} was told {fact} by the agent",
    "knows": "{person} knows {fact} (from {source})",
    "decided": "{person} decided {decision}: {option}",
    "script": "{person} in {channel}: {text}",
}


class _Blank(dict):  # type: ignore[type-arg]
    """Fields a line names but an event lacks read as nothing; lists read comma-joined."""

    def __missing__(self, key: str) -> str:
        return ""

    def __getitem__(self, key: str) -> object:
        value = super().__getitem__(key)
        if value is None:
            return ""
        return ", ".join(map(str, value)) if isinstance(value, list) else value


def _short(text: object, width: int = 80) -> str:
    words = json.dumps(text or "", ensure_ascii=False)
    return words if len(words) <= width else words[: width - 4] + '..."'
