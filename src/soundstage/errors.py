"""Errors of the engine itself (vendor errors live in each service's `errors.py`).

SoundstageError
 ├── SpecError           a world, scene or check file is invalid (file, line, field)
 ├── UsageError          a command or control-API call was asked for something it cannot do
 │    └── NotFound       no such world, scene or trial
 └── InfrastructureError the run could not be carried out (server, results store, judge model)
"""

from __future__ import annotations


class SoundstageError(Exception):
    """Base of every error soundstage raises on purpose."""

    exit_code = 3


class SpecError(SoundstageError):
    """An invalid world, scene or check file; names the file, line and field path."""

    exit_code = 2

    def __init__(self, message: str, file: str = "", line: int | None = None, field: str = "") -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
        if self.field:
            where += f": {self.field}"
        return f"{where}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "field": self.field, "message": self.message}


class UsageError(SoundstageError):
    exit_code = 2


class NotFound(UsageError):
    pass


class InfrastructureError(SoundstageError):
    exit_code = 3
