"""Digests of a trial folder's files (docs/cli.md, "Tampering"): what a trial was graded from, so that a reader
can tell which of its files changed since.

The run records each file's SHA-256 as it writes it (the logs line by line), so that a file changed even while
the trial ran is told apart; they go to `run.json` and the results store, never to the folder itself.
`soundstage check RUN`, `show`, `load` and the viewer compare them with the files as they are now.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .checks.results import CheckResult

# Read in pieces of this many bytes: an events.jsonl may be large.
CHUNK = 1 << 20


def folder_digests(folder: Path) -> dict[str, str]:
    """`sha256:<hex>` of each file directly in `folder`, by name, in name order."""
    found = {}
    for path in sorted(folder.iterdir()):
        if path.is_file():
            found[path.name] = file_digest(path)
    return found


def bytes_digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as data:
        while chunk := data.read(CHUNK):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def changed_files(folder: Path, recorded: dict[str, str]) -> list[str]:
    """The files of `folder` that differ from the digests `recorded` when it was graded: changed, missing or
    added since, by name. Empty when the folder is as it was graded."""
    try:
        now = folder_digests(folder)
    except OSError:
        return sorted(recorded)  # the folder itself is gone or unreadable: nothing of it can be trusted
    return sorted(name for name in recorded.keys() | now.keys() if recorded.get(name) != now.get(name))


def tampering_note(changed: list[str]) -> str:
    """One line saying which files changed since the trial was graded."""
    return f"changed since it was graded: {', '.join(changed)}"


def recorded_in_run(trial: Path) -> dict[str, str] | None:
    """The digests a trial folder's run recorded in its `run.json`, if it holds the trial."""
    try:
        run = json.loads((trial.parent.parent / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for result in run.get("results", []) if isinstance(run, dict) else []:
        if isinstance(result, dict) and (result.get("scene"), result.get("trial")) == (
            trial.parent.name,
            _number(trial),
        ):
            digests = result.get("digests")
            return digests if isinstance(digests, dict) and digests else None
    return None


def changed_since_graded(trial: dict[str, Any]) -> list[str] | None:
    """The files of a stored trial (`folder`, `digests`) that changed since it was graded; None when that
    cannot be told: its digests were not recorded (a run before they were, or one stopped before the trial
    ended), or its folder is not here (a shared store read on another machine)."""
    digests = trial.get("digests")
    if not digests or not trial.get("folder") or not Path(trial["folder"]).is_dir():
        return None
    return changed_files(Path(trial["folder"]), digests)


def trust_notes(trial: dict[str, Any], evaluation: int = 0) -> list[str]:
    """What a reader should know before trusting a stored trial's grade (`trial` as the store gives it, with
    `changed_since_graded`): the failure of soundstage's own that made it invalid, no sandbox, its files
    changed since it was graded, a stored outcome (under the run's own grading, `evaluation` 0) that its
    result.json, unchanged since, does not have: the store was written by something else."""
    notes = []
    if trial.get("infrastructure"):
        notes.append(f"invalid, not the agent's doing: {trial['infrastructure']}")
    if trial.get("sandbox") == "none":
        notes.append("the agent ran without a sandbox: it could read and change files of this run")
    changed = trial.get("changed_since_graded")
    if changed:
        notes.append(tampering_note(changed))
    elif changed == [] and evaluation == 0:
        try:
            saved = json.loads((Path(trial["folder"]) / "result.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = None
        if isinstance(saved, dict) and saved.get("outcome") != trial.get("outcome"):
            notes.append(
                f"the store says {trial.get('outcome')}, but its result.json, unchanged since, says "
                f"{saved.get('outcome')}: the store was changed outside soundstage"
            )
    return notes


def files_unchanged(changed: list[str]) -> CheckResult:
    """What a re-scoring gives a trial whose files changed since it was graded, instead of scoring them: a
    check of soundstage's own that could not be carried out, so the trial is `invalid`."""
    return CheckResult(
        id="files_unchanged",
        kind="integrity",
        required=True,
        passed=None,
        score=None,
        expected="the trial's files as they were when it was graded",
        actual=tampering_note(changed),
        explanation=f"Not scored: its files {tampering_note(changed)}; their lines cannot be trusted.",
        evidence=[],
        source="soundstage",
        invalid=True,
    )


def _number(trial: Path) -> int | None:
    return int(trial.name) if trial.name.isdigit() else None
