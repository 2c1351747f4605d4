"""Commits as a history, without HTTP: reading a commit's files, walking and comparing histories, and
writing new commits (changes on top of a commit, merges, squashes, rebases) into an `Objects`.

No ref moves here: callers move branches (`repos.set_ref`) once the commit is written.
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import git
from .git import Objects


def commit(objects: Objects, sha: str) -> Record | None:
    return objects.commits.get(sha)


def known(objects: Objects, sha: str) -> Record:
    """A commit that must exist (resolved or checked before)."""
    record = objects.commits.get(sha)
    if record is None:
        raise KeyError(f"no commit {sha}")
    return record


def files(objects: Objects, sha: str) -> dict[str, str]:
    """Path -> blob sha of every file in a commit."""
    return git.flatten(objects, known(objects, sha)["tree"])


def text_at(objects: Objects, sha: str, path: str) -> str | None:
    """The text of `path` in a commit; None if it is not a file there."""
    entry = git.entry_at(objects, known(objects, sha)["tree"], path)
    return git.text(objects, entry["sha"]) if entry and entry["type"] == "blob" else None


def history(objects: Objects, sha: str) -> list[Record]:
    """Commits reachable from `sha`, newest first (by committer time, then discovery order)."""
    seen: dict[str, Record] = {}
    todo = [sha]
    while todo:
        current = todo.pop(0)
        if current in seen:
            continue
        record = commit(objects, current)
        if record is None:
            continue
        seen[current] = record
        todo.extend(record["parents"])
    order = {s: i for i, s in enumerate(seen)}
    return sorted(seen.values(), key=lambda c: (-c["committer"]["at"], order[c["sha"]]))


def changed(objects: Objects, before: str | None, after: str) -> list[dict[str, Any]]:
    """Files that differ between two commits (before None: the root commit), in path order, with
    `filename`, `status`, `additions`, `deletions`, `changes`, `patch`, `sha`."""
    old = files(objects, before) if before else {}
    new = files(objects, after)
    result = []
    for path in sorted(set(old) | set(new)):
        if old.get(path) == new.get(path):
            continue
        a = git.text(objects, old[path]) if path in old else None
        b = git.text(objects, new[path]) if path in new else None
        text, additions, deletions = git.patch(a, b)
        status = "added" if a is None else "removed" if b is None else "modified"
        result.append(
            {
                "filename": path,
                "status": status,
                "additions": additions,
                "deletions": deletions,
                "changes": additions + deletions,
                "patch": text,
                "sha": new.get(path) or old[path],
            }
        )
    return result


def merge_base(objects: Objects, a: str, b: str) -> str | None:
    """The newest commit reachable from both."""
    theirs = {c["sha"] for c in history(objects, b)}
    for record in history(objects, a):
        if record["sha"] in theirs:
            return record["sha"]
    return None


def compare(objects: Objects, base: str, head: str) -> dict[str, Any]:
    """`status` (identical/ahead/behind/diverged), `ahead_by`, `behind_by`, the merge base, the commits
    head has that base has not (oldest first) and the files changed from the merge base to head."""
    base_set = {c["sha"] for c in history(objects, base)}
    head_set = {c["sha"] for c in history(objects, head)}
    ahead = [c for c in reversed(history(objects, head)) if c["sha"] not in base_set]
    behind = len(base_set - head_set)
    status = "identical" if base == head else "ahead" if not behind else "behind" if not ahead else "diverged"
    common = merge_base(objects, base, head)
    return {
        "status": status,
        "ahead_by": len(ahead),
        "behind_by": behind,
        "merge_base": common,
        "commits": ahead,
        "files": changed(objects, common, head) if common != head else [],
    }


# -- writing -----------------------------------------------------------------------------------------


def commit_changes(
    objects: Objects,
    repo: str,
    parents: list[str],
    changes: dict[str, str | None],
    message: str,
    author: Record,
    committer: Record,
    modes: dict[str, str] | None = None,
) -> Record:
    """A new commit of the first parent's files with `changes` (path -> text, None deletes); no parents
    makes a root commit, a second one a merge commit. Files keep their mode (an executable stays one)
    unless `modes` gives them another."""
    paths = files(objects, parents[0]) if parents else {}
    kept = git.modes(objects, known(objects, parents[0])["tree"]) if parents else {}
    for path, content in changes.items():
        if content is None:
            paths.pop(path, None)
        else:
            paths[path] = git.write_blob(objects, content)
    return git.write_commit(objects, repo, paths, parents, message, author, committer, {**kept, **(modes or {})})


def merged_files(objects: Objects, ours: str, theirs: str) -> dict[str, str | None] | None:
    """The text of every file that a merge of `theirs` into `ours` changes against `ours`; None on a conflict."""
    base = merge_base(objects, ours, theirs)
    base_files = files(objects, base) if base else {}
    our_files, their_files = files(objects, ours), files(objects, theirs)
    result: dict[str, str | None] = {}
    for path in sorted(set(base_files) | set(our_files) | set(their_files)):
        old, mine, yours = (base_files.get(path), our_files.get(path), their_files.get(path))
        if mine == yours or old == yours:
            continue
        texts = [git.text(objects, b) if b else None for b in (old, mine, yours)]
        clean, content = git.merge3(*texts)
        if not clean:
            return None
        result[path] = content
    return result


def merge(
    objects: Objects,
    repo: str,
    ours: str,
    theirs: str,
    message: str,
    author: Record,
    committer: Record,
    squash: bool = False,
) -> Record | None:
    """A merge commit of `theirs` into `ours` (with `squash`, a commit whose only parent is `ours`); None
    on a conflict. When `ours` is already in `theirs`' history the answer is still a merge commit, as
    GitHub's merge button makes."""
    changes = merged_files(objects, ours, theirs)
    if changes is None:
        return None
    parents = [ours] if squash else [ours, theirs]
    base = merge_base(objects, ours, theirs)
    modes = git.mode_changes(objects, known(objects, base)["tree"] if base else None, known(objects, theirs)["tree"])
    return commit_changes(objects, repo, parents, changes, message, author, committer, modes)


def rebase(objects: Objects, repo: str, base: str, head: str, committer: Record) -> str:
    """Replays each commit of head that base lacks on top of base (a cherry-pick per commit); answers
    the last one's sha."""
    current = base
    for record in compare(objects, base, head)["commits"]:
        parent = record["parents"][0] if record["parents"] else None
        changes: dict[str, str | None] = {}
        for entry in changed(objects, parent, record["sha"]):
            path = entry["filename"]
            before = text_at(objects, parent, path) if parent else None
            now = text_at(objects, current, path)
            after = text_at(objects, record["sha"], path)
            changes[path] = git.merge3(before, now, after)[1]
        modes = git.mode_changes(objects, known(objects, parent)["tree"] if parent else None, record["tree"])
        current = commit_changes(
            objects, repo, [current], changes, record["message"], record["author"], committer, modes
        )["sha"]
    return current
