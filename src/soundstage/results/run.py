"""A run as it is saved (docs/cli.md, "Run folders", "The results store"): `Run` is what `run.json` holds, and
what the results store keeps of a run under one of its evaluations (`Evaluation`: its own grading, or a
`soundstage check RUN` re-scoring); and a run's exit code."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from .figures import SceneFigures
from .trial import Trial
from .version import VERSION, said


class Evaluation(BaseModel):
    """A grading of a run: 0 is its own (`run`), each `soundstage check RUN` adds the next, with the scenes'
    checks again (`scene`) or those of a file (`file`, `checks_file`)."""

    model_config = ConfigDict(defer_build=True)

    number: int
    checks_from: Literal["run", "scene", "file"]
    checks_file: str | None = None  # as given to `check --checks`
    created_at: datetime


class Run(BaseModel):
    """One run: what it ran, when, how it ended, each scene's figures and its trials (`results`, in scene and
    trial order), under one of its evaluations (`evaluation`; a run folder knows only its own, 0)."""

    model_config = ConfigDict(defer_build=True)

    version: int = VERSION
    run_id: str  # the run folder's name: YYYYMMDD-HHMMSS[-N], or run_<hex> for a run over HTTP
    folder: str  # "" for a run over HTTP
    agent: str  # the agent's command; "http" for a run over HTTP (its caller runs the agent)
    scenes: list[str]  # the scene files given, in order
    trials: int  # per scene
    strict: bool = False
    started_at: datetime | None = None  # None: a run folder that does not say (no run.json, named otherwise)
    finished_at: datetime | None = None  # None while it goes on, or when it was stopped
    sandbox: str | None = None  # what the machine gave the agents: bwrap | none; None: not recorded (the store)
    exit_code: int | None = None  # None while it goes on, or when it was stopped
    # Failures of soundstage's own that did not stop the run (the results store, run.json), one line each.
    infrastructure: list[str] = Field(default_factory=list)
    figures: list[SceneFigures] | None = None  # None: not computed (a run stopped before its end, read from folders)
    results: list[Trial] = Field(default_factory=list)
    evaluation: int = 0  # the one `figures` and the trials' check results are of
    evaluations: list[Evaluation] = Field(default_factory=list)  # the store's; a run folder has none listed

    @model_validator(mode="before")
    @classmethod
    def _version(cls, data: Any, info: ValidationInfo) -> Any:
        return said(data, info)


class ListedRun(BaseModel):
    """A run as a list of runs gives it: without its trials (`run.results` is empty), with how many were
    written and how many passed under its own grading."""

    model_config = ConfigDict(defer_build=True)

    run: Run
    trials_written: int
    trials_passed: int


def unimplemented(trials: Sequence[Trial]) -> int:
    """How many calls to endpoints soundstage does not implement the trials made."""
    return sum(trial.counts.unimplemented for trial in trials)


def exit_code(trials: Sequence[Trial], strict: bool = False, infrastructure: Sequence[str] = ()) -> int:
    """A run's exit code (docs/cli.md): 3 when a trial could not be judged or the machinery failed, else 4
    (`strict`, and an unimplemented endpoint was called), else 0 when every trial passed or is ungraded, else 1."""
    if infrastructure or any(trial.outcome == "invalid" for trial in trials):
        return 3
    if strict and unimplemented(trials):
        return 4
    return 0 if all(trial.outcome in ("passed", "ungraded") for trial in trials) else 1
