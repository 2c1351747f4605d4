"""`soundstage validate FILE...`: scenes, world definitions, suites, check libraries and project files, each
told by its content and checked as a run would load it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..stage.validate import Validated, validated
from .config import refused_project
from .output import JsonOption, emit, finish, handles_errors, next_step, quote, say

# The kinds of file `soundstage run` takes.
RUNNABLE = ("scene", "suite")


@handles_errors("validate", refusing=False)
def validate(
    files: Annotated[
        list[Path],
        typer.Argument(help="Scenes, world definitions, suites, check libraries, project files.", show_default=False),
    ],
    json_output: JsonOption = False,
) -> None:
    """Check scenes, worlds, suites, check libraries and project files: each told by its content; every error
    with its file, line and field.

    Runs even when the project file in effect does not load (every other command refuses to): the files are read
    without it, and its problems are reported too."""
    broken = refused_project()
    found = [validated(path, "project" if broken and _same(path, broken) else None) for path in files]
    if broken is not None and not any(_same(path, broken) for path in files):
        found.append(validated(broken, "project"))
    bad = [checked.file for checked in found if not checked.ok]
    if json_output:
        emit({"ok": not bad, "files": [_record(checked) for checked in found]})
    else:
        for checked in found:
            if checked.ok:
                say(f"{checked.file}: ok ({checked.kind})")
            for error in checked.errors:
                say(str(error))
            for warning in checked.warnings:
                say(f"warning: {warning}")
        next_step(f"soundstage validate {quote(*bad)}" if bad else _next_ok(found))
    finish(2 if bad else 0)


def _same(path: Path, other: Path) -> bool:
    return path.resolve() == other.resolve()


def _record(checked: Validated) -> dict[str, object]:
    return {
        "file": checked.file,
        "kind": checked.kind,
        "ok": checked.ok,
        "errors": [error.to_dict() for error in checked.errors],
        "warnings": [warning.to_dict() for warning in checked.warnings],
    }


def _next_ok(found: list[Validated]) -> str:
    runnable = [checked.file for checked in found if checked.kind in RUNNABLE]
    return f"soundstage run {quote(*runnable)} --agent 'python agent.py'" if runnable else "soundstage list"
