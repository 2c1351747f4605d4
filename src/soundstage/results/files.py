"""The run folder's own files, written and read here alone (docs/cli.md, "Run folders"): `run.json` (the run,
its trials without their check results), each trial folder's `result.json` (the trial, without its check
results and digests) and `checks.json` (its check results). Each is indented JSON; a file that is not one
soundstage writes is a usage error naming it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError

from ..checks.results import CheckResult
from ..errors import UsageError
from .digests import bytes_digest
from .run import Run
from .trial import Trial
from .version import READ

RUN_FILE = "run.json"
RESULT_FILE = "result.json"
CHECKS_FILE = "checks.json"

_CHECKS = TypeAdapter(list[CheckResult], config=ConfigDict(defer_build=True))  # built by the first file read
Read = TypeVar("Read")


def encoded(data: Any) -> bytes:
    """Indented JSON, as soundstage writes the files of a trial folder."""
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


def write(path: Path, data: bytes) -> str:
    """Writes a file of a trial folder; answers its digest as written."""
    path.write_bytes(data)
    return bytes_digest(data)


def run_document(run: Run) -> dict[str, Any]:
    """A run as `run.json` (and `soundstage run --json`) has it: its trials without their check results, and no
    evaluations (a run folder holds only its own grading)."""
    return run.model_dump(
        mode="json", exclude={"evaluation": True, "evaluations": True, "results": {"__all__": {"checks"}}}
    )


def run_json(run: Run) -> bytes:
    return encoded(run_document(run))


def result_json(trial: Trial) -> bytes:
    return encoded(trial.model_dump(mode="json", exclude={"digests", "checks"}))


def checks_json(checks: list[CheckResult]) -> bytes:
    return encoded([check.model_dump(mode="json") for check in checks])


def read_trial(folder: Path) -> Trial:
    """A trial folder's `result.json`, with the check results of its `checks.json` (none without one: a
    trial that was not carried out has none) and the folder it is in now (it may have moved since)."""
    trial = _valid(folder / RESULT_FILE, lambda data: Trial.model_validate_json(data, context=READ))
    checks = _valid(folder / CHECKS_FILE, _CHECKS.validate_json) if (folder / CHECKS_FILE).is_file() else []
    return trial.model_copy(update={"folder": str(folder), "checks": checks})


def read_run_json(folder: Path) -> Run | None:
    """A run folder's `run.json`; None when it has none (the run was stopped before its end)."""
    path = folder / RUN_FILE
    return _valid(path, lambda data: Run.model_validate_json(data, context=READ)) if path.is_file() else None


def _valid(path: Path, validate: Callable[[bytes], Read]) -> Read:
    try:
        return validate(path.read_bytes())
    except FileNotFoundError:
        raise UsageError(f"{path}: missing; is {path.parent} a complete trial folder?") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        if error["type"] == "json_invalid":
            raise UsageError(f"{path}: not valid JSON: {error['ctx']['error']}") from None
        raise UsageError(f"{path}: not what soundstage writes there ({error['msg']})") from None
