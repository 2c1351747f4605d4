"""Whether a stored grade can be trusted (docs/cli.md, "Tampering"): which files of a trial changed since it was
graded, what a reader should know before trusting its grade, and the result a trial whose files changed gets
instead of a score."""

from __future__ import annotations

from pathlib import Path

from ..checks.results import CheckResult
from ..errors import UsageError
from .digests import changed_files
from .files import read_trial
from .trial import Trial, unscored


def changed_since_graded(trial: Trial) -> list[str] | None:
    """The files of a stored trial that changed since it was graded; None when that cannot be told: its digests
    were not recorded (a run before they were, or one stopped before the trial ended), or its folder is not
    here (a shared store read on another machine)."""
    if not trial.digests or not trial.folder or not Path(trial.folder).is_dir():
        return None
    return changed_files(Path(trial.folder), trial.digests)


def trust_notes(trial: Trial, changed: list[str] | None, evaluation: int = 0) -> list[str]:
    """What a reader should know before trusting a stored trial's grade: the failure of soundstage's own that
    made it invalid, no sandbox, its files `changed` since it was graded, a stored outcome (under the run's own
    grading, `evaluation` 0) that its result.json, unchanged since, does not have: the store was written by
    something else."""
    notes = []
    if trial.infrastructure:
        notes.append(f"invalid, not the agent's doing: {trial.infrastructure}")
    if trial.sandbox == "none":
        notes.append("the agent ran without a sandbox: it could read and change files of this run")
    if changed:
        notes.append(tampering_note(changed))
    elif changed == [] and evaluation == 0:
        try:
            saved = read_trial(Path(trial.folder)).outcome
        except UsageError:
            saved = None
        if saved is not None and saved != trial.outcome:
            notes.append(
                f"the store says {trial.outcome}, but its result.json, unchanged since, says {saved}: "
                "the store was changed outside soundstage"
            )
    return notes


def tampering_note(changed: list[str]) -> str:
    """One line saying which files changed since the trial was graded."""
    return f"changed since it was graded: {', '.join(changed)}"


def files_unchanged(changed: list[str]) -> CheckResult:
    """What a re-scoring gives a trial whose files changed since it was graded, instead of scoring them: a
    check of soundstage's own that could not be carried out, so the trial is `invalid`."""
    return unscored(
        "files_unchanged",
        "the trial's files as they were when it was graded",
        tampering_note(changed),
        f"Not scored: its files {tampering_note(changed)}; their lines cannot be trusted.",
    )
