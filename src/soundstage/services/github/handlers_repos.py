"""Accounts, repositories, contents, branches, commits and comparisons, one function per operation.

Every handler validates all it reads (raising `GitHubError`) before its first write.
"""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record
from ..base import Reply
from . import commits, diffs, git, media, repos, views, views_git
from .calls import Call, created, decoded, ops, paginate
from .errors import GitHubError, not_found
from .limits import limit_for, rate_used
from .store import HEADS, REPOS, USERS

_CONTENTS_DOCS = "https://docs.github.com/rest/repos/contents#get-repository-content"
_PUT_CONTENTS_DOCS = "https://docs.github.com/rest/repos/contents#create-or-update-file-contents"


# The other resources of `GET /rate_limit`: limit and window in seconds (from GitHub's recorded answers;
# code search from its documented 10 a minute).
_RESOURCES = {
    "search": (30, 60),
    "graphql": (5000, 3600),
    "integration_manifest": (5000, 3600),
    "source_import": (100, 60),
    "code_scanning_upload": (1000, 3600),
    "code_scanning_autofix": (10, 60),
    "actions_runner_registration": (10000, 3600),
    "scim": (15000, 3600),
    "dependency_snapshots": (100, 60),
    "audit_log": (1750, 3600),
    "audit_log_streaming": (15, 3600),
    "code_search": (10, 60),
}


# -- accounts ----------------------------------------------------------------------------------------


@ops("GET /user")
def get_authenticated(call: Call) -> Any:
    public, private = repos.repo_counts(call.records, call.login)
    return views.private_user(call.base, call.me, public, private)


@ops("GET /users/{username}")
def get_user(call: Call) -> Any:
    record = call.world[USERS].get(call.params["username"])
    if record is None:
        raise not_found("https://docs.github.com/rest/users/users#get-a-user")
    return views.public_user(call.base, record, repos.repo_counts(call.records, record["login"])[0])


@ops("GET /orgs/{org}")
def get_org(call: Call) -> Any:
    org = call.world[USERS].get(call.params["org"])
    if org is None or org["type"] != "Organization":
        raise not_found("https://docs.github.com/rest/orgs/orgs#get-an-organization")
    return views.organization(call.base, org, repos.repo_counts(call.records, org["login"])[0])


@ops("GET /rate_limit")
def rate_limit(call: Call) -> Any:
    """Every resource GitHub reports, with its limit: only `core` counts calls here; the others are
    untouched, their windows starting now (a minute for search and a few more, an hour for the rest)."""
    anonymous = call.user is None
    used, reset = rate_used(call.world, anonymous)
    limit = limit_for(anonymous)
    core = {"limit": limit, "used": used, "remaining": limit - used, "reset": reset}
    now = call.now() // US
    resources = {"core": core}
    for name, (limit, window) in _RESOURCES.items():
        resources[name] = {"limit": limit, "used": 0, "remaining": limit, "reset": now + window}
    return {"resources": resources, "rate": core}


# -- repositories ------------------------------------------------------------------------------------


def _view(call: Call, record: Record, full: bool = True) -> dict[str, Any]:
    return views.repository_of(call.base, call.records, record, full)


@ops("GET /repos/{owner}/{repo}")
def get_repo(call: Call) -> Any:
    return _view(call, call.repo())


@ops("GET /user/repos")
def list_mine(call: Call) -> Any:
    records = sorted(call.world[REPOS], key=lambda r: r["full_name"].lower())
    return paginate(call, records, lambda r: _view(call, r, full=False))


@ops("GET /users/{username}/repos")
def list_for_user(call: Call) -> Any:
    owner = call.world[USERS].get(call.params["username"])
    if owner is None:
        raise not_found("https://docs.github.com/rest/repos/repos#list-repositories-for-a-user")
    records = sorted(call.visible(call.world[REPOS].by("owner", owner["login"])), key=lambda r: r["full_name"].lower())
    return paginate(call, records, lambda r: _view(call, r, full=False))


@ops("GET /orgs/{org}/repos")
def list_org(call: Call) -> Any:
    org = call.world[USERS].get(call.params["org"])
    if org is None or org["type"] != "Organization":
        raise not_found("https://docs.github.com/rest/repos/repos#list-organization-repositories")
    records = call.visible(call.world[REPOS].by("owner", org["login"]))
    return paginate(call, records, lambda r: _view(call, r, full=False))


# -- contents ----------------------------------------------------------------------------------------


def _commit_at(call: Call, repo: Record, ref: str | None) -> tuple[str, str]:
    """(ref name, commit sha) of the `ref` query (default: the default branch); 404 as GitHub words it."""
    name = ref or repo["default_branch"]
    sha = repos.resolve(call.records, repo["full_name"], name)
    if sha is None:
        if ref is None:
            raise GitHubError(404, "This repository is empty.", documentation_url=_CONTENTS_DOCS)
        raise GitHubError(404, f"No commit found for the ref {name}", documentation_url=_CONTENTS_DOCS)
    return name, sha


@ops("GET /repos/{owner}/{repo}/contents/{path}")
def get_content(call: Call) -> Any:
    repo = call.repo()
    objects = call.records.objects
    ref = call.query.get("ref")
    name, sha = _commit_at(call, repo, ref if isinstance(ref, str) and ref else None)
    path = call.params["path"].strip("/")
    entry = git.entry_at(objects, commits.known(objects, sha)["tree"], path)
    if entry is None:
        raise not_found(_CONTENTS_DOCS)
    full = repo["full_name"]
    if entry["type"] == "blob":
        if media.param(call.request) == "raw":
            return media.text_reply(call.request, git.text(objects, entry["sha"]))
        return views_git.content_file(call.base, full, name, path, entry, git.text(objects, entry["sha"]))
    listing = []
    for item in git.entries(objects, entry["sha"]):
        size = git.size(objects, item["sha"]) if item["type"] == "blob" else 0
        listing.append(views_git.content_entry(call.base, full, name, f"{path}/{item['path']}".lstrip("/"), item, size))
    return listing


def _people(call: Call) -> tuple[Record, Record]:
    """The author and committer of a contents write: the committer defaults to the caller, the author to
    the committer (as GitHub documents)."""
    committer = call.person("committer") or repos.identity(call.me, call.now())
    return call.person("author") or committer, committer


def _branch_for_write(call: Call, repo: Record) -> tuple[str, str | None]:
    branch = call.text("branch") or repo["default_branch"]
    sha = repos.branch_sha(call.records, repo["full_name"], branch)
    if sha is None and repos.branches(call.records, repo["full_name"]):
        raise GitHubError(404, f"Branch {branch} not found", documentation_url=_CONTENTS_DOCS)
    return branch, sha


def _write_reply(call: Call, repo: Record, branch: str, path: str, commit: Record) -> dict[str, Any]:
    objects = call.records.objects
    full = repo["full_name"]
    entry = git.entry_at(objects, commit["tree"], path)
    content = None
    if entry is not None:
        content = views_git.content_entry(call.base, full, branch, path, entry, git.size(objects, entry["sha"]))
    call.world[REPOS].change(full, pushed_at=call.now(), updated_at=call.now())
    return {"content": content, "commit": views_git.git_commit(call.base, full, commit)}


@ops("PUT /repos/{owner}/{repo}/contents/{path}")
def put_content(call: Call) -> Any:
    repo = call.repo()
    path = call.params["path"].strip("/")
    message = call.required_text("message")
    encoded = call.required_text("content")
    given_sha = call.text("sha")
    text = decoded(encoded, "content is not valid Base64", _PUT_CONTENTS_DOCS)
    branch, head = _branch_for_write(call, repo)
    author, committer = _people(call)
    objects = call.records.objects
    current = git.entry_at(objects, commits.known(objects, head)["tree"], path) if head else None
    if current is not None and current["type"] == "tree":
        raise GitHubError(422, f'Invalid request.\n\n"{path}" is a directory.')
    blocked = git.clash([*(commits.files(objects, head) if head else {}), path])
    if current is None and blocked is not None:
        raise GitHubError(422, f'Invalid request.\n\n"{blocked}" is a file, not a directory.')
    if current is not None and given_sha is None:
        raise GitHubError(422, 'Invalid request.\n\n"sha" wasn\'t supplied.')
    if current is not None and given_sha != current["sha"]:
        raise GitHubError(409, f"{path} does not match {given_sha}")
    commit = repos.commit_to_branch(call.records, repo["full_name"], branch, {path: text}, message, author, committer)
    body = _write_reply(call, repo, branch, path, commit)
    return Reply(200, body) if current is not None else created(body)


@ops("DELETE /repos/{owner}/{repo}/contents/{path}")
def delete_content(call: Call) -> Any:
    repo = call.repo()
    path = call.params["path"].strip("/")
    message = call.required_text("message")
    given_sha = call.required_text("sha")
    branch, head = _branch_for_write(call, repo)
    author, committer = _people(call)
    objects = call.records.objects
    current = git.entry_at(objects, commits.known(objects, head)["tree"], path) if head else None
    if current is None or current["type"] != "blob":
        raise not_found("https://docs.github.com/rest/repos/contents#delete-a-file")
    if given_sha != current["sha"]:
        raise GitHubError(409, f"{path} does not match {given_sha}")
    commit = repos.commit_to_branch(call.records, repo["full_name"], branch, {path: None}, message, author, committer)
    return _write_reply(call, repo, branch, path, commit)


# -- branches, commits, comparisons ------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/branches")
def list_branches(call: Call) -> Any:
    full = call.repo()["full_name"]
    refs = repos.branches(call.records, full)
    return paginate(call, refs, lambda r: views_git.short_branch(call.base, full, r["ref"][len(HEADS) :], r["sha"]))


@ops("GET /repos/{owner}/{repo}/branches/{branch}")
def get_branch(call: Call) -> Any:
    full = call.repo()["full_name"]
    sha = repos.branch_sha(call.records, full, call.params["branch"])
    if sha is None:
        raise GitHubError(
            404, "Branch not found", documentation_url="https://docs.github.com/rest/branches/branches#get-a-branch"
        )
    return views_git.branch(call.base, call.records, full, call.params["branch"], sha)


def _touches(call: Call, commit: Record, path: str) -> bool:
    """Whether a commit changed `path` (a file, or anything under a directory) against its first parent."""

    def under(files: dict[str, str]) -> dict[str, str]:
        return {p: s for p, s in files.items() if p == path or p.startswith(path.rstrip("/") + "/")}

    objects = call.records.objects
    mine = under(commits.files(objects, commit["sha"]))
    parent = under(commits.files(objects, commit["parents"][0])) if commit["parents"] else {}
    return mine != parent


def _login(call: Call, record: Record) -> str | None:
    user = repos.user_by_email(call.records, record["author"]["email"])
    return user["login"] if user else None


@ops("GET /repos/{owner}/{repo}/commits")
def list_commits(call: Call) -> Any:
    repo = call.repo()
    full = repo["full_name"]
    since, until = call.moment("since"), call.moment("until")
    start = call.query.get("sha") if isinstance(call.query.get("sha"), str) and call.query.get("sha") else None
    head = repos.resolve(call.records, full, start or repo["default_branch"])
    docs = "https://docs.github.com/rest/commits/commits#list-commits"
    if head is None:
        if start is None:
            raise GitHubError(409, "Git Repository is empty.", documentation_url=docs)
        raise GitHubError(404, f"No commit found for SHA: {start}", documentation_url=docs)
    path = call.query.get("path")
    author = call.query.get("author")
    found = []
    for record in commits.history(call.records.objects, head):
        when = record["committer"]["at"]
        if (since is not None and when < since) or (until is not None and when > until):
            continue
        if isinstance(path, str) and path and not _touches(call, record, path.strip("/")):
            continue
        if isinstance(author, str) and author and author not in (record["author"]["email"], _login(call, record)):
            continue
        found.append(record)
    return paginate(call, found, lambda r: views_git.commit(call.base, call.records, full, r))


@ops("GET /repos/{owner}/{repo}/commits/{ref}")
def get_commit(call: Call) -> Any:
    repo = call.repo()
    sha = call.ref_sha(repo)
    objects = call.records.objects
    record = commits.known(objects, sha)
    parent = record["parents"][0] if record["parents"] else None
    kind = media.param(call.request)
    if kind == "sha":
        return media.text_reply(call.request, sha)
    if kind == "diff":
        return media.text_reply(call.request, diffs.diff(objects, parent, sha))
    if kind == "patch":
        return media.text_reply(call.request, diffs.format_patch(objects, [record]))
    changed = commits.changed(objects, parent, sha)
    return views_git.commit(call.base, call.records, repo["full_name"], record, changed)


@ops("GET /repos/{owner}/{repo}/compare/{basehead}")
def compare(call: Call) -> Any:
    full = call.repo()["full_name"]
    records = call.records
    objects = records.objects
    base_name, sep, head_name = call.params["basehead"].partition("...")
    base, head = repos.resolve(records, full, base_name), repos.resolve(records, full, head_name)
    if not sep or base is None or head is None:
        raise not_found("https://docs.github.com/rest/commits/commits#compare-two-commits")
    result = commits.compare(objects, base, head)
    kind = media.param(call.request)
    if kind == "diff":
        return media.text_reply(call.request, diffs.diff(objects, result["merge_base"], head))
    if kind == "patch":
        return media.text_reply(call.request, diffs.format_patch(objects, result["commits"]))
    url = f"{call.base}/repos/{full}"
    html = f"{views.HTML}/{full}"
    return {
        "url": f"{url}/compare/{base_name}...{head_name}",
        "html_url": f"{html}/compare/{base_name}...{head_name}",
        "permalink_url": f"{html}/compare/{full.split('/')[0]}:{base[:7]}...{full.split('/')[0]}:{head[:7]}",
        "diff_url": f"{html}/compare/{base_name}...{head_name}.diff",
        "patch_url": f"{html}/compare/{base_name}...{head_name}.patch",
        "base_commit": views_git.commit(call.base, records, full, commits.known(objects, base)),
        "merge_base_commit": views_git.commit(
            call.base, records, full, commits.known(objects, result["merge_base"] or base)
        ),
        "status": result["status"],
        "ahead_by": result["ahead_by"],
        "behind_by": result["behind_by"],
        "total_commits": result["ahead_by"],
        "commits": [views_git.commit(call.base, records, full, c) for c in result["commits"]],
        "files": [views_git.diff_entry(call.base, full, head, f) for f in result["files"]],
    }
