"""`soundstage validate FILE...`: world and scene files checked as a run would load them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..people.narrow import narrow_asks
from ..spec.loader import read_document
from ..stage.validate import is_scene, validate_file
from .output import JsonOption, emit, finish, handles_errors, next_step, quote, say


@handles_errors("validate")
def validate(
    files: Annotated[list[Path], typer.Argument(help="World definitions and scenes.", show_default=False)],
    json_output: JsonOption = False,
) -> None:
    """Check world and scene files: schema, refs, check ids, pass list. Errors name file, line and field."""
    found = {str(path): validate_file(path) for path in files}
    warned = {str(path): narrow_asks(path) for path in files}  # not errors: the exit code ignores them
    bad = [file for file, errors in found.items() if errors]
    if json_output:
        emit(
            {
                "ok": not bad,
                "files": [
                    {
                        "file": file,
                        "ok": not errors,
                        "errors": [e.to_dict() for e in errors],
                        "warnings": [w.to_dict() for w in warned[file]],
                    }
                    for file, errors in found.items()
                ],
            }
        )
    else:
        for file, errors in found.items():
            if not errors:
                say(f"{file}: ok")
            for error in errors:
                say(str(error))
            for warning in warned[file]:
                say(str(warning))
        next_step(f"soundstage validate {quote(*bad)}" if bad else _next_ok(files))
    finish(2 if bad else 0)


def _next_ok(files: list[Path]) -> str:
    scenes = [str(path) for path in files if is_scene(read_document(path))]
    return f"soundstage run {quote(*scenes)} --agent 'python agent.py'" if scenes else "soundstage list"
