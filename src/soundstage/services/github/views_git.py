"""The response objects of git data: commits (as the commits API and the git data API give them), diff
entries, branches, contents, refs, trees and blobs."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from ...world import Record
from . import commits, repos, wire
from .records import Records, node_id
from .views import HTML, stamp, user


def git_person(person: Record) -> dict[str, Any]:
    return {"name": person["name"], "email": person["email"], "date": stamp(person["at"])}


_UNSIGNED = {"verified": False, "reason": "unsigned", "signature": None, "payload": None, "verified_at": None}


def git_commit(base: str, repo: str, commit: Record) -> dict[str, Any]:
    """A git-commit (`GET .../git/commits/{sha}`)."""
    url = f"{base}/repos/{repo}/git/commits"
    return {
        "sha": commit["sha"],
        "node_id": node_id("Commit", int(commit["sha"][:12], 16)),
        "url": f"{url}/{commit['sha']}",
        "html_url": f"{HTML}/{repo}/commit/{commit['sha']}",
        "author": git_person(commit["author"]),
        "committer": git_person(commit["committer"]),
        "tree": {"sha": commit["tree"], "url": f"{base}/repos/{repo}/git/trees/{commit['tree']}"},
        "message": commit["message"],
        "parents": [
            {"sha": p, "url": f"{url}/{p}", "html_url": f"{HTML}/{repo}/commit/{p}"} for p in commit["parents"]
        ],
        "verification": _UNSIGNED,
    }


def commit(
    base: str, records: Records, repo: str, record: Record, files: Sequence[Record] | None = None
) -> dict[str, Any]:
    """A commit as `GET .../commits` lists it; with `files` (and `stats`) as `GET .../commits/{ref}` gives it."""
    sha = record["sha"]
    url = f"{base}/repos/{repo}/commits/{sha}"
    author = repos.user_by_email(records, record["author"]["email"])
    committer = repos.user_by_email(records, record["committer"]["email"])
    body: dict[str, Any] = {
        "sha": sha,
        "node_id": node_id("Commit", int(sha[:12], 16)),
        "commit": {
            "author": git_person(record["author"]),
            "committer": git_person(record["committer"]),
            "message": record["message"],
            "tree": {"sha": record["tree"], "url": f"{base}/repos/{repo}/git/trees/{record['tree']}"},
            "url": f"{base}/repos/{repo}/git/commits/{sha}",
            "comment_count": 0,
            "verification": _UNSIGNED,
        },
        "url": url,
        "html_url": f"{HTML}/{repo}/commit/{sha}",
        "comments_url": f"{url}/comments",
        "author": user(base, author) if author else None,
        "committer": user(base, committer) if committer else None,
        "parents": [
            {"sha": p, "url": f"{base}/repos/{repo}/commits/{p}", "html_url": f"{HTML}/{repo}/commit/{p}"}
            for p in record["parents"]
        ],
    }
    if files is not None:
        additions = sum(f["additions"] for f in files)
        deletions = sum(f["deletions"] for f in files)
        body["stats"] = {"total": additions + deletions, "additions": additions, "deletions": deletions}
        body["files"] = [diff_entry(base, repo, sha, f) for f in files]
    return body


def diff_entry(base: str, repo: str, sha: str, change: Record) -> dict[str, Any]:
    """A diff-entry: one changed file of a commit or comparison."""
    path = change["filename"]
    entry = {
        "sha": change["sha"],
        "filename": path,
        "status": change["status"],
        "additions": change["additions"],
        "deletions": change["deletions"],
        "changes": change["changes"],
        "blob_url": f"{HTML}/{repo}/blob/{sha}/{path}",
        "raw_url": f"{HTML}/{repo}/raw/{sha}/{path}",
        "contents_url": f"{base}/repos/{repo}/contents/{path}?ref={sha}",
    }
    if change["patch"]:
        entry["patch"] = change["patch"]
    return entry


def short_branch(base: str, repo: str, name: str, sha: str) -> dict[str, Any]:
    return {"name": name, "commit": {"sha": sha, "url": f"{base}/repos/{repo}/commits/{sha}"}, "protected": False}


def branch(base: str, records: Records, repo: str, name: str, sha: str) -> dict[str, Any]:
    """A branch-with-protection (`GET .../branches/{branch}`), unprotected."""
    url = f"{base}/repos/{repo}/branches/{name}"
    return {
        "name": name,
        "commit": commit(base, records, repo, commits.known(records.objects, sha)),
        "_links": {"self": url, "html": f"{HTML}/{repo}/tree/{name}"},
        "protected": False,
        "protection": {
            "enabled": False,
            "required_status_checks": {"enforcement_level": "off", "contexts": [], "checks": []},
        },
        "protection_url": f"{url}/protection",
    }


# -- contents and git data ---------------------------------------------------------------------------


def content_entry(base: str, repo: str, ref: str, path: str, entry: Record, size: int) -> dict[str, Any]:
    """One item of a directory listing (also the head of a file's content)."""
    kind = "dir" if entry["type"] == "tree" else "file"
    url = f"{base}/repos/{repo}/contents/{path}?ref={ref}"
    git_url = f"{base}/repos/{repo}/git/{'trees' if kind == 'dir' else 'blobs'}/{entry['sha']}"
    html_url = f"{HTML}/{repo}/{'tree' if kind == 'dir' else 'blob'}/{ref}/{path}"
    return {
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "sha": entry["sha"],
        "size": size,
        "url": url,
        "html_url": html_url,
        "git_url": git_url,
        "download_url": f"https://raw.githubusercontent.com/{repo}/{ref}/{path}" if kind == "file" else None,
        "type": kind,
        "_links": {"self": url, "git": git_url, "html": html_url},
    }


def encode(text: str) -> str:
    """Base64 in 60-character lines, each ending in a newline, as GitHub sends file content."""
    raw = base64.b64encode(text.encode()).decode()
    return "".join(raw[i : i + 60] + "\n" for i in range(0, len(raw), 60))


# Rendered file contents by what they show (the blob is its sha), up to `_FILE_CACHED` characters of text
# each; bounded (emptied when full). Shared between answers and never changed (`wire.share`).
_FILES_MAX = 256
_FILE_CACHED = 64 << 10
_FILES: dict[tuple[str, str, str, str, str], dict[str, Any]] = {}


def content_file(base: str, repo: str, ref: str, path: str, entry: Record, text: str) -> dict[str, Any]:
    """A file's content object (`entry`: its tree entry, `text`: its blob's text)."""
    key = (base, repo, ref, path, entry["sha"])
    found = _FILES.get(key)
    if found is not None:
        return found
    found = {
        **content_entry(base, repo, ref, path, entry, len(text.encode())),
        "content": encode(text),
        "encoding": "base64",
    }
    if len(text) <= _FILE_CACHED:
        if len(_FILES) >= _FILES_MAX:
            _FILES.clear()
        _FILES[key] = wire.share(found)
    return found


def git_ref(base: str, records: Records, repo: str, ref: Record) -> dict[str, Any]:
    """A ref, naming a commit or an annotated tag."""
    name, sha = ref["ref"], ref["sha"]
    kind = "tag" if sha in records.objects.tags else "commit"
    return {
        "ref": name,
        "node_id": node_id("Ref", int(sha[:12], 16)),
        "url": f"{base}/repos/{repo}/git/{name}",
        "object": {"sha": sha, "type": kind, "url": f"{base}/repos/{repo}/git/{kind}s/{sha}"},
    }


def git_tag(base: str, repo: str, tag: Record) -> dict[str, Any]:
    """An annotated tag (`GET .../git/tags/{tag_sha}`): its tagger's date in UTC, as every REST date."""
    sha, target = tag["sha"], tag["object"]
    return {
        "node_id": node_id("Tag", int(sha[:12], 16)),
        "sha": sha,
        "url": f"{base}/repos/{repo}/git/tags/{sha}",
        "tagger": git_person(tag["tagger"]),
        "object": {"sha": target, "type": tag["type"], "url": f"{base}/repos/{repo}/git/commits/{target}"},
        "tag": tag["tag"],
        "message": tag["message"],
        "verification": _UNSIGNED,
    }


def tree_entry(base: str, repo: str, entry: Record, size: int | None, path: str) -> dict[str, Any]:
    kind = "trees" if entry["type"] == "tree" else "blobs"
    body = {"path": path, "mode": entry["mode"], "type": entry["type"], "sha": entry["sha"]}
    if size is not None:
        body["size"] = size
    body["url"] = f"{base}/repos/{repo}/git/{kind}/{entry['sha']}"
    return body


def blob(base: str, repo: str, record: Record) -> dict[str, Any]:
    return {
        "sha": record["sha"],
        "node_id": node_id("Blob", int(record["sha"][:12], 16)),
        "size": record["size"],
        "url": f"{base}/repos/{repo}/git/blobs/{record['sha']}",
        "content": encode(record["content"]),
        "encoding": "base64",
    }
