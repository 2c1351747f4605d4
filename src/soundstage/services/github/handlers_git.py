"""Git data: refs, commits, trees and blobs (`/repos/{owner}/{repo}/git/...`), one function per operation."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from ...clock import parse_time
from ...world import Record
from . import git, views
from .errors import GitHubError, not_found
from .handlers_repos import repo_of, repos, required_text, text_arg
from .router import Call, created, no_content, ops, paginate
from .store import REFS, Repos, identity, ref_key

_REFS_DOCS = "https://docs.github.com/rest/git/refs"


def _ref(call: Call, repo: Record, name: str) -> Record | None:
    return call.world[REFS].get(ref_key(repo["full_name"], "refs/" + name.removeprefix("refs/")))


def _refs(call: Call, repo: Record, prefix: str) -> list[Record]:
    """Refs of a repo whose name starts with `refs/<prefix>`, sorted by name."""
    wanted = "refs/" + prefix
    return sorted((r for r in call.world[REFS].by("repository", repo["full_name"]) if r["ref"].startswith(wanted)), key=lambda r: r["ref"])


@ops("GET /repos/{owner}/{repo}/git/refs")
def list_refs(call: Call) -> Any:
    repo = repo_of(call)
    return paginate(call, _refs(call, repo, ""), lambda r: views.git_ref(call.base, repo["full_name"], r))


@ops("GET /repos/{owner}/{repo}/git/matching-refs/{ref}")
def matching_refs(call: Call) -> Any:
    repo = repo_of(call)
    return [views.git_ref(call.base, repo["full_name"], r) for r in _refs(call, repo, call.params["ref"])]


@ops("GET /repos/{owner}/{repo}/git/ref/{ref}")
def get_ref(call: Call) -> Any:
    repo = repo_of(call)
    record = _ref(call, repo, call.params["ref"])
    if record is None:
        raise not_found(f"{_REFS_DOCS}#get-a-reference")
    return views.git_ref(call.base, repo["full_name"], record)


@ops("POST /repos/{owner}/{repo}/git/refs")
def create_ref(call: Call) -> Any:
    repo = repo_of(call)
    name = required_text(call, "ref")
    sha = required_text(call, "sha")
    if not name.startswith("refs/") or name.count("/") < 2 or name.endswith("/") or ".." in name:
        raise GitHubError(422, f"{name} is not a valid ref name.", documentation_url=f"{_REFS_DOCS}#create-a-reference")
    if _ref(call, repo, name) is not None:
        raise GitHubError(422, "Reference already exists", documentation_url=f"{_REFS_DOCS}#create-a-reference")
    if repos(call).commit(sha) is None:
        raise GitHubError(422, "Object does not exist", documentation_url=f"{_REFS_DOCS}#create-a-reference")
    record = repos(call).set_ref(repo["full_name"], name, sha)
    return created(views.git_ref(call.base, repo["full_name"], record))


@ops("PATCH /repos/{owner}/{repo}/git/refs/{ref}")
def update_ref(call: Call) -> Any:
    repo = repo_of(call)
    record = _ref(call, repo, call.params["ref"])
    sha = required_text(call, "sha")
    force = call.fields.get("force", False)
    if not isinstance(force, bool):
        raise GitHubError(422, f"Invalid request.\n\nFor 'force', {force!r} is not a boolean.")
    if record is None:
        raise GitHubError(422, "Reference does not exist", documentation_url=f"{_REFS_DOCS}#update-a-reference")
    store = repos(call)
    if store.commit(sha) is None:
        raise GitHubError(422, "Object does not exist", documentation_url=f"{_REFS_DOCS}#update-a-reference")
    if not force and record["sha"] not in {c["sha"] for c in store.history(sha)}:
        raise GitHubError(422, "Update is not a fast forward", documentation_url=f"{_REFS_DOCS}#update-a-reference")
    record = store.set_ref(repo["full_name"], record["ref"], sha)
    return views.git_ref(call.base, repo["full_name"], record)


@ops("DELETE /repos/{owner}/{repo}/git/refs/{ref}")
def delete_ref(call: Call) -> Any:
    repo = repo_of(call)
    record = _ref(call, repo, call.params["ref"])
    if record is None:
        raise GitHubError(422, "Reference does not exist", documentation_url=f"{_REFS_DOCS}#delete-a-reference")
    call.world[REFS].remove(ref_key(repo["full_name"], record["ref"]))
    return no_content()


@ops("GET /repos/{owner}/{repo}/git/commits/{commit_sha}")
def get_git_commit(call: Call) -> Any:
    repo = repo_of(call)
    record = repos(call).commit(call.params["commit_sha"])
    if record is None or record["repository"] != repo["full_name"]:
        raise not_found("https://docs.github.com/rest/git/commits#get-a-commit-object")
    return views.git_commit(call.base, repo["full_name"], record)


@ops("GET /repos/{owner}/{repo}/git/trees/{tree_sha}")
def get_tree(call: Call) -> Any:
    repo = repo_of(call)
    store = repos(call)
    name = call.params["tree_sha"]
    sha = name if name in store.objects.trees else None
    if sha is None:
        commit = store.resolve(repo["full_name"], name)
        sha = store.known(commit)["tree"] if commit else None
    if sha is None:
        raise not_found("https://docs.github.com/rest/git/trees#get-a-tree")
    recursive = call.query.get("recursive") not in (None, "", "0", "false")
    entries = [views.tree_entry(call.base, repo["full_name"], e, _size(store, e), path) for path, e in _walk(store, sha, "", recursive)]
    return {"sha": sha, "url": f"{call.base}/repos/{repo['full_name']}/git/trees/{sha}", "tree": entries, "truncated": False}


def _size(store: Repos, entry: Record) -> int | None:
    return git.size(store.objects, entry["sha"]) if entry["type"] == "blob" else None


def _walk(store: Repos, tree: str, prefix: str, recursive: bool) -> list[tuple[str, Record]]:
    """(path, entry) of a tree, each directory followed by its contents when `recursive`."""
    found = []
    for entry in git.entries(store.objects, tree):
        path = prefix + entry["path"]
        found.append((path, entry))
        if recursive and entry["type"] == "tree":
            found += _walk(store, entry["sha"], path + "/", True)
    return found


@ops("GET /repos/{owner}/{repo}/git/blobs/{file_sha}")
def get_blob(call: Call) -> Any:
    repo = repo_of(call)
    record = call.world["github.blobs"].get(call.params["file_sha"])
    if record is None:
        raise not_found("https://docs.github.com/rest/git/blobs#get-a-blob")
    return views.blob(call.base, repo["full_name"], record)


# -- writing git objects -----------------------------------------------------------------------------


@ops("POST /repos/{owner}/{repo}/git/blobs")
def create_blob(call: Call) -> Any:
    repo = repo_of(call)
    content = required_text(call, "content")
    encoding = text_arg(call, "encoding") or "utf-8"
    if encoding not in ("utf-8", "base64"):
        raise GitHubError(422, f"encoding must be one of utf-8, base64; found {encoding}")
    text = _decoded(content) if encoding == "base64" else content
    sha = git.write_blob(repos(call).objects, text)
    return created({"sha": sha, "url": f"{call.base}/repos/{repo['full_name']}/git/blobs/{sha}"})


def _decoded(content: str) -> str:
    try:
        return base64.b64decode("".join(content.split()), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise GitHubError(422, "content is not valid Base64 of UTF-8 text") from exc


_TREE_DOCS = "https://docs.github.com/rest/git/trees#create-a-tree"


def _tree_changes(call: Call, store: Repos) -> dict[str, tuple[str, str] | None]:
    """The `tree` entries of a create-tree body as path -> ("text", content) or ("blob", sha), or None
    (delete);
    a `tree` entry with a sha adds that directory's files. Everything is checked before anything is written."""
    entries = call.fields.get("tree")
    if not isinstance(entries, list):
        raise GitHubError(422, 'Invalid request.\n\n"tree" wasn\'t supplied.', documentation_url=_TREE_DOCS)
    changes: dict[str, tuple[str, str] | None] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str) or not entry["path"].strip("/"):
            raise GitHubError(422, "Invalid tree info", documentation_url=_TREE_DOCS)
        path = entry["path"].strip("/")
        mode, kind, sha, content = entry.get("mode", "100644"), entry.get("type", "blob"), entry.get("sha"), entry.get("content")
        if (mode, kind) not in (("100644", "blob"), ("040000", "tree")):
            raise GitHubError(422, f"Invalid tree info: mode {mode} with type {kind} is not supported", documentation_url=_TREE_DOCS)
        if content is not None:
            if not isinstance(content, str) or kind != "blob":
                raise GitHubError(422, "Invalid tree info", documentation_url=_TREE_DOCS)
            changes[path] = ("text", content)
        elif sha is None:
            changes[path] = None
        elif kind == "blob" and isinstance(sha, str) and sha in store.objects.blobs:
            changes[path] = ("blob", sha)
        elif kind == "tree" and isinstance(sha, str) and sha in store.objects.trees:
            for sub, blob in git.flatten(store.objects, sha).items():
                changes[f"{path}/{sub}"] = ("blob", blob)
        else:
            raise GitHubError(422, f"Invalid tree info: {sha} is not a {kind}", documentation_url=_TREE_DOCS)
    return changes


@ops("POST /repos/{owner}/{repo}/git/trees")
def create_tree(call: Call) -> Any:
    repo = repo_of(call)
    store = repos(call)
    base = text_arg(call, "base_tree")
    if base is not None and base not in store.objects.trees:
        raise GitHubError(422, "base_tree is not a valid tree oid", documentation_url=_TREE_DOCS)
    files = git.flatten(store.objects, base) if base else {}
    changes = _tree_changes(call, store)
    for path, change in changes.items():
        if change is None:
            files = {p: s for p, s in files.items() if p != path and not p.startswith(path + "/")}
    wanted = {p: c for p, c in changes.items() if c is not None}
    blocked = git.clash([*files, *wanted])
    if blocked is not None:
        raise GitHubError(422, f"Invalid tree info: {blocked} is both a file and a directory", documentation_url=_TREE_DOCS)
    for path, change in wanted.items():
        kind, value = change
        files[path] = git.write_blob(store.objects, value) if kind == "text" else value
    sha = git.write_tree(store.objects, files)
    entries = [views.tree_entry(call.base, repo["full_name"], e, _size(store, e), e["path"]) for e in git.entries(store.objects, sha)]
    return created({"sha": sha, "url": f"{call.base}/repos/{repo['full_name']}/git/trees/{sha}", "tree": entries, "truncated": False})


def _signature(call: Call, name: str, default: Record) -> Record:
    given = call.fields.get(name)
    if given is None:
        return default
    if not isinstance(given, dict) or not isinstance(given.get("name"), str) or not isinstance(given.get("email"), str):
        raise GitHubError(422, f"Invalid request.\n\n{name} must have name and email.")
    at = call.now()
    if given.get("date") is not None:
        try:
            at = parse_time(given["date"])
        except (TypeError, ValueError) as exc:
            raise GitHubError(422, f"Invalid request.\n\n{name}.date is not a valid time.") from exc
    return {"name": given["name"], "email": given["email"], "at": at}


@ops("POST /repos/{owner}/{repo}/git/commits")
def create_commit(call: Call) -> Any:
    repo = repo_of(call)
    store = repos(call)
    message = required_text(call, "message")
    tree = required_text(call, "tree")
    parents = call.fields.get("parents", [])
    if tree not in store.objects.trees:
        raise GitHubError(422, "Tree SHA does not exist", documentation_url="https://docs.github.com/rest/git/commits#create-a-commit")
    if not isinstance(parents, list) or any(not isinstance(p, str) or store.commit(p) is None for p in parents):
        raise GitHubError(
            422, "Parent SHA does not exist or is not a commit object", documentation_url="https://docs.github.com/rest/git/commits#create-a-commit"
        )
    committer = _signature(call, "committer", identity(call.user, call.now()))
    author = _signature(call, "author", committer)
    record = git.write_commit(store.objects, repo["full_name"], git.flatten(store.objects, tree), parents, message, author, committer)
    return created(views.git_commit(call.base, repo["full_name"], record))
