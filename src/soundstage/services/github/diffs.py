"""Commits as git prints them, for GitHub's `diff` and `patch` media types: `git diff` between two
commits (file headers, `index` lines with abbreviated blob shas, hunks) and `git format-patch` of a run
of commits (a mail per commit with its diffstat, 72 columns wide as format-patch makes it).
"""

from __future__ import annotations

import time
from typing import Any

from ...clock import US
from ...world import Record
from . import commits, git
from .git import FILE_MODE, Objects

_NULL = "0" * 7
_STAT_WIDTH = 72  # format-patch's diffstat width (git's MAIL_DEFAULT_WRAP)


Change = tuple[str, str | None, str | None, str, str]  # path, old blob, new blob (None: absent), their modes


def _file(objects: Objects, path: str, old: str | None, new: str | None, old_mode: str, new_mode: str) -> str:
    """One file's `diff --git` section (`old`/`new`: blob shas, None where the file is absent); a change of
    mode alone is its `old mode`/`new mode` lines."""
    lines = [f"diff --git a/{path} b/{path}"]
    if old is None:
        lines += [f"new file mode {new_mode}", f"index {_NULL}..{new[:7] if new else _NULL}"]
    elif new is None:
        lines += [f"deleted file mode {old_mode}", f"index {old[:7]}..{_NULL}"]
    elif old_mode != new_mode:
        lines += [f"old mode {old_mode}", f"new mode {new_mode}"]
        if old == new:
            return "\n".join(lines) + "\n"
        lines.append(f"index {old[:7]}..{new[:7]}")
    else:
        lines.append(f"index {old[:7]}..{new[:7]} {new_mode}")
    lines += [f"--- a/{path}" if old else "--- /dev/null", f"+++ b/{path}" if new else "+++ /dev/null"]
    lines += git.hunks(git.text(objects, old) if old else None, git.text(objects, new) if new else None)
    return "\n".join(lines) + "\n"


def _changes(objects: Objects, before: str | None, after: str) -> list[Change]:
    """The files that differ between two commits (before None: nothing) in content or mode, in path order."""
    old = commits.files(objects, before) if before else {}
    new = commits.files(objects, after)
    old_modes = git.modes(objects, commits.known(objects, before)["tree"]) if before else {}
    new_modes = git.modes(objects, commits.known(objects, after)["tree"])
    found = []
    for path in sorted(set(old) | set(new)):
        modes = (old_modes.get(path, FILE_MODE), new_modes.get(path, FILE_MODE))
        if old.get(path) != new.get(path) or (path in old and path in new and modes[0] != modes[1]):
            found.append((path, old.get(path), new.get(path), *modes))
    return found


def spot(
    before: str | None, after: str | None, line: int | None, side: str, position: int | None = None
) -> dict[str, Any] | None:
    """Where a review comment sits in a file's diff: by `line` on `side` (`RIGHT`: the new file's line
    numbers, `LEFT`: the old file's), or by `position` (lines below the first `@@`, later `@@` lines
    counted). Answers `line`, `side`, `position` and `diff_hunk` (the hunk from its `@@` down to that
    line, as GitHub shows it); None when the line is not part of the diff."""
    hunk: list[str] = []
    old = new = counted = 0
    for text in git.hunks(before, after):
        if text.startswith("@@"):
            starts = text.split(" ")
            old = max(int(starts[1][1:].split(",")[0]), 1)
            new = max(int(starts[2][1:].split(",")[0]), 1)
            hunk = [text]
            counted += 1 if counted else 0
            continue
        if text.startswith("\\"):
            continue
        counted += 1
        hunk.append(text)
        here = (
            [("LEFT", old)]
            if text[0] == "-"
            else [("RIGHT", new)]
            if text[0] == "+"
            else [("RIGHT", new), ("LEFT", old)]
        )
        old += text[0] != "+"
        new += text[0] != "-"
        if position is not None:
            if counted == position:
                found_side, found_line = here[0]
                return {"line": found_line, "side": found_side, "position": counted, "diff_hunk": "\n".join(hunk)}
        elif (side, line) in here:
            return {"line": line, "side": side, "position": counted, "diff_hunk": "\n".join(hunk)}
    return None


def diff(objects: Objects, before: str | None, after: str) -> str:
    """`git diff before after`: every changed file's section (before None: the root commit's files)."""
    return "".join(_file(objects, *change) for change in _changes(objects, before, after))


def _counts(objects: Objects, old: str | None, new: str | None) -> tuple[int, int]:
    _, additions, deletions = git.patch(
        git.text(objects, old) if old else None, git.text(objects, new) if new else None
    )
    return additions, deletions


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def diffstat(objects: Objects, changes: list[Change]) -> str:
    """`git diff --stat --summary` as format-patch writes it: a line per file with its `+`/`-` graph
    (scaled down as git does when it would pass the width), the totals, then created and deleted files."""
    counts = [_counts(objects, old, new) for _, old, new, _, _ in changes]
    max_change = max((a + d for a, d in counts), default=0)
    number_width = len(str(max_change))
    name_width = max((len(path) for path, *_ in changes), default=0)
    graph_width = max_change
    width = _STAT_WIDTH
    if name_width + number_width + 6 + graph_width > width:
        if graph_width > width * 3 // 8 - number_width - 6:
            graph_width = max(width * 3 // 8 - number_width - 6, 6)
        if name_width > width - number_width - 6 - graph_width:
            name_width = width - number_width - 6 - graph_width
        else:
            graph_width = width - number_width - 6 - name_width
    lines = []
    for (path, *_), (added, deleted) in zip(changes, counts):
        name = path if len(path) <= name_width else "..." + path[len(path) - name_width + 3 :]
        plus, minus = added, deleted
        if graph_width < max_change:
            total = _scale(added + deleted, graph_width, max_change)
            if total < 2 and added and deleted:
                total = 2
            if added < deleted:
                plus = _scale(added, graph_width, max_change)
                minus = total - plus
            else:
                minus = _scale(deleted, graph_width, max_change)
                plus = total - minus
        graph = f" {'+' * plus}{'-' * minus}" if added + deleted else ""
        lines.append(f" {name:<{name_width}} | {added + deleted:>{number_width}}{graph}")
    insertions, deletions = sum(a for a, _ in counts), sum(d for _, d in counts)
    total_line = f" {_plural(len(changes), 'file')} changed"
    if insertions or not deletions:
        total_line += f", {_plural(insertions, 'insertion')}(+)"
    if deletions or not insertions:
        total_line += f", {_plural(deletions, 'deletion')}(-)"
    lines.append(total_line)
    for path, old, new, old_mode, new_mode in changes:
        if old is None or new is None:
            lines.append(
                f" {'create' if old is None else 'delete'} mode {new_mode if old is None else old_mode} {path}"
            )
        elif old_mode != new_mode:
            lines.append(f" mode change {old_mode} => {new_mode} {path}")
    return "\n".join(lines) + "\n"


def _scale(value: int, width: int, most: int) -> int:
    """git's `scale_linear`: `value` of `most` on a graph `width` wide, at least one mark when not zero."""
    return 0 if value == 0 else 1 + value * (width - 1) // most


def _mail_date(person: Record) -> str:
    """A person's date as git writes it in a mail, in their own time zone: `Mon, 2 Mar 2026 15:00:00 +0200`
    (the day not padded)."""
    zone = git.zone(person)
    moment = time.gmtime(person["at"] // US + git.zone_minutes(zone) * 60)
    return time.strftime("%a, ", moment) + str(moment.tm_mday) + time.strftime(f" %b %Y %H:%M:%S {zone}", moment)


def format_patch(objects: Objects, run: list[Record]) -> str:
    """`git format-patch --stdout` of `run` (oldest first), each commit against its first parent:
    `[PATCH]` alone, `[PATCH n/m]` in a run of several. Merge commits are left out, as format-patch
    leaves them."""
    run = [record for record in run if len(record["parents"]) < 2]
    mails = []
    for n, record in enumerate(run, 1):
        parent = record["parents"][0] if record["parents"] else None
        changes = _changes(objects, parent, record["sha"])
        subject, _, body = record["message"].strip("\n").partition("\n")
        body = body.strip("\n")
        tag = "[PATCH]" if len(run) == 1 else f"[PATCH {n}/{len(run)}]"
        author = record["author"]
        head = [
            f"From {record['sha']} Mon Sep 17 00:00:00 2001",
            f"From: {author['name']} <{author['email']}>",
            f"Date: {_mail_date(author)}",
            f"Subject: {tag} {subject}",
            "",
            *([body] if body else []),
            "---",
        ]
        sections = "".join(_file(objects, *change) for change in changes)
        mails.append("\n".join(head) + "\n" + diffstat(objects, changes) + "\n" + sections)
    return "\n".join(mails)
