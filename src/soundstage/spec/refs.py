"""Refs: `$name` anywhere in a file means the id of the record given `ref: name`.

A ref name is a letter or `_`, then letters, digits, `_`, `.` and `-`, so text such as `$100` stays text.
"""

from __future__ import annotations

import re
from typing import Any

PathPart = str | int
Path = tuple[PathPart, ...]
Problem = tuple[Path, str]  # where inside the value, and what is wrong there

_REF = re.compile(r"^\$([A-Za-z_][A-Za-z0-9_.-]*)$")


class RefError(ValueError):
    """An unknown ref, at `path` inside the value being resolved."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def ref_name(value: Any) -> str | None:
    """The name a `$name` string refers to; None for anything else."""
    match = _REF.match(value) if isinstance(value, str) else None
    return match[1] if match else None


def resolve_refs(value: Any, refs: dict[str, str], path: Path = (), problems: list[Problem] | None = None) -> Any:
    """`value` with every `$name` string inside it (keys included) replaced by `refs[name]`. An unknown name
    is raised as a RefError, or, when `problems` is given, added to it (and left as written) so that every
    unknown name can be reported at once."""
    if isinstance(value, str):
        name = ref_name(value)
        if name is None:
            return value
        if name not in refs:
            message = f"unknown ref {value} (known refs: {known_refs(refs)})"
            if problems is None:
                raise RefError(message, path)
            problems.append((path, message))
            return value
        return refs[name]
    if isinstance(value, list):
        return [resolve_refs(item, refs, path + (i,), problems) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return {
            resolve_refs(k, refs, path, problems): resolve_refs(v, refs, path + (k,), problems)
            for k, v in value.items()
        }
    return value


def known_refs(refs: dict[str, str]) -> str:
    """Some of the refs there are, for an error message: `$bot, $laura, $support ...`."""
    listed = sorted(refs)
    return ", ".join("$" + n for n in listed[:12]) + (" ..." if len(listed) > 12 else "") if listed else "none"
