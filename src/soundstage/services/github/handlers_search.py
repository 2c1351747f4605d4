"""`GET /search/issues` and `GET /search/code` over the world's repositories.

A query is free words (each must appear, case-insensitively) and qualifiers: `repo:`, `is:`/`type:`
(`issue`, `pr`, `open`, `closed`, `merged`), `state:`, `label:` (each must be on the item), `in:`
(`title`, `body`, `comments`), `author:`, `assignee:`; for code `repo:`, `path:`, `filename:`,
`extension:`/`language:` narrow the files of each default branch. Quotes group words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...world import Record
from ..base import Reply
from . import commits, repos, views, views_issues
from .calls import SEARCH_DOCS, Call, ops, paginate
from .errors import GitHubError
from .issue_search import matching_issues
from .store import REPOS

_LANGUAGES = {
    "python": "py",
    "javascript": "js",
    "typescript": "ts",
    "go": "go",
    "ruby": "rb",
    "markdown": "md",
    "yaml": "yml",
}


def _page(call: Call, items: Sequence[Any], view: Any, **extra: Any) -> Reply:
    reply = paginate(call, items, view)
    reply.body = {"total_count": len(items), "incomplete_results": False, **extra, "items": reply.body}
    return reply


def _repos(call: Call, qualifiers: dict[str, list[str]]) -> list[Record]:
    names = qualifiers.get("repo")
    if names is None:
        return call.visible(call.world[REPOS])
    found = [call.world[REPOS].get(n) for n in names]
    if not all(found) or len(call.visible(r for r in found if r)) < len(found):
        message = (
            "The listed users, orgs, or repositories cannot be searched either because the resources do not exist "
            "or you do not have permission to view them."
        )
        raise GitHubError(
            422,
            "Validation Failed",
            [{"message": message, "resource": "Search", "field": "q", "code": "invalid"}],
            documentation_url=SEARCH_DOCS,
        )
    return found  # type: ignore[return-value]


# -- issues ------------------------------------------------------------------------------------------


@ops("GET /search/issues")
def search_issues(call: Call) -> Any:
    words, qualifiers = call.search_terms()
    sort = call.param("sort")
    order = call.one_of("order", ("asc", "desc"), "desc", "Search")
    records = call.records
    by = sort if sort in ("comments", "created", "updated") else "created"
    found = matching_issues(records, _repos(call, qualifiers), words, qualifiers, by, order == "desc")
    return _page(
        call, found, lambda r: {**views_issues.issue(call.base, records, r), "score": 1.0}, search_type="lexical"
    )


# -- code --------------------------------------------------------------------------------------------


def _path_ok(path: str, qualifiers: dict[str, list[str]]) -> bool:
    name = path.rsplit("/", 1)[-1]
    if any(not path.startswith(v.strip("/")) for v in qualifiers.get("path", [])):
        return False
    if any(v != name for v in qualifiers.get("filename", [])):
        return False
    extensions = qualifiers.get("extension", []) + [
        _LANGUAGES.get(v.lower(), v.lower()) for v in qualifiers.get("language", [])
    ]
    return all(name.endswith("." + e.lstrip(".")) for e in extensions)


@ops("GET /search/code")
def search_code(call: Call) -> Any:
    words, qualifiers = call.search_terms()
    if not words:
        message = "Must include at least one search term."
        raise GitHubError(
            422,
            "Validation Failed",
            [{"message": message, "resource": "Search", "field": "q", "code": "invalid"}],
            documentation_url=SEARCH_DOCS,
        )
    records = call.records
    objects = records.objects
    found: list[tuple[Record, str, str, str]] = []
    for repo in _repos(call, qualifiers):
        head = repos.branch_sha(records, repo["full_name"], repo["default_branch"])
        if head is None:
            continue
        for path, blob in commits.files(objects, head).items():
            if _path_ok(path, qualifiers):
                text = objects.blobs.get(blob)["content"].lower()  # type: ignore[index]
                if all(word in text or word in path.lower() for word in words):
                    found.append((repo, head, path, blob))
    return _page(call, found, lambda item: _code_item(call, *item))


def _code_item(call: Call, repo: Record, head: str, path: str, blob: str) -> dict[str, Any]:
    name = repo["full_name"]
    return {
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "sha": blob,
        "url": f"{call.base}/repos/{name}/contents/{path}?ref={head}",
        "git_url": f"{call.base}/repos/{name}/git/blobs/{blob}",
        "html_url": f"{views.HTML}/{name}/blob/{head}/{path}",
        "repository": views.repository_of(call.base, call.records, repo, full=False),
        "score": 1.0,
    }
