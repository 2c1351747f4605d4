"""The shape of a JSON answer as facts: its key paths and each one's value format, and how an answer's
shape compares with a real recorded one. Shared by scripts/extract_recorded.py (which keeps the facts of
real responses in tests/services/recorded) and the test and docs that compare soundstage's answers with them.

A key path names a place in the document: keys joined by `.`, `[]` for any element of a list
(`channel.topic.value`, `items[].id`, `[]` alone for the elements of a top-level list). A key that is data
rather than a name (a tag, a group, an email used as a key) is spelled `{}`, so that no value leaks in.
A format is a JSON type, and for strings a class of the text: `string:iso8601-Z`, `string:uuid`...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
STRING_FORMATS = [
    ("iso8601-Z", re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z")),
    ("iso8601-offset", re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?[+-]\d\d:?\d\d")),
    ("iso8601-naive", re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?")),
    ("date", re.compile(r"\d{4}-\d\d-\d\d")),
    ("slack-ts", re.compile(r"\d{10}\.\d{6}")),
    ("epoch", re.compile(r"\d{10}")),
    ("hex-sha", re.compile(r"[0-9a-f]{40}")),
    ("uuid", re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")),
    ("url", re.compile(r"https?://\S+")),
    ("email", re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")),
    ("empty", re.compile(r"")),
]
# Formats that say nothing about what a key holds when it is filled: never a mismatch.
BLANK = {"null", "string:empty"}


def value_format(value: Any) -> str:
    """The format of one value: `object`, `array`, `null`, `boolean`, `integer`, `number` or `string:<class>`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    text = str(value)
    return "string:" + next((name for name, pattern in STRING_FORMATS if pattern.fullmatch(text)), "text")


def key_paths(document: Any) -> dict[str, list[str]]:
    """Every key path of a JSON document with the formats its values take, sorted."""
    found: dict[str, set[str]] = {}

    def walk(node: Any, prefix: str) -> None:
        if prefix:
            found.setdefault(prefix, set()).add(value_format(node))
        if isinstance(node, dict):
            for key, value in node.items():
                name = key if NAME.fullmatch(key) else "{}"
                walk(value, f"{prefix}.{name}" if prefix else name)
        elif isinstance(node, list):
            for element in node:
                walk(element, prefix + "[]")

    walk(document, "")
    return {path: sorted(formats) for path, formats in sorted(found.items())}


def compatible(real: list[str], ours: list[str]) -> bool:
    """Whether two sets of formats can be the same key's: a blank on either side proves nothing, and an
    integer is a number."""
    left = {"number" if f == "integer" else f for f in real if f not in BLANK}
    right = {"number" if f == "integer" else f for f in ours if f not in BLANK}
    return not left or not right or bool(left & right)


def excluded(path: str, exclusions: list[str]) -> bool:
    """Whether a key path contains one of the excluded key sequences (`enterprise_user` excludes
    `user.enterprise_user.id`), as whole keys."""
    keys = path.split(".")
    for exclusion in exclusions:
        wanted = exclusion.split(".")
        for start in range(len(keys) - len(wanted) + 1):
            if keys[start : start + len(wanted)] == wanted:
                return True
    return False


@dataclass
class Comparison:
    """How an answer's key paths measure up against a real response's (its paths minus the excluded)."""

    real: list[str]
    covered: list[str]
    missing: list[str]
    mismatches: list[str] = field(default_factory=list)  # "path: real [...], soundstage [...]"
    # Of the missing, those under a null or an empty list in soundstage's answer: the world it answered
    # from had nothing there, so whether soundstage would render them is not known.
    unfilled: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return len(self.covered) / len(self.real) if self.real else 1.0


def compare(real: dict[str, list[str]], answer: Any, exclusions: list[str]) -> Comparison:
    ours = key_paths(answer)
    kept = [path for path in real if not excluded(path, exclusions)]
    covered = [path for path in kept if path in ours]
    mismatches = [
        f"{path}: real {real[path]}, soundstage {ours[path]}"
        for path in covered
        if not compatible(real[path], ours[path])
    ]
    missing = [path for path in kept if path not in ours]
    return Comparison(kept, covered, missing, mismatches, [path for path in missing if _unfilled(path, ours)])


def _unfilled(path: str, ours: dict[str, list[str]]) -> bool:
    """Whether the nearest place above `path` that soundstage's answer has is a null or an empty list."""
    cuts = [i for i, c in enumerate(path) if c in ".["]  # `a.b[].c` is below `a.b[]`, `a.b` and `a`
    for cut in reversed(cuts):
        above = path[:cut]
        if above in ours:
            formats = set(ours[above])
            return formats == {"null"} or (formats <= {"null", "array"} and above + "[]" not in ours)
    return False
