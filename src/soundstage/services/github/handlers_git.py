"""Git data: refs, commits, trees and blobs (`/repos/{owner}/{repo}/git/...`), one function per operation."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import commits, git, repos, views_git
from .calls import TREE_DOCS, Call, created, decoded, no_content, ops, paginate
from .errors import GitHubError, not_found
from .git import Objects
from .store import BLOBS, REFS, ref_key

_REFS_DOCS = "https://docs.github.com/rest/git/refs"


@ops("GET /repos/{owner}/{repo}/git/refs")
def list_refs(call: Call) -> Any:
    full = call.repo()["full_name"]
    return paginate(call, repos.refs(call.records, full), lambda r: views_git.git_ref(call.base, call.records, full, r))


@ops("GET /repos/{owner}/{repo}/git/matching-refs/{ref}")
def matching_refs(call: Call) -> Any:
    full = call.repo()["full_name"]
    return [
        views_git.git_ref(call.base, call.records, full, r) for r in repos.refs(call.records, full, call.params["ref"])
    ]


@ops("GET /repos/{owner}/{repo}/git/ref/{ref}")
def get_ref(call: Call) -> Any:
    full = call.repo()["full_name"]
    record = repos.ref(call.records, full, call.params["ref"])
    if record is None:
        raise not_found(f"{_REFS_DOCS}#get-a-reference")
    return views_git.git_ref(call.base, call.records, full, record)


@ops("POST /repos/{owner}/{repo}/git/refs")
def create_ref(call: Call) -> Any:
    full = call.repo()["full_name"]
    name = call.required_text("ref")
    sha = call.required_text("sha")
    if not name.startswith("refs/") or name.count("/") < 2 or name.endswith("/") or ".." in name:
        raise GitHubError(422, f"{name} is not a valid ref name.", documentation_url=f"{_REFS_DOCS}#create-a-reference")
    if repos.ref(call.records, full, name) is not None:
        raise GitHubError(422, "Reference already exists", documentation_url=f"{_REFS_DOCS}#create-a-reference")
    if commits.commit(call.records.objects, sha) is None:
        raise GitHubError(422, "Object does not exist", documentation_url=f"{_REFS_DOCS}#create-a-reference")
    record = repos.set_ref(call.records, full, name, sha)
    return created(views_git.git_ref(call.base, call.records, full, record))


@ops("PATCH /repos/{owner}/{repo}/git/refs/{ref}")
def update_ref(call: Call) -> Any:
    full = call.repo()["full_name"]
    record = repos.ref(call.records, full, call.params["ref"])
    sha = call.required_text("sha")
    force = call.fields.get("force", False)
    if not isinstance(force, bool):
        raise GitHubError(422, f"Invalid request.\n\nFor 'force', {force!r} is not a boolean.")
    if record is None:
        raise GitHubError(422, "Reference does not exist", documentation_url=f"{_REFS_DOCS}#update-a-reference")
    objects = call.records.objects
    if commits.commit(objects, sha) is None:
        raise GitHubError(422, "Object does not exist", documentation_url=f"{_REFS_DOCS}#update-a-reference")
    if not force and record["sha"] not in {c["sha"] for c in commits.history(objects, sha)}:
        raise GitHubError(422, "Update is not a fast forward", documentation_url=f"{_REFS_DOCS}#update-a-reference")
    record = repos.set_ref(call.records, full, record["ref"], sha)
    return views_git.git_ref(call.base, call.records, full, record)


@ops("DELETE /repos/{owner}/{repo}/git/refs/{ref}")
def delete_ref(call: Call) -> Any:
    full = call.repo()["full_name"]
    record = repos.ref(call.records, full, call.params["ref"])
    if record is None:
        raise GitHubError(422, "Reference does not exist", documentation_url=f"{_REFS_DOCS}#delete-a-reference")
    call.world[REFS].remove(ref_key(full, record["ref"]))
    return no_content()


@ops("GET /repos/{owner}/{repo}/git/commits/{commit_sha}")
def get_git_commit(call: Call) -> Any:
    full = call.repo()["full_name"]
    record = commits.commit(call.records.objects, call.params["commit_sha"])
    if record is None or record["repository"] != full:
        raise not_found("https://docs.github.com/rest/git/commits#get-a-commit-object")
    return views_git.git_commit(call.base, full, record)


@ops("GET /repos/{owner}/{repo}/git/tags/{tag_sha}")
def get_tag(call: Call) -> Any:
    """An annotated tag object (a lightweight tag has none: its ref names the commit)."""
    full = call.repo()["full_name"]
    record = call.records.objects.tags.get(call.params["tag_sha"])
    if record is None or record["repository"] != full:
        raise not_found("https://docs.github.com/rest/git/tags#get-a-tag")
    return views_git.git_tag(call.base, full, record)


@ops("GET /repos/{owner}/{repo}/git/trees/{tree_sha}")
def get_tree(call: Call) -> Any:
    full = call.repo()["full_name"]
    objects = call.records.objects
    name = call.params["tree_sha"]
    sha = name if name in objects.trees else None
    if sha is None:
        commit = repos.resolve(call.records, full, name)
        sha = commits.known(objects, commit)["tree"] if commit else None
    if sha is None:
        raise not_found("https://docs.github.com/rest/git/trees#get-a-tree")
    recursive = call.query.get("recursive") not in (None, "", "0", "false")
    entries = [
        views_git.tree_entry(call.base, full, e, _size(objects, e), path)
        for path, e in _walk(objects, sha, "", recursive)
    ]
    return {"sha": sha, "url": f"{call.base}/repos/{full}/git/trees/{sha}", "tree": entries, "truncated": False}


def _size(objects: Objects, entry: Record) -> int | None:
    return git.size(objects, entry["sha"]) if entry["type"] == "blob" else None


def _walk(objects: Objects, tree: str, prefix: str, recursive: bool) -> list[tuple[str, Record]]:
    """(path, entry) of a tree, each directory followed by its contents when `recursive`."""
    found = []
    for entry in git.entries(objects, tree):
        path = prefix + entry["path"]
        found.append((path, entry))
        if recursive and entry["type"] == "tree":
            found += _walk(objects, entry["sha"], path + "/", True)
    return found


@ops("GET /repos/{owner}/{repo}/git/blobs/{file_sha}")
def get_blob(call: Call) -> Any:
    full = call.repo()["full_name"]
    record = call.world[BLOBS].get(call.params["file_sha"])
    if record is None:
        raise not_found("https://docs.github.com/rest/git/blobs#get-a-blob")
    return views_git.blob(call.base, full, record)


# -- writing git objects -----------------------------------------------------------------------------


@ops("POST /repos/{owner}/{repo}/git/blobs")
def create_blob(call: Call) -> Any:
    full = call.repo()["full_name"]
    content = call.required_text("content")
    encoding = call.text("encoding") or "utf-8"
    if encoding not in ("utf-8", "base64"):
        raise GitHubError(422, f"encoding must be one of utf-8, base64; found {encoding}")
    text = decoded(content, "content is not valid Base64 of UTF-8 text") if encoding == "base64" else content
    sha = git.write_blob(call.records.objects, text)
    return created({"sha": sha, "url": f"{call.base}/repos/{full}/git/blobs/{sha}"})


@ops("POST /repos/{owner}/{repo}/git/trees")
def create_tree(call: Call) -> Any:
    full = call.repo()["full_name"]
    objects = call.records.objects
    base = call.text("base_tree")
    if base is not None and base not in objects.trees:
        raise GitHubError(422, "base_tree is not a valid tree oid", documentation_url=TREE_DOCS)
    files = git.flatten(objects, base) if base else {}
    modes = git.modes(objects, base) if base else {}  # a file the body names takes the mode its entry gives
    changes = call.tree_changes(objects)
    for path, change in changes.items():
        if change is None:
            files = {p: s for p, s in files.items() if p != path and not p.startswith(path + "/")}
    wanted = {p: c for p, c in changes.items() if c is not None}
    blocked = git.clash([*files, *wanted])
    if blocked is not None:
        raise GitHubError(
            422, f"Invalid tree info: {blocked} is both a file and a directory", documentation_url=TREE_DOCS
        )
    for path, change in wanted.items():
        kind, value = change
        files[path] = git.write_blob(objects, value) if kind == "text" else value
    sha = git.write_tree(objects, files, {p: m for p, m in modes.items() if p not in changes})
    entries = [
        views_git.tree_entry(call.base, full, e, _size(objects, e), e["path"]) for e in git.entries(objects, sha)
    ]
    return created(
        {"sha": sha, "url": f"{call.base}/repos/{full}/git/trees/{sha}", "tree": entries, "truncated": False}
    )


@ops("POST /repos/{owner}/{repo}/git/commits")
def create_commit(call: Call) -> Any:
    full = call.repo()["full_name"]
    objects = call.records.objects
    message = call.required_text("message")
    tree = call.required_text("tree")
    parents = call.fields.get("parents", [])
    docs = "https://docs.github.com/rest/git/commits#create-a-commit"
    if tree not in objects.trees:
        raise GitHubError(422, "Tree SHA does not exist", documentation_url=docs)
    if not isinstance(parents, list) or any(
        not isinstance(p, str) or commits.commit(objects, p) is None for p in parents
    ):
        raise GitHubError(422, "Parent SHA does not exist or is not a commit object", documentation_url=docs)
    committer = call.person("committer", dated=True) or repos.identity(call.me, call.now())
    author = call.person("author", dated=True) or committer
    record = git.write_commit_tree(objects, full, tree, parents, message, author, committer)
    return created(views_git.git_commit(call.base, full, record))
