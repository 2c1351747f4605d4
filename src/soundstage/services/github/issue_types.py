"""Issue types (`Task`, `Bug`, `Feature`), without HTTP: the types GitHub gives every organization,
which a world file's issues in an organization's repo may name. An organization's types are made
together, the first time one of its issues names one, so their ids do not depend on which is named.
Their names, descriptions and colours are GitHub's (as its recorded answers show them)."""

from __future__ import annotations

from ...world import Record
from .records import Records
from .store import ISSUE_TYPES

DEFAULTS = (
    ("Task", "A specific piece of work", "yellow"),
    ("Bug", "An unexpected problem or behavior", "red"),
    ("Feature", "A request, idea, or new functionality", "blue"),
)


def key(org: str, name: str) -> str:
    return f"{org}:{name}"


def issue_type(records: Records, org: str, name: str) -> Record | None:
    return records[ISSUE_TYPES].get(key(org, name))


def ensure(records: Records, org: Record) -> None:
    """The organization's default types, made once."""
    types = records[ISSUE_TYPES]
    if key(org["login"], DEFAULTS[0][0]) in types:
        return
    for name, description, color in DEFAULTS:
        ident, node = records.new_id("IssueType")
        record = {
            "id": ident,
            "node_id": node,
            "organization": org["login"],
            "name": name,
            "description": description,
            "color": color,
            "created_at": org["created_at"],
            "updated_at": org["created_at"],
            "is_enabled": True,
        }
        types.add(key(org["login"], name), record)
