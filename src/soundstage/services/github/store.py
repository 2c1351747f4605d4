"""GitHub state and the changes to it, without HTTP: users, repos, refs and the git objects.

Collections: `github.users` (by login), `github.repos` (by "owner/repo": `default_branch`, `production`,
`deploy_on_merge`...), `github.refs` (by "owner/repo:refs/heads/x": `repository`, `ref`, `sha`),
`github.labels` (by "owner/repo:name"), and the git objects `github.blobs`, `github.trees`,
`github.commits` (by sha). `Repos` works on a live world and on an image being built alike.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from typing import Any

from ...world import Collection, Record
from . import git
from .git import Objects

USERS = "github.users"
REPOS = "github.repos"
REFS = "github.refs"
LABELS = "github.labels"
BLOBS = "github.blobs"
TREES = "github.trees"
COMMITS = "github.commits"

HEADS = "refs/heads/"
_SHA = re.compile(r"[0-9a-f]{4,40}")


def ref_key(repo: str, ref: str) -> str:
    return f"{repo}:{ref}"


def node_id(kind: str, number: int) -> str:
    """GitHub's legacy GraphQL id: base64 of `0<len>:<Kind><id>`."""
    return base64.b64encode(f"0{len(kind)}:{kind}{number}".encode()).decode()


def noreply(user: Record) -> str:
    return f"{user['id']}+{user['login']}@users.noreply.github.com"


def identity(user: Record, at: int) -> dict[str, Any]:
    """A commit author or committer for a user at a time (epoch microseconds)."""
    return {"name": user.get("name") or user["login"], "email": user.get("email") or noreply(user), "at": at}


class Repos:
    """Reads and writes repositories through a collection getter (`world.__getitem__` or `ctx.collection`)."""

    def __init__(self, collection: Callable[[str], Collection]) -> None:
        self.col = collection
        self.objects = Objects(collection(BLOBS), collection(TREES), collection(COMMITS))

    # -- reading -------------------------------------------------------------------------------------

    def repo(self, full_name: str) -> Record | None:
        return self.col(REPOS).get(full_name)

    def user_by_email(self, email: str) -> Record | None:
        found = self.col(USERS).by("email", email)
        if found:
            return found[0]
        name, _, domain = email.partition("@")
        if domain == "users.noreply.github.com":
            return self.col(USERS).get(name.partition("+")[2])
        return None

    def branch_sha(self, repo: str, branch: str) -> str | None:
        ref = self.col(REFS).get(ref_key(repo, HEADS + branch))
        return ref["sha"] if ref else None

    def branches(self, repo: str) -> list[Record]:
        """Branch refs of a repo, sorted by name as GitHub lists them."""
        refs = [r for r in self.col(REFS).by("repository", repo) if r["ref"].startswith(HEADS)]
        return sorted(refs, key=lambda r: r["ref"])

    def commit(self, sha: str) -> Record | None:
        return self.objects.commits.get(sha)

    def known(self, sha: str) -> Record:
        """A commit that must exist (resolved or checked before)."""
        record = self.objects.commits.get(sha)
        if record is None:
            raise KeyError(f"no commit {sha}")
        return record

    def resolve(self, repo: str, name: str) -> str | None:
        """A commit sha for a branch, tag, `heads/x`, `refs/heads/x`, full or abbreviated sha, or `production`."""
        refs = self.col(REFS)
        for candidate in (name, "refs/" + name, HEADS + name, "refs/tags/" + name):
            found = refs.get(ref_key(repo, candidate))
            if found:
                return found["sha"]
        if name == "production":
            record = self.repo(repo)
            return record.get("production") if record else None
        if _SHA.fullmatch(name):
            if len(name) == 40:
                return name if name in self.objects.commits else None
            matches = {c["sha"] for c in self.history_all(repo) if c["sha"].startswith(name)}
            return matches.pop() if len(matches) == 1 else None
        return None

    def files(self, sha: str) -> dict[str, str]:
        """Path -> blob sha of every file in a commit."""
        return git.flatten(self.objects, self.known(sha)["tree"])

    def file_at(self, repo: str, ref: str, path: str) -> str | None:
        """The text of `path` at a branch, sha or `production`; None if either does not exist."""
        sha = self.resolve(repo, ref)
        if sha is None:
            return None
        entry = git.entry_at(self.objects, self.known(sha)["tree"], path)
        return git.text(self.objects, entry["sha"]) if entry and entry["type"] == "blob" else None

    def history(self, sha: str) -> list[Record]:
        """Commits reachable from `sha`, newest first (by committer time, then discovery order)."""
        seen: dict[str, Record] = {}
        todo = [sha]
        while todo:
            current = todo.pop(0)
            if current in seen:
                continue
            record = self.commit(current)
            if record is None:
                continue
            seen[current] = record
            todo.extend(record["parents"])
        order = {s: i for i, s in enumerate(seen)}
        return sorted(seen.values(), key=lambda c: (-c["committer"]["at"], order[c["sha"]]))

    def history_all(self, repo: str) -> list[Record]:
        return self.objects.commits.by("repository", repo)

    def changed(self, before: str | None, after: str) -> list[dict[str, Any]]:
        """Files that differ between two commits (before None: the root commit), in path order, with
        `filename`, `status`, `additions`, `deletions`, `changes`, `patch`, `sha`, `previous` text."""
        old = self.files(before) if before else {}
        new = self.files(after)
        result = []
        for path in sorted(set(old) | set(new)):
            if old.get(path) == new.get(path):
                continue
            a = git.text(self.objects, old[path]) if path in old else None
            b = git.text(self.objects, new[path]) if path in new else None
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

    def merge_base(self, a: str, b: str) -> str | None:
        """The newest commit reachable from both."""
        theirs = {c["sha"] for c in self.history(b)}
        for commit in self.history(a):
            if commit["sha"] in theirs:
                return commit["sha"]
        return None

    def compare(self, base: str, head: str) -> dict[str, Any]:
        """`status` (identical/ahead/behind/diverged), `ahead_by`, `behind_by`, the merge base, the commits
        head has that base has not (oldest first) and the files changed from the merge base to head."""
        base_set = {c["sha"] for c in self.history(base)}
        head_set = {c["sha"] for c in self.history(head)}
        ahead = [c for c in reversed(self.history(head)) if c["sha"] not in base_set]
        behind = len(base_set - head_set)
        status = "identical" if base == head else "ahead" if not behind else "behind" if not ahead else "diverged"
        merge_base = self.merge_base(base, head)
        return {
            "status": status,
            "ahead_by": len(ahead),
            "behind_by": behind,
            "merge_base": merge_base,
            "commits": ahead,
            "files": self.changed(merge_base, head) if merge_base != head else [],
        }

    # -- writing -------------------------------------------------------------------------------------

    def set_ref(self, repo: str, ref: str, sha: str) -> Record:
        key = ref_key(repo, ref)
        refs = self.col(REFS)
        if key in refs:
            return refs.change(key, sha=sha)
        return refs.add(key, {"repository": repo, "ref": ref, "sha": sha})

    def commit_files(
        self, repo: str, parent: str | None, changes: dict[str, str | None], message: str, author: Record, committer: Record
    ) -> Record:
        """A new commit on top of `parent` with `changes` (path -> text, None deletes); refs unchanged."""
        files = self.files(parent) if parent else {}
        for path, content in changes.items():
            if content is None:
                files.pop(path, None)
            else:
                files[path] = git.write_blob(self.objects, content)
        return git.write_commit(self.objects, repo, files, [parent] if parent else [], message, author, committer)

    def commit_to_branch(
        self, repo: str, branch: str, changes: dict[str, str | None], message: str, author: Record, committer: Record
    ) -> Record:
        """Commits `changes` on top of a branch and moves the branch (used by contents PUT/DELETE)."""
        record = self.commit_files(repo, self.branch_sha(repo, branch), changes, message, author, committer)
        self.set_ref(repo, HEADS + branch, record["sha"])
        return record

    def merge(self, repo: str, ours: str, theirs: str, message: str, author: Record, committer: Record) -> Record | None:
        """A merge commit of `theirs` into `ours` (no ref moves); None on a conflict. When `ours` is
        already in `theirs`' history the answer is still a merge commit, as GitHub's merge button makes."""
        base = self.merge_base(ours, theirs)
        base_files = self.files(base) if base else {}
        our_files, their_files = self.files(ours), self.files(theirs)
        merged: dict[str, str] = {}
        for path in sorted(set(base_files) | set(our_files) | set(their_files)):
            blobs = (base_files.get(path), our_files.get(path), their_files.get(path))
            if blobs[1] == blobs[2] or blobs[0] == blobs[2]:
                chosen = blobs[1]
            elif blobs[0] == blobs[1]:
                chosen = blobs[2]
            else:
                texts = [git.text(self.objects, b) if b else None for b in blobs]
                clean, content = git.merge3(*texts)
                if not clean:
                    return None
                chosen = git.write_blob(self.objects, content) if content is not None else None
            if chosen is not None:
                merged[path] = chosen
        return git.write_commit(self.objects, repo, merged, [ours, theirs], message, author, committer)
