"""Accounts, repositories and refs, without HTTP: who a commit's email belongs to, what a branch, tag,
sha or `production` names, and moving refs.
"""

from __future__ import annotations

import re
from typing import Any

from ...world import Record
from . import commits
from .records import Records
from .store import HEADS, REFS, REPOS, TAG_OBJECTS, USERS, ref_key

_SHA = re.compile(r"[0-9a-f]{4,40}")


def noreply(user: Record) -> str:
    return f"{user['id']}+{user['login']}@users.noreply.github.com"


def identity(user: Record, at: int) -> dict[str, Any]:
    """A commit author or committer for a user at a time (epoch microseconds)."""
    return {"name": user.get("name") or user["login"], "email": user.get("email") or noreply(user), "at": at}


def user(records: Records, login: str) -> Record | None:
    return records[USERS].get(login)


def user_by_email(records: Records, email: str) -> Record | None:
    found = records[USERS].by("email", email)
    if found:
        return found[0]
    name, _, domain = email.partition("@")
    if domain == "users.noreply.github.com":
        return records[USERS].get(name.partition("+")[2])
    return None


def repo(records: Records, full_name: str) -> Record | None:
    return records[REPOS].get(full_name)


def branch_sha(records: Records, repo: str, branch: str) -> str | None:
    ref = records[REFS].get(ref_key(repo, HEADS + branch))
    return ref["sha"] if ref else None


def branches(records: Records, repo: str) -> list[Record]:
    """Branch refs of a repo, sorted by name as GitHub lists them."""
    return refs(records, repo, HEADS.removeprefix("refs/"))


def resolve(records: Records, repo: str, name: str) -> str | None:
    """A commit sha for a branch, tag, `heads/x`, `refs/heads/x`, full or abbreviated sha, or `production`."""
    refs = records[REFS]
    for candidate in (name, "refs/" + name, HEADS + name, "refs/tags/" + name):
        found = refs.get(ref_key(repo, candidate))
        if found:
            tag = records[TAG_OBJECTS].get(found["sha"])  # an annotated tag names its commit
            return tag["object"] if tag else found["sha"]
    if name == "production":
        record = records[REPOS].get(repo)
        return record.get("production") if record else None
    if _SHA.fullmatch(name):
        shas = records.objects.commits
        if len(name) == 40:
            return name if name in shas else None
        matches = {c["sha"] for c in shas.by("repository", repo) if c["sha"].startswith(name)}
        return matches.pop() if len(matches) == 1 else None
    return None


def set_ref(records: Records, repo: str, ref: str, sha: str) -> Record:
    key = ref_key(repo, ref)
    refs = records[REFS]
    if key in refs:
        return refs.change(key, sha=sha)
    return refs.add(key, {"repository": repo, "ref": ref, "sha": sha})


def commit_to_branch(
    records: Records,
    repo: str,
    branch: str,
    changes: dict[str, str | None],
    message: str,
    author: Record,
    committer: Record,
) -> Record:
    """Commits `changes` (path -> text, None deletes) on top of a branch and moves the branch (contents
    PUT and DELETE)."""
    head = branch_sha(records, repo, branch)
    record = commits.commit_changes(records.objects, repo, [head] if head else [], changes, message, author, committer)
    set_ref(records, repo, HEADS + branch, record["sha"])
    return record


def repo_counts(records: Records, login: str) -> tuple[int, int]:
    """How many public and how many private repos an account owns."""
    owned = records[REPOS].by("owner", login)
    private = sum(1 for r in owned if r["private"])
    return len(owned) - private, private


def ref(records: Records, repo: str, name: str) -> Record | None:
    """The ref `refs/<name>` (given with or without `refs/`) of a repo."""
    return records[REFS].get(ref_key(repo, "refs/" + name.removeprefix("refs/")))


def refs(records: Records, repo: str, prefix: str = "") -> list[Record]:
    """Refs of a repo whose name starts with `refs/<prefix>`, sorted by name."""
    wanted = "refs/" + prefix
    return sorted(
        (r for r in records[REFS].by("repository", repo) if r["ref"].startswith(wanted)), key=lambda r: r["ref"]
    )
