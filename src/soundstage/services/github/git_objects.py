"""A world's git objects as git's wire carries them, without HTTP: each blob, tree, commit and annotated
tag record as its object bytes, the objects a fetch needs (reachable from what the client wants, not
from what it has, to a depth), and objects a push brought checked and written through the same state
functions the REST API's `POST .../git/blobs|trees|commits` use.

The world stores UTF-8 text files (plain or executable) and directories, commits with no headers beyond
git's own (dated in any time zone, which is kept), and annotated tags of commits. A pushed object outside
that (a binary file, a symlink, a submodule, a signed commit) cannot be stored with its id, so the push
is refused with a reason, never stored under another id.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from ...clock import US
from ...world import Record
from . import commits, git
from .git import EXECUTABLE_MODE, FILE_MODE, TREE_MODE, Objects
from .git_pack import PackObject

ZERO = "0" * 40
MAX_OBJECTS = 100_000  # the most objects one fetch packs
MAX_PACK_BYTES = 256 * 1024 * 1024  # the most object bytes one fetch packs
_PERSON = re.compile(r"(?P<name>[^<>\n]*) <(?P<email>[^<>\n]*)> (?P<at>\d{1,12}) (?P<tz>[+-][01]\d[0-5]\d)")
_BLOB_MODES = {b"100644": FILE_MODE, b"100755": EXECUTABLE_MODE}


class Unstorable(ValueError):
    """A pushed object the world cannot hold with its id, or a push missing objects; the message is the
    reason git shows."""


def pack_object(objects: Objects, sha: str) -> PackObject | None:
    """The world's object `sha` as git's bytes, or None."""
    blob = objects.blobs.get(sha)
    if blob is not None:
        return PackObject("blob", blob["content"].encode())
    tree = objects.trees.get(sha)
    if tree is not None:
        return PackObject("tree", git.tree_payload(tree["tree"]))
    commit = objects.commits.get(sha)
    if commit is not None:
        payload = git.commit_payload(
            commit["tree"], commit["parents"], commit["author"], commit["committer"], commit["message"]
        )
        return PackObject("commit", payload)
    tag = objects.tags.get(sha)
    if tag is not None:
        return PackObject("tag", git.tag_payload(tag))
    return None


def peeled(objects: Objects, sha: str) -> str:
    """The commit an annotated tag names; any other sha as it is."""
    tag = objects.tags.get(sha)
    return tag["object"] if tag else sha


# -- fetching ----------------------------------------------------------------------------------------


@dataclass
class Fetch:
    """What a fetch sends: the commits the client lacks, what it has (`had`), and for a shallow fetch the
    commits where its history is now cut (`shallow`) and those of its own where it no longer is."""

    commits: list[str]
    had: set[str]
    shallow: list[str]
    unshallow: list[str]


def plan(objects: Objects, wants: Iterable[str], haves: Iterable[str], depth: int | None, cut: set[str]) -> Fetch:
    """The fetch of `wants` by a client that has `haves` with their history, down to its own shallow
    commits `cut` (it has those, not their parents). With `depth`, history is sent that many commits deep
    from each want, through commits the client has (it may be deepening a shallow clone)."""
    had = _history(objects, haves, cut)
    level: dict[str, int] = {}
    todo = deque((sha, 1) for sha in wants)
    while todo:
        sha, n = todo.popleft()
        record = objects.commits.get(sha)
        if sha in level or record is None:
            continue
        level[sha] = n
        if (depth is None and sha in had) or (depth is not None and n >= depth):
            continue
        todo.extend((parent, n + 1) for parent in record["parents"])
    edge = [] if depth is None else [s for s, n in level.items() if n >= depth and commits.known(objects, s)["parents"]]
    deeper = [] if depth is None else [s for s in sorted(cut) if level.get(s, depth) < depth]
    return Fetch([s for s in level if s not in had], had, edge, deeper)


def _history(objects: Objects, tips: Iterable[str], cut: set[str]) -> set[str]:
    """Every commit reachable from `tips`, not going past the commits of `cut`."""
    seen: set[str] = set()
    todo = [sha for sha in tips if sha in objects.commits]
    while todo:
        sha = todo.pop()
        if sha in seen:
            continue
        seen.add(sha)
        if sha not in cut:
            todo.extend(p for p in commits.known(objects, sha)["parents"] if p in objects.commits)
    return seen


def fetch_objects(objects: Objects, fetch: Fetch) -> list[PackObject]:
    """The commits to send, and their trees and blobs the client lacks (not in the trees of what it has)."""
    known: set[str] = set()
    for sha in fetch.had:
        _tree_objects(objects, commits.known(objects, sha)["tree"], known, None)
    out: list[PackObject] = []
    size = 0
    for sha in fetch.commits:
        found: list[str] = [sha]
        _tree_objects(objects, commits.known(objects, sha)["tree"], known, found)
        for name in found:
            obj = pack_object(objects, name)
            assert obj is not None  # every sha here was read from the world's own records
            out.append(obj)
            size += len(obj.payload)
        if len(out) > MAX_OBJECTS or size > MAX_PACK_BYTES:
            raise Unstorable("the repository is too large to send in one pack")
    return out


def _tree_objects(objects: Objects, tree: str, known: set[str], found: list[str] | None) -> None:
    """Adds the tree and everything under it not in `known` to `known` (and to `found`)."""
    if tree in known:
        return
    known.add(tree)
    if found is not None:
        found.append(tree)
    for entry in git.entries(objects, tree):
        if entry["type"] == "tree":
            _tree_objects(objects, entry["sha"], known, found)
        elif entry["sha"] not in known:
            known.add(entry["sha"])
            if found is not None:
                found.append(entry["sha"])


# -- pushing -----------------------------------------------------------------------------------------


@dataclass
class _Commit:
    tree: str
    parents: list[str]
    author: Record
    committer: Record
    message: str


class Pushed:
    """The objects of a pushed pack over the world's own: read and checked before anything is written. Each
    tree is read and checked once, whichever commits share it, so a push costs time linear in its objects."""

    def __init__(self, objects: Objects, pack: list[PackObject]) -> None:
        self.objects = objects
        self.pack = {obj.sha: obj for obj in pack}
        self._entries: dict[str, list[Record]] = {}  # a pushed tree's entries, once checked
        self._filled: dict[str, bool] = {}  # whether a tree holds a file, under it anywhere
        self._texts: set[str] = set()  # the blobs found to be text

    def new_commits(self, tip: str) -> list[str]:
        """The commits from `tip` the world lacks, parents before children; raises `Unstorable` when a
        commit they name is in neither the pack nor the world, or is not one the world can hold."""
        order: list[str] = []
        state: dict[str, bool] = {}  # sha -> finished
        stack = [tip]
        while stack:
            sha = stack[-1]
            if sha in self.objects.commits or state.get(sha):
                stack.pop()
                continue
            obj = self.pack.get(sha)
            if obj is None:
                raise Unstorable("missing necessary objects")
            if obj.kind != "commit":
                raise Unstorable(f"{sha} is a {obj.kind}, not a commit")
            if sha in state:  # its parents are done
                state[sha] = True
                order.append(sha)
                stack.pop()
                continue
            state[sha] = False
            stack.extend(p for p in self.commit(sha).parents if not state.get(p))
        return order

    def commit(self, sha: str) -> _Commit:
        """A pushed commit's fields, when writing them back gives the same bytes."""
        payload = self.pack[sha].payload
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            raise Unstorable(f"commit {sha} is not UTF-8") from None
        head, sep, message = text.partition("\n\n")
        fields: dict[str, list[str]] = {}
        for line in head.split("\n"):
            key, _, value = line.partition(" ")
            fields.setdefault(key, []).append(value)
        if not sep or set(fields) - {"tree", "parent", "author", "committer"}:
            raise Unstorable(f"commit {sha} has headers GitHub's API cannot write (a signature or an encoding)")
        if any(len(fields.get(name, [])) != 1 for name in ("tree", "author", "committer")):
            raise Unstorable(f"commit {sha} is malformed")
        # A message ending in one newline is kept without it, as GitHub shows it (`git.commit_payload`).
        found = _Commit(
            fields["tree"][0],
            fields.get("parent", []),
            _person(f"commit {sha}", fields["author"][0]),
            _person(f"commit {sha}", fields["committer"][0]),
            message.removesuffix("\n"),
        )
        rebuilt = git.commit_payload(found.tree, found.parents, found.author, found.committer, found.message)
        if rebuilt != payload:
            raise Unstorable(f"commit {sha} cannot be stored as it is (its message's ending)")
        return found

    def tag(self, sha: str, repo: str) -> Record | None:
        """The annotated tag `sha` (the world's, or the pack's once checked: a tag of a commit, written back
        to the same bytes), None when `sha` is not a tag."""
        if sha in self.objects.tags:
            return self.objects.tags.get(sha)
        obj = self.pack.get(sha)
        if obj is None or obj.kind != "tag":
            return None
        head, sep, message = obj.payload.decode("utf-8", "replace").partition("\n\n")
        fields = dict(line.partition(" ")[::2] for line in head.split("\n"))
        if not sep or list(fields) != ["object", "type", "tag", "tagger"]:
            raise Unstorable(f"tag {sha} is malformed (it needs an object, a type, a name and a tagger)")
        if fields["type"] != "commit":
            raise Unstorable(f"tag {sha} tags a {fields['type']}; the world tags commits only")
        record = {
            "sha": sha,
            "repository": repo,
            "object": fields["object"],
            "type": "commit",
            "tag": fields["tag"],
            "tagger": _person(f"tag {sha}", fields["tagger"]),
            "message": message,
        }
        if git.tag_payload(record) != obj.payload:
            raise Unstorable(f"tag {sha} cannot be stored as it is")
        return record

    def check(self, tree: str) -> bool:
        """Checks a tree of the pack or the world and everything under it (only text files and directories,
        none empty); answers whether it holds a file."""
        filled = self._filled.get(tree)
        if filled is not None:
            return filled
        if tree in self.objects.trees:
            entries = git.entries(self.objects, tree)
            filled = any(e["type"] == "blob" for e in entries) or any(self.check(e["sha"]) for e in entries)
        else:
            obj = self.pack.get(tree)
            if obj is None or obj.kind != "tree":
                raise Unstorable("missing necessary objects")
            entries = _tree_entries(tree, obj.payload)
            for entry in entries:
                if entry["type"] == "tree":
                    if not self.check(entry["sha"]):
                        raise Unstorable(f"tree {tree} holds an empty directory, which GitHub's API cannot write")
                elif entry["sha"] not in self._texts:
                    self.text(entry["sha"])
                    self._texts.add(entry["sha"])
            self._entries[tree] = entries
            filled = bool(entries)
        self._filled[tree] = filled
        return filled

    def text(self, blob: str) -> str:
        """A blob's text, from the world or the pack; only UTF-8 text can be stored."""
        if blob in self.objects.blobs:
            return git.text(self.objects, blob)
        obj = self.pack.get(blob)
        if obj is None or obj.kind != "blob":
            raise Unstorable("missing necessary objects")
        try:
            return obj.payload.decode("utf-8")
        except UnicodeDecodeError:
            raise Unstorable(f"blob {blob} is not UTF-8 text, which GitHub's API cannot write") from None

    def store(self, repo: str, commits: list[str]) -> None:
        """Writes commits (parents first), their trees and blobs, as `POST .../git/blobs`, `trees` and
        `commits` do, in their order: a commit's new blobs as its files come, then its new trees, each after
        the trees under it; nothing when one of them cannot be stored (`Unstorable`). The world holds every
        tree under one it holds, so only the trees it lacks are walked."""
        checked = [(sha, self.commit(sha)) for sha in commits]
        for _, found in checked:  # every one checked before any write
            self.check(found.tree)
        for sha, found in checked:
            trees: dict[str, None] = {}
            self._blobs(found.tree, trees)
            for tree in trees:
                git.write_entries(self.objects, self._entries[tree], tree)
            record = git.write_commit_tree(
                self.objects, repo, found.tree, found.parents, found.message, found.author, found.committer
            )
            if record["sha"] != sha:  # checked by `commit` and `check`: a mismatch is a bug, and undone
                raise AssertionError(f"pushed commit {sha} was stored as {record['sha']}")

    def _blobs(self, tree: str, trees: dict[str, None]) -> None:
        """Writes the blobs under a tree the world lacks, as its files come; adds the trees it lacks to `trees`,
        each after the trees under it."""
        if tree in self.objects.trees or tree in trees:
            return
        for entry in self._entries[tree]:
            if entry["type"] == "tree":
                self._blobs(entry["sha"], trees)
            elif entry["sha"] not in self.objects.blobs:
                git.write_blob(self.objects, self.text(entry["sha"]))
        trees[tree] = None


def _person(what: str, value: str) -> Record:
    """`{name, email, at}`, and `tz` when git dated it outside UTC (`+0200`), kept so it is written back."""
    match = _PERSON.fullmatch(value)
    if match is None:
        raise Unstorable(f"{what} has a malformed author, committer or tagger")
    person = {"name": match["name"], "email": match["email"], "at": int(match["at"]) * US}
    return person if match["tz"] == git.UTC else {**person, "tz": match["tz"]}


def _tree_entries(sha: str, payload: bytes) -> list[Record]:
    """A pushed tree's entries; only files (plain or executable) and directories, written back to the same
    bytes."""
    entries: list[Record] = []
    keys: list[bytes] = []  # each name as git orders it: a directory's as if it ended in "/"
    at = 0
    while at < len(payload):
        space = payload.find(b" ", at)
        nul = payload.find(b"\0", space + 1)
        if space < 0 or nul < 0 or nul + 21 > len(payload):
            raise Unstorable(f"tree {sha} is malformed")
        mode, name = payload[at:space], payload[space + 1 : nul]
        target = payload[nul + 1 : nul + 21].hex()
        at = nul + 21
        if mode not in _BLOB_MODES and mode != b"40000":
            raise Unstorable(
                f"tree {sha} holds an entry of mode {mode.decode('ascii', 'replace')} (only files and directories)"
            )
        try:
            path = name.decode("utf-8")
        except UnicodeDecodeError:
            raise Unstorable(f"tree {sha} has a name that is not UTF-8") from None
        if path in ("", ".", "..") or "/" in path:
            raise Unstorable(f"tree {sha} has an invalid name")
        is_tree = mode == b"40000"
        kind = ("tree", TREE_MODE) if is_tree else ("blob", _BLOB_MODES[mode])
        entries.append({"path": path, "mode": kind[1], "type": kind[0], "sha": target})
        keys.append(name + b"/" if is_tree else name)
    # Read back as read, each entry gives its own bytes: the tree's are `git.tree_payload`'s when its entries
    # come in git's order (`git.tree_key`), one name once.
    if any(before >= after for before, after in pairwise(keys)):
        raise Unstorable(f"tree {sha} is not in git's order")
    return entries
