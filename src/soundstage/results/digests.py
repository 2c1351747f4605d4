"""Digests of a trial folder's files (docs/cli.md, "Tampering"): what a trial was graded from, so that a reader
can tell which of its files changed since.

The run records each file's SHA-256 as it writes it (the logs line by line), so that a file changed even while
the trial ran is told apart; they go to `run.json` and the results store, never to the folder itself.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

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
