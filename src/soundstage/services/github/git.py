"""Git's object model, computed exactly as git computes it: blob, tree, commit and annotated tag shas, a
tree built from a path -> text map (and the modes of executable files) and flattened back, a line-based
three-way merge and unified patches.

Everything here is pure: objects are written to and read from an `Objects` (three collections keyed by
sha), so the same files, messages and times always give the same shas.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...clock import US
from ...world import Collection, Record

FILE_MODE = "100644"
EXECUTABLE_MODE = "100755"
TREE_MODE = "040000"


@dataclass
class Objects:
    """Where git objects live: `github.blobs`, `github.trees`, `github.commits`, `github.tags`, keyed by sha."""

    blobs: Collection
    trees: Collection
    commits: Collection
    tags: Collection


def _hash(kind: str, payload: bytes) -> str:
    return hashlib.sha1(f"{kind} {len(payload)}\0".encode() + payload).hexdigest()


def blob_sha(text: str) -> str:
    return _hash("blob", text.encode())


def tree_key(entry: Record) -> bytes:
    # git sorts entries by name, with a directory compared as if its name ended in "/".
    name = entry["path"].encode()
    return name + b"/" if entry["type"] == "tree" else name


def tree_payload(entries: list[Record]) -> bytes:
    """A tree object's bytes, as hashed and as a pack carries it."""
    return b"".join(
        f"{int(e['mode'], 8):o} {e['path']}".encode() + b"\0" + bytes.fromhex(e["sha"])
        for e in sorted(entries, key=tree_key)
    )


def tree_sha(entries: list[Record]) -> str:
    return _hash("tree", tree_payload(entries))


UTC = "+0000"


def zone(person: Record) -> str:
    """The time zone git wrote a person's date in (`+0200`); a person without `tz` is in UTC."""
    return person.get("tz", UTC)


def zone_minutes(tz: str) -> int:
    """`+0530` as minutes east of UTC (330)."""
    return (-1 if tz[0] == "-" else 1) * (int(tz[1:3]) * 60 + int(tz[3:5]))


def signature(person: Record) -> str:
    """`Name <email> 1772460000 +0000` from `{name, email, at, tz?}` (`at` in epoch microseconds)."""
    return f"{person['name']} <{person['email']}> {person['at'] // US} {zone(person)}"


def commit_payload(tree: str, parents: list[str], author: Record, committer: Record, message: str) -> bytes:
    """A commit object's bytes, as hashed and as a pack carries it."""
    lines = [f"tree {tree}", *(f"parent {p}" for p in parents)]
    lines += [f"author {signature(author)}", f"committer {signature(committer)}", "", message]
    text = "\n".join(lines)
    # `git commit -m` ends the message with a newline; GitHub shows the message without it.
    return (text if text.endswith("\n") else text + "\n").encode()


def commit_sha(tree: str, parents: list[str], author: Record, committer: Record, message: str) -> str:
    return _hash("commit", commit_payload(tree, parents, author, committer, message))


def tag_payload(tag: Record) -> bytes:
    """An annotated tag object's bytes, from `{object, type, tag, tagger, message}` (the message as written)."""
    head = f"object {tag['object']}\ntype {tag['type']}\ntag {tag['tag']}\ntagger {signature(tag['tagger'])}\n"
    return (head + "\n" + tag["message"]).encode()


def tag_sha(tag: Record) -> str:
    return _hash("tag", tag_payload(tag))


# -- writing -----------------------------------------------------------------------------------------


def write_blob(objects: Objects, text: str) -> str:
    sha = blob_sha(text)
    if sha not in objects.blobs:
        objects.blobs.add(sha, {"sha": sha, "size": len(text.encode()), "content": text})
    return sha


def clash(paths: list[str]) -> str | None:
    """A path that is a file and also a directory of another path (no tree can hold both), or None."""
    files = set(paths)
    for path in paths:
        parts = path.split("/")
        for n in range(1, len(parts)):
            if "/".join(parts[:n]) in files:
                return "/".join(parts[:n])
    return None


def write_tree(objects: Objects, files: dict[str, str], modes: dict[str, str] | None = None) -> str:
    """Stores the tree (and subtrees) of a flat path -> blob sha map, each file `100644` unless `modes` gives
    its path another mode (`100755`); answers the root tree's sha."""
    modes = modes or {}
    here: dict[str, str] = {}
    below: dict[str, dict[str, str]] = {}
    below_modes: dict[str, dict[str, str]] = {}
    for path, sha in files.items():
        head, sep, rest = path.partition("/")
        if sep:
            below.setdefault(head, {})[rest] = sha
            if path in modes:
                below_modes.setdefault(head, {})[rest] = modes[path]
        else:
            here[head] = sha
    entries: list[Record] = [
        {"path": n, "mode": modes.get(n, FILE_MODE), "type": "blob", "sha": s} for n, s in here.items()
    ]
    entries += [
        {"path": n, "mode": TREE_MODE, "type": "tree", "sha": write_tree(objects, sub, below_modes.get(n))}
        for n, sub in below.items()
    ]
    entries.sort(key=tree_key)
    return write_entries(objects, entries)


def write_entries(objects: Objects, entries: list[Record], sha: str | None = None) -> str:
    """Stores the tree of `entries` (in git's order; what they name stored already), whose sha is `sha` when
    the caller knows it (a pushed tree read back to its own bytes); answers its sha."""
    sha = sha or tree_sha(entries)
    if sha not in objects.trees:
        objects.trees.add(sha, {"sha": sha, "tree": entries})
    return sha


def write_commit(
    objects: Objects,
    repo: str,
    files: dict[str, str],
    parents: list[str],
    message: str,
    author: Record,
    committer: Record,
    modes: dict[str, str] | None = None,
) -> Record:
    """Stores a commit of `files` (path -> blob sha; `modes` as `write_tree` takes them); answers its record."""
    return write_commit_tree(objects, repo, write_tree(objects, files, modes), parents, message, author, committer)


def write_commit_tree(
    objects: Objects,
    repo: str,
    tree: str,
    parents: list[str],
    message: str,
    author: Record,
    committer: Record,
) -> Record:
    """Stores a commit of the stored tree `tree`; answers its record."""
    sha = commit_sha(tree, parents, author, committer, message)
    record = objects.commits.get(sha)
    if record is None:
        record = objects.commits.add(
            sha,
            {
                "sha": sha,
                "repository": repo,
                "tree": tree,
                "parents": parents,
                "message": message,
                "author": author,
                "committer": committer,
            },
        )
    return record


def write_tag(objects: Objects, tag: Record) -> Record:
    """Stores an annotated tag (`{sha, repository, object, type, tag, tagger, message}`); answers its record."""
    return objects.tags.get(tag["sha"]) or objects.tags.add(tag["sha"], tag)


# -- reading -----------------------------------------------------------------------------------------


def _get(collection: Collection, sha: str) -> Record:
    """An object that must exist (it was named by another object or checked before)."""
    record = collection.get(sha)
    if record is None:
        raise KeyError(f"{collection.name}: no object {sha}")
    return record


def entries(objects: Objects, tree: str) -> list[Record]:
    return _get(objects.trees, tree)["tree"]


def _files(objects: Objects, tree: str, prefix: str = "") -> Iterator[tuple[str, Record]]:
    """Every file entry under `tree` with its path, in git's order."""
    for entry in entries(objects, tree):
        path = prefix + entry["path"]
        if entry["type"] == "tree":
            yield from _files(objects, entry["sha"], path + "/")
        else:
            yield path, entry


def flatten(objects: Objects, tree: str) -> dict[str, str]:
    """Every file under `tree` as path -> blob sha, in git's order."""
    return {path: entry["sha"] for path, entry in _files(objects, tree)}


def modes(objects: Objects, tree: str) -> dict[str, str]:
    """The mode of every file under `tree` that is not a plain file (`100755`), by path."""
    return {path: entry["mode"] for path, entry in _files(objects, tree) if entry["mode"] != FILE_MODE}


def mode_changes(objects: Objects, before: str | None, after: str) -> dict[str, str]:
    """The files whose mode differs from tree `before` (None: none) to tree `after`, with the new mode."""
    old, new = modes(objects, before) if before else {}, modes(objects, after)
    return {path: new.get(path, FILE_MODE) for path in old.keys() | new.keys() if old.get(path) != new.get(path)}


def entry_at(objects: Objects, tree: str, path: str) -> Record | None:
    """The tree entry at `path` (a file or a directory); the root itself for an empty path."""
    entry: Record = {"path": "", "mode": TREE_MODE, "type": "tree", "sha": tree}
    for part in path.split("/"):
        if not part:
            continue
        if entry["type"] != "tree":
            return None
        for found in entries(objects, entry["sha"]):
            if found["path"] == part:
                entry = found
                break
        else:
            return None
    return entry


def text(objects: Objects, sha: str) -> str:
    return _get(objects.blobs, sha)["content"]


def size(objects: Objects, sha: str) -> int:
    return _get(objects.blobs, sha)["size"]


# -- merging and diffing -----------------------------------------------------------------------------


def merge3(base: str | None, ours: str | None, theirs: str | None) -> tuple[bool, str | None]:
    """Three-way merge of one file's text (None: absent). Answers (clean, merged text); a change on
    both sides to the same lines, or a delete against an edit, is a conflict."""
    if ours == theirs:
        return True, ours
    if base == ours:
        return True, theirs
    if base == theirs:
        return True, ours
    if base is None or ours is None or theirs is None:
        return False, None
    a, b, o = base.splitlines(keepends=True), ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    mine, yours = _changes(a, b), _changes(a, o)
    result: list[str] = []
    at = 0
    for start, end, lines, other in _interleave(mine, yours):
        if other is not None:
            return False, None
        result += a[at:start] + lines
        at = end
    return True, "".join(result + a[at:])


Change = tuple[int, int, list[str]]  # replace base lines [start, end) with lines


def _changes(base: list[str], other: list[str]) -> list[Change]:
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    return [(i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _interleave(mine: list[Change], yours: list[Change]) -> list[tuple[int, int, list[str], Any]]:
    """Both sides' changes in base order; a change that overlaps or touches one from the other side is
    marked with it (a conflict, as git reports adjacent edits); identical changes on both sides count once."""
    merged: list[tuple[int, int, list[str], Any]] = []
    sides: list[int] = []
    changes = sorted([(c, 0) for c in mine] + [(c, 1) for c in yours], key=lambda x: (x[0][0], x[0][1], x[1]))
    for (start, end, lines), side in changes:
        if merged:
            p_start, p_end, p_lines, _ = merged[-1]
            if (p_start, p_end, p_lines) == (start, end, lines):
                continue
            if side != sides[-1] and start <= p_end:
                merged[-1] = (p_start, p_end, p_lines, (start, end, lines))
                continue
        merged.append((start, end, lines, None))
        sides.append(side)
    return merged


_NO_NEWLINE = "\\ No newline at end of file"


def _funcname(lines: list[str], start: int) -> str:
    """What git shows after a hunk's `@@`: the nearest line above the hunk that starts with a letter, `_`
    or `$` (git's default function-name rule), without trailing space and at most 80 characters."""
    for line in reversed(lines[:start]):
        if line[:1].isalpha() or line[:1] in ("_", "$"):
            return " " + line.rstrip()[:80]
    return ""


def _range(start: int, length: int) -> str:
    """A hunk's `start,length` as git writes it: the length left out when it is 1; an empty side starts
    on the line before."""
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def hunks(before: str | None, after: str | None) -> list[str]:
    """The unified diff hunks between two texts as git writes them (three lines of context, the
    function name after `@@`, `\\ No newline at end of file` after a last line without one), as lines."""
    old = (before or "").splitlines(keepends=True)
    new = (after or "").splitlines(keepends=True)
    result: list[str] = []
    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(3):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        header = f"@@ -{_range(i1, i2 - i1)} +{_range(j1, j2 - j1)} @@"
        result.append(header + _funcname([line.rstrip("\n") for line in old], i1))
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                result += _marked(" ", old[a1:a2])
                continue
            result += _marked("-", old[a1:a2])
            result += _marked("+", new[b1:b2])
    return result


def _marked(sign: str, lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        out.append(sign + line.rstrip("\n"))
        if not line.endswith("\n"):
            out.append(_NO_NEWLINE)
    return out


def patch(before: str | None, after: str | None) -> tuple[str, int, int]:
    """The unified diff hunks GitHub shows as `patch` (no file header), with additions and deletions."""
    lines = hunks(before, after)
    additions = sum(1 for line in lines if line.startswith("+"))
    deletions = sum(1 for line in lines if line.startswith("-"))
    return "\n".join(lines), additions, deletions
