"""GitHub's response objects built from records, with every field the schema requires.

`base` is the API root of the request (`call.base`), so every `url` leads back to this world; `html_url`
fields point at github.com as GitHub's do. Times are ISO-8601 UTC with `Z` and no fraction.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from ...clock import US, iso
from ...world import Record
from .store import Repos, node_id

HTML = "https://github.com"
_REPO_URLS = {
    "archive_url": "/{archive_format}{/ref}",
    "assignees_url": "/assignees{/user}",
    "blobs_url": "/git/blobs{/sha}",
    "branches_url": "/branches{/branch}",
    "collaborators_url": "/collaborators{/collaborator}",
    "comments_url": "/comments{/number}",
    "commits_url": "/commits{/sha}",
    "compare_url": "/compare/{base}...{head}",
    "contents_url": "/contents/{+path}",
    "contributors_url": "/contributors",
    "deployments_url": "/deployments",
    "downloads_url": "/downloads",
    "events_url": "/events",
    "forks_url": "/forks",
    "git_commits_url": "/git/commits{/sha}",
    "git_refs_url": "/git/refs{/sha}",
    "git_tags_url": "/git/tags{/sha}",
    "hooks_url": "/hooks",
    "issue_comment_url": "/issues/comments{/number}",
    "issue_events_url": "/issues/events{/number}",
    "issues_url": "/issues{/number}",
    "keys_url": "/keys{/key_id}",
    "labels_url": "/labels{/name}",
    "languages_url": "/languages",
    "merges_url": "/merges",
    "milestones_url": "/milestones{/number}",
    "notifications_url": "/notifications{?since,all,participating}",
    "pulls_url": "/pulls{/number}",
    "releases_url": "/releases{/id}",
    "stargazers_url": "/stargazers",
    "statuses_url": "/statuses/{sha}",
    "subscribers_url": "/subscribers",
    "subscription_url": "/subscription",
    "tags_url": "/tags",
    "teams_url": "/teams",
    "trees_url": "/git/trees{/sha}",
}


def stamp(us: int) -> str:
    """A GitHub timestamp: whole seconds, `Z`."""
    return iso(us // US * US)


def user(base: str, record: Record) -> dict[str, Any]:
    """A simple-user."""
    login = record["login"]
    url = f"{base}/users/{login}"
    return {
        "login": login,
        "id": record["id"],
        "node_id": record["node_id"],
        "avatar_url": f"https://avatars.githubusercontent.com/u/{record['id']}?v=4",
        "gravatar_id": "",
        "url": url,
        "html_url": f"{HTML}/{login}",
        "followers_url": f"{url}/followers",
        "following_url": f"{url}/following{{/other_user}}",
        "gists_url": f"{url}/gists{{/gist_id}}",
        "starred_url": f"{url}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{url}/subscriptions",
        "organizations_url": f"{url}/orgs",
        "repos_url": f"{url}/repos",
        "events_url": f"{url}/events{{/privacy}}",
        "received_events_url": f"{url}/received_events",
        "type": record["type"],
        "user_view_type": "public",
        "site_admin": False,
    }


def public_user(base: str, record: Record, public_repos: int) -> dict[str, Any]:
    """A public-user (`GET /users/{username}`)."""
    return {
        **user(base, record),
        "name": record.get("name"),
        "company": None,
        "blog": "",
        "location": None,
        "email": record.get("email"),
        "hireable": None,
        "bio": None,
        "twitter_username": None,
        "public_repos": public_repos,
        "public_gists": 0,
        "followers": 0,
        "following": 0,
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["created_at"]),
    }


def private_user(base: str, record: Record, public_repos: int, private_repos: int) -> dict[str, Any]:
    """A private-user (`GET /user`): the public fields and the account's own counts."""
    return {
        **public_user(base, record, public_repos),
        "private_gists": 0,
        "total_private_repos": private_repos,
        "owned_private_repos": private_repos,
        "disk_usage": 0,
        "collaborators": 0,
        "two_factor_authentication": True,
        "plan": {"name": "pro", "space": 976562499, "private_repos": 9999, "collaborators": 0},
    }


def repository(base: str, repo: Record, owner: Record, full: bool = True, open_issues: int = 0) -> dict[str, Any]:
    """A full-repository (`full`) or a repository as lists give it; both carry the repository fields.
    `open_issues`: open issues and pull requests, as GitHub counts them."""
    name = repo["full_name"]
    url = f"{base}/repos/{name}"
    body: dict[str, Any] = {
        "id": repo["id"],
        "node_id": repo["node_id"],
        "name": repo["name"],
        "full_name": name,
        "private": repo["private"],
        "owner": user(base, owner),
        "html_url": f"{HTML}/{name}",
        "description": repo.get("description"),
        "fork": False,
        "url": url,
        **{key: url + suffix for key, suffix in _REPO_URLS.items()},
        "created_at": stamp(repo["created_at"]),
        "updated_at": stamp(repo["updated_at"]),
        "pushed_at": stamp(repo["pushed_at"]),
        "git_url": f"git://github.com/{name}.git",
        "ssh_url": f"git@github.com:{name}.git",
        "clone_url": f"{HTML}/{name}.git",
        "svn_url": f"{HTML}/{name}",
        "homepage": None,
        "size": 0,
        "stargazers_count": 0,
        "watchers_count": 0,
        "language": None,
        "has_issues": True,
        "has_projects": True,
        "has_downloads": True,
        "has_wiki": True,
        "has_pages": False,
        "has_discussions": False,
        "forks_count": 0,
        "mirror_url": None,
        "archived": False,
        "disabled": False,
        "open_issues_count": open_issues,
        "license": None,
        "allow_forking": True,
        "is_template": False,
        "web_commit_signoff_required": False,
        "topics": [],
        "visibility": "private" if repo["private"] else "public",
        "forks": 0,
        "open_issues": open_issues,
        "watchers": 0,
        "default_branch": repo["default_branch"],
        "permissions": {"admin": True, "maintain": True, "push": True, "triage": True, "pull": True},
    }
    if full:
        body.update(
            {
                "allow_squash_merge": True,
                "allow_merge_commit": True,
                "allow_rebase_merge": True,
                "allow_auto_merge": False,
                "delete_branch_on_merge": False,
                "network_count": 0,
                "subscribers_count": 0,
            }
        )
    return body


# -- commits -----------------------------------------------------------------------------------------


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
        "parents": [{"sha": p, "url": f"{url}/{p}", "html_url": f"{HTML}/{repo}/commit/{p}"} for p in commit["parents"]],
        "verification": _UNSIGNED,
    }


def commit(base: str, store: Repos, repo: str, record: Record, files: Sequence[Record] | None = None) -> dict[str, Any]:
    """A commit as `GET .../commits` lists it; with `files` (and `stats`) as `GET .../commits/{ref}` gives it."""
    sha = record["sha"]
    url = f"{base}/repos/{repo}/commits/{sha}"
    author = store.user_by_email(record["author"]["email"])
    committer = store.user_by_email(record["committer"]["email"])
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


def branch(base: str, store: Repos, repo: str, name: str, sha: str) -> dict[str, Any]:
    """A branch-with-protection (`GET .../branches/{branch}`), unprotected."""
    url = f"{base}/repos/{repo}/branches/{name}"
    return {
        "name": name,
        "commit": commit(base, store, repo, store.known(sha)),
        "_links": {"self": url, "html": f"{HTML}/{repo}/tree/{name}"},
        "protected": False,
        "protection": {"enabled": False, "required_status_checks": {"enforcement_level": "off", "contexts": [], "checks": []}},
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


def content_file(base: str, repo: str, ref: str, path: str, entry: Record, text: str) -> dict[str, Any]:
    return {**content_entry(base, repo, ref, path, entry, len(text.encode())), "content": encode(text), "encoding": "base64"}


def git_ref(base: str, repo: str, ref: Record) -> dict[str, Any]:
    name, sha = ref["ref"], ref["sha"]
    return {
        "ref": name,
        "node_id": node_id("Ref", int(sha[:12], 16)),
        "url": f"{base}/repos/{repo}/git/{name}",
        "object": {"sha": sha, "type": "commit", "url": f"{base}/repos/{repo}/git/commits/{sha}"},
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
