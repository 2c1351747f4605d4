"""Accounts, repositories, contents, branches, commits and comparisons, one function per operation.

Every handler validates all it reads (raising `GitHubError`) before its first write.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from ...clock import parse_time
from ...world import Record
from . import git, views
from .errors import GitHubError, not_found
from .router import Call, Reply, created, ops, paginate, rate_used
from .store import HEADS, REPOS, USERS, Repos, identity
from .work import Work

_CONTENTS_DOCS = "https://docs.github.com/rest/repos/contents#get-repository-content"


def repos(call: Call) -> Repos:
    return Repos(call.world.__getitem__)


def repo_of(call: Call) -> Record:
    """The repository of the path's `{owner}/{repo}`, or 404."""
    record = call.world[REPOS].get(f"{call.params['owner']}/{call.params['repo']}")
    if record is None:
        raise not_found("https://docs.github.com/rest/repos/repos#get-a-repository")
    return record


def work_of(call: Call) -> Work:
    """The issues-and-pulls store over the call's world."""
    return Work(call.world.__getitem__, call.world.ids)


def repo_view(call: Call, record: Record, full: bool = True) -> dict[str, Any]:
    owner = call.world[USERS].get(record["owner"])
    if owner is None:
        raise KeyError(f"no owner {record['owner']}")
    open_items = work_of(call).open_items(record["full_name"])
    return views.repository(call.base, record, owner, full, open_items)


def _counts(call: Call, login: str) -> tuple[int, int]:
    owned = call.world[REPOS].by("owner", login)
    private = sum(1 for r in owned if r["private"])
    return len(owned) - private, private


def text_arg(call: Call, name: str, required: bool = False) -> str | None:
    """A string field of the JSON body, None when absent; a missing `required` one is GitHub's
    `"x" wasn't supplied.`."""
    value = call.fields.get(name)
    if value is None and required:
        raise GitHubError(422, f'Invalid request.\n\n"{name}" wasn\'t supplied.')
    if value is not None and not isinstance(value, str):
        raise GitHubError(422, f"Invalid request.\n\nFor '{name}', {_show(value)} is not a string.")
    return value


def required_text(call: Call, name: str) -> str:
    """`text_arg(call, name, required=True)`, typed as always a string."""
    return text_arg(call, name, required=True) or ""


def _show(value: Any) -> str:
    return "nil" if value is None else str(value).lower() if isinstance(value, bool) else repr(value)


# -- accounts ----------------------------------------------------------------------------------------


@ops("GET /user")
def get_authenticated(call: Call) -> Any:
    public, private = _counts(call, call.login)
    return views.private_user(call.base, call.user, public, private)


@ops("GET /users/{username}")
def get_user(call: Call) -> Any:
    record = call.world[USERS].get(call.params["username"])
    if record is None:
        raise not_found("https://docs.github.com/rest/users/users#get-a-user")
    return views.public_user(call.base, record, _counts(call, record["login"])[0])


@ops("GET /rate_limit")
def rate_limit(call: Call) -> Any:
    used, reset = rate_used(call.world)
    core = {"limit": 5000, "used": used, "remaining": 5000 - used, "reset": reset}
    search = {"limit": 30, "used": 0, "remaining": 30, "reset": reset - 3600 + 60}
    graphql = {"limit": 5000, "used": 0, "remaining": 5000, "reset": reset}
    return {"resources": {"core": core, "search": search, "graphql": graphql}, "rate": core}


# -- repositories ------------------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}")
def get_repo(call: Call) -> Any:
    return repo_view(call, repo_of(call))


@ops("GET /user/repos")
def list_mine(call: Call) -> Any:
    records = sorted(call.world[REPOS], key=lambda r: r["full_name"].lower())
    return paginate(call, records, lambda r: repo_view(call, r, full=False))


@ops("GET /users/{username}/repos")
def list_for_user(call: Call) -> Any:
    owner = call.world[USERS].get(call.params["username"])
    if owner is None:
        raise not_found("https://docs.github.com/rest/repos/repos#list-repositories-for-a-user")
    records = sorted(call.world[REPOS].by("owner", owner["login"]), key=lambda r: r["full_name"].lower())
    return paginate(call, records, lambda r: repo_view(call, r, full=False))


@ops("GET /orgs/{org}/repos")
def list_org(call: Call) -> Any:
    org = call.world[USERS].get(call.params["org"])
    if org is None or org["type"] != "Organization":
        raise not_found("https://docs.github.com/rest/repos/repos#list-organization-repositories")
    records = call.world[REPOS].by("owner", org["login"])
    return paginate(call, records, lambda r: repo_view(call, r, full=False))


# -- contents ----------------------------------------------------------------------------------------


def _commit_at(call: Call, repo: Record, ref: str | None) -> tuple[str, str]:
    """(ref name, commit sha) of the `ref` query (default: the default branch); 404 as GitHub words it."""
    name = ref or repo["default_branch"]
    sha = repos(call).resolve(repo["full_name"], name)
    if sha is None:
        if ref is None:
            raise GitHubError(404, "This repository is empty.", documentation_url=_CONTENTS_DOCS)
        raise GitHubError(404, f"No commit found for the ref {name}", documentation_url=_CONTENTS_DOCS)
    return name, sha


@ops("GET /repos/{owner}/{repo}/contents/{path}")
def get_content(call: Call) -> Any:
    repo = repo_of(call)
    store = repos(call)
    ref = call.query.get("ref")
    name, sha = _commit_at(call, repo, ref if isinstance(ref, str) and ref else None)
    path = call.params["path"].strip("/")
    entry = git.entry_at(store.objects, store.known(sha)["tree"], path)
    if entry is None:
        raise not_found(_CONTENTS_DOCS)
    full = repo["full_name"]
    if entry["type"] == "blob":
        return views.content_file(call.base, full, name, path, entry, git.text(store.objects, entry["sha"]))
    listing = []
    for item in git.entries(store.objects, entry["sha"]):
        size = git.size(store.objects, item["sha"]) if item["type"] == "blob" else 0
        listing.append(views.content_entry(call.base, full, name, f"{path}/{item['path']}".lstrip("/"), item, size))
    return listing


def _person(call: Call, field: str) -> Record | None:
    given = call.fields.get(field)
    if given is None:
        return None
    if not isinstance(given, dict) or not isinstance(given.get("name"), str) or not isinstance(given.get("email"), str):
        raise GitHubError(422, f"Invalid request.\n\n{field} must have name and email.")
    return {"name": given["name"], "email": given["email"], "at": call.now()}


def _people(call: Call) -> tuple[Record, Record]:
    """The author and committer of a contents write: the committer defaults to the caller, the author to
    the committer (as GitHub documents)."""
    committer = _person(call, "committer") or identity(call.user, call.now())
    return _person(call, "author") or committer, committer


def _branch_for_write(call: Call, repo: Record) -> tuple[str, str | None]:
    branch = text_arg(call, "branch") or repo["default_branch"]
    sha = repos(call).branch_sha(repo["full_name"], branch)
    if sha is None and repos(call).branches(repo["full_name"]):
        raise GitHubError(404, f"Branch {branch} not found", documentation_url=_CONTENTS_DOCS)
    return branch, sha


def _write_reply(call: Call, repo: Record, branch: str, path: str, commit: Record) -> dict[str, Any]:
    store = repos(call)
    full = repo["full_name"]
    entry = git.entry_at(store.objects, commit["tree"], path)
    content = None
    if entry is not None:
        content = views.content_entry(call.base, full, branch, path, entry, git.size(store.objects, entry["sha"]))
    call.world[REPOS].change(full, pushed_at=call.now(), updated_at=call.now())
    return {"content": content, "commit": views.git_commit(call.base, full, commit)}


@ops("PUT /repos/{owner}/{repo}/contents/{path}")
def put_content(call: Call) -> Any:
    repo = repo_of(call)
    path = call.params["path"].strip("/")
    message = required_text(call, "message")
    encoded = required_text(call, "content")
    given_sha = text_arg(call, "sha")
    try:
        text = base64.b64decode("".join(encoded.split()), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise GitHubError(422, "content is not valid Base64") from exc
    branch, head = _branch_for_write(call, repo)
    author, committer = _people(call)
    store = repos(call)
    current = git.entry_at(store.objects, store.known(head)["tree"], path) if head else None
    if current is not None and current["type"] == "tree":
        raise GitHubError(422, f"Invalid request.\n\n\"{path}\" is a directory.")
    blocked = git.clash([*(store.files(head) if head else {}), path])
    if current is None and blocked is not None:
        raise GitHubError(422, f"Invalid request.\n\n\"{blocked}\" is a file, not a directory.")
    if current is not None and given_sha is None:
        raise GitHubError(422, 'Invalid request.\n\n"sha" wasn\'t supplied.')
    if current is not None and given_sha != current["sha"]:
        raise GitHubError(409, f"{path} does not match {given_sha}")
    commit = store.commit_to_branch(repo["full_name"], branch, {path: text}, message, author, committer)
    body = _write_reply(call, repo, branch, path, commit)
    return Reply(200, body) if current is not None else created(body)


@ops("DELETE /repos/{owner}/{repo}/contents/{path}")
def delete_content(call: Call) -> Any:
    repo = repo_of(call)
    path = call.params["path"].strip("/")
    message = required_text(call, "message")
    given_sha = required_text(call, "sha")
    branch, head = _branch_for_write(call, repo)
    author, committer = _people(call)
    store = repos(call)
    current = git.entry_at(store.objects, store.known(head)["tree"], path) if head else None
    if current is None or current["type"] != "blob":
        raise not_found("https://docs.github.com/rest/repos/contents#delete-a-file")
    if given_sha != current["sha"]:
        raise GitHubError(409, f"{path} does not match {given_sha}")
    commit = store.commit_to_branch(repo["full_name"], branch, {path: None}, message, author, committer)
    return _write_reply(call, repo, branch, path, commit)


# -- branches, commits, comparisons ------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/branches")
def list_branches(call: Call) -> Any:
    full = repo_of(call)["full_name"]
    refs = repos(call).branches(full)
    return paginate(call, refs, lambda r: views.short_branch(call.base, full, r["ref"][len(HEADS) :], r["sha"]))


@ops("GET /repos/{owner}/{repo}/branches/{branch}")
def get_branch(call: Call) -> Any:
    full = repo_of(call)["full_name"]
    store = repos(call)
    sha = store.branch_sha(full, call.params["branch"])
    if sha is None:
        raise GitHubError(404, "Branch not found", documentation_url="https://docs.github.com/rest/branches/branches#get-a-branch")
    return views.branch(call.base, store, full, call.params["branch"], sha)


def _touches(store: Repos, commit: Record, path: str) -> bool:
    """Whether a commit changed `path` (a file, or anything under a directory) against its first parent."""
    def under(files: dict[str, str]) -> dict[str, str]:
        return {p: s for p, s in files.items() if p == path or p.startswith(path.rstrip("/") + "/")}

    mine = under(store.files(commit["sha"]))
    parent = under(store.files(commit["parents"][0])) if commit["parents"] else {}
    return mine != parent


def _time_arg(call: Call, name: str) -> int | None:
    value = call.query.get(name)
    if not isinstance(value, str) or not value:
        return None
    try:
        return parse_time(value)
    except ValueError as exc:
        raise GitHubError(400, f"Invalid value for parameter '{name}': {value!r}") from exc


@ops("GET /repos/{owner}/{repo}/commits")
def list_commits(call: Call) -> Any:
    repo = repo_of(call)
    store = repos(call)
    full = repo["full_name"]
    since, until = _time_arg(call, "since"), _time_arg(call, "until")
    start = call.query.get("sha") if isinstance(call.query.get("sha"), str) and call.query.get("sha") else None
    head = store.resolve(full, start or repo["default_branch"])
    if head is None:
        if start is None:
            raise GitHubError(409, "Git Repository is empty.", documentation_url="https://docs.github.com/rest/commits/commits#list-commits")
        raise GitHubError(404, f"No commit found for SHA: {start}", documentation_url="https://docs.github.com/rest/commits/commits#list-commits")
    path = call.query.get("path")
    author = call.query.get("author")
    found = []
    for record in store.history(head):
        when = record["committer"]["at"]
        if (since is not None and when < since) or (until is not None and when > until):
            continue
        if isinstance(path, str) and path and not _touches(store, record, path.strip("/")):
            continue
        if isinstance(author, str) and author and author not in (record["author"]["email"], _login(store, record)):
            continue
        found.append(record)
    return paginate(call, found, lambda r: views.commit(call.base, store, full, r))


def _login(store: Repos, record: Record) -> str | None:
    user = store.user_by_email(record["author"]["email"])
    return user["login"] if user else None


@ops("GET /repos/{owner}/{repo}/commits/{ref}")
def get_commit(call: Call) -> Any:
    full = repo_of(call)["full_name"]
    store = repos(call)
    sha = store.resolve(full, call.params["ref"])
    if sha is None:
        raise GitHubError(422, f"No commit found for SHA: {call.params['ref']}", documentation_url="https://docs.github.com/rest/commits/commits#get-a-commit")
    record = store.known(sha)
    parent = record["parents"][0] if record["parents"] else None
    return views.commit(call.base, store, full, record, store.changed(parent, sha))


@ops("GET /repos/{owner}/{repo}/compare/{basehead}")
def compare(call: Call) -> Any:
    full = repo_of(call)["full_name"]
    store = repos(call)
    base_name, sep, head_name = call.params["basehead"].partition("...")
    base, head = store.resolve(full, base_name), store.resolve(full, head_name)
    if not sep or base is None or head is None:
        raise not_found("https://docs.github.com/rest/commits/commits#compare-two-commits")
    result = store.compare(base, head)
    url = f"{call.base}/repos/{full}"
    html = f"{views.HTML}/{full}"
    return {
        "url": f"{url}/compare/{base_name}...{head_name}",
        "html_url": f"{html}/compare/{base_name}...{head_name}",
        "permalink_url": f"{html}/compare/{full.split('/')[0]}:{base[:7]}...{full.split('/')[0]}:{head[:7]}",
        "diff_url": f"{html}/compare/{base_name}...{head_name}.diff",
        "patch_url": f"{html}/compare/{base_name}...{head_name}.patch",
        "base_commit": views.commit(call.base, store, full, store.known(base)),
        "merge_base_commit": views.commit(call.base, store, full, store.known(result["merge_base"] or base)),
        "status": result["status"],
        "ahead_by": result["ahead_by"],
        "behind_by": result["behind_by"],
        "total_commits": result["ahead_by"],
        "commits": [views.commit(call.base, store, full, c) for c in result["commits"]],
        "files": [views.diff_entry(call.base, full, head, f) for f in result["files"]],
    }
