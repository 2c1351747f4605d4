"""GitHub's request conventions: the `ops` registry, the `Call` a handler receives with every reader of
its arguments (the records the path names, query parameters, body fields), paging with `Link` headers,
and the reply helpers.

Readers answer bad input as GitHub does: a record the path names that does not exist is 404, a body
field of the wrong type 422 `Invalid request.\n\nFor 'x', <value> is not <type>.`, a bad query value
422 `Validation Failed`.
"""

from __future__ import annotations

import base64
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from ...clock import parse_time
from ...world import Record
from ..base import Operations, Reply
from ..rest import RestCall
from . import git, issues, repos
from .errors import DOCS, GitHubError, failed, not_found, type_error
from .git import Objects
from .records import Records
from .store import PULLS, REPOS, USERS, item_key

# Parameters that may hold slashes when they end a template; `path` may also be empty (the repo root).
TAILS = frozenset({"path", "ref", "branch", "basehead"})
TREE_DOCS = f"{DOCS}/git/trees#create-a-tree"
SEARCH_DOCS = f"{DOCS}/search/search"
MAX_BODY = 65_536  # characters GitHub keeps of an issue's, a pull request's or a comment's body

ops = Operations("github")


def created(body: Any) -> Reply:
    return Reply(201, body)


def no_content() -> Reply:
    return Reply(204, None)


def decoded(content: str, message: str, documentation_url: str = DOCS) -> str:
    """UTF-8 text from base64 (white space ignored); `message` is GitHub's 422 otherwise."""
    try:
        return base64.b64decode("".join(content.split()), validate=True).decode("utf-8")
    except ValueError as exc:  # not base64 (a character outside ASCII too), or not UTF-8 once decoded
        raise GitHubError(422, message, documentation_url=documentation_url) from exc


def search_terms(q: str) -> tuple[list[str], dict[str, list[str]]]:
    """The free words (lower case) and the qualifiers (`repo:`, `is:`...) of a search query."""
    try:
        tokens = shlex.split(q)
    except ValueError:
        tokens = q.split()
    words: list[str] = []
    qualifiers: dict[str, list[str]] = {}
    for token in tokens:
        name, sep, value = token.partition(":")
        if sep and value and name.isalpha():
            qualifiers.setdefault(name.lower(), []).append(value)
        elif token.upper() not in ("AND", "OR"):
            words.append(token.lower())
    return words, qualifiers


@dataclass
class Call(RestCall):
    """A GitHub call: also the caller's `github.users` record, None for a read with no credential (which
    sees public repos only). A few operations also take an array as the body (`POST .../labels`) and read
    `body` itself; everywhere else an array is GitHub's 400."""

    user: Record | None
    _records: Records | None = field(default=None, init=False, repr=False, compare=False)  # made on first use

    def not_an_object(self) -> GitHubError:
        return GitHubError(400, "Problems parsing JSON")

    @property
    def me(self) -> Record:
        """The caller's account; a call with no credential has none: 401."""
        if self.user is None:
            raise GitHubError(401, "Requires authentication")
        return self.user

    @property
    def login(self) -> str:
        return self.me["login"]

    def sees(self, repo: Record) -> bool:
        """Whether the caller may see `repo`: every one with a credential, the public ones without."""
        return self.user is not None or not repo["private"]

    def visible(self, records: Iterable[Record]) -> list[Record]:
        """The repos the caller may see (`sees`)."""
        return list(filter(self.sees, records))

    @property
    def records(self) -> Records:
        """The GitHub records of the call's world (made once per call: a handler reads them again and again)."""
        if self._records is None:
            self._records = Records.live(self.world)
        return self._records

    # -- the records the path names ------------------------------------------------------------------

    def repo(self) -> Record:
        """The repository of the path's `{owner}/{repo}`, or 404."""
        record = self.world[REPOS].get(f"{self.params['owner']}/{self.params['repo']}")
        if record is None or not self.sees(record):
            raise not_found(f"{DOCS}/repos/repos#get-a-repository")
        return record

    def number(self, name: str) -> int:
        """An issue or pull request number of the path; anything else is 404."""
        raw = self.params[name]
        if not (raw.isascii() and raw.isdigit()):  # "²".isdigit(), but int("²") fails
            raise not_found(f"{DOCS}/issues/issues#get-an-issue")
        return int(raw)

    def item(self, repo: Record, name: str = "issue_number") -> tuple[str, Record]:
        """The issue or pull request the path names, with its collection, or 404."""
        found = issues.item(self.records, repo["full_name"], self.number(name))
        if found is None:
            raise not_found(f"{DOCS}/issues/issues#get-an-issue")
        return found

    def pull(self, repo: Record) -> Record:
        """The pull request the path names (`{pull_number}`), or 404."""
        record = self.world[PULLS].get(item_key(repo["full_name"], self.number("pull_number")))
        if record is None:
            raise not_found(f"{DOCS}/pulls/pulls#get-a-pull-request")
        return record

    def by_id(self, repo: Record, collection: str, param: str, docs: str) -> Record:
        """The record of the path's numeric id `param` in `collection`, if it belongs to `repo`; else 404
        pointing at `docs`."""
        raw = self.params[param]
        record = self.world[collection].get(raw) if raw.isdigit() else None
        if record is None or record["repository"] != repo["full_name"]:
            raise not_found(docs)
        return record

    def ref_sha(self, repo: Record) -> str:
        """The sha of the commit the path's `{ref}` names (a branch, tag, sha...), or 422."""
        ref = self.params["ref"]
        sha = repos.resolve(self.records, repo["full_name"], ref)
        if sha is None:
            raise GitHubError(
                422, f"No commit found for SHA: {ref}", documentation_url=f"{DOCS}/commits/commits#get-a-commit"
            )
        return sha

    # -- the query -----------------------------------------------------------------------------------

    def param(self, name: str, default: str | None = None) -> str | None:
        """A query parameter; given several times, the last one counts."""
        value = self.query.get(name, default)
        return value[-1] if isinstance(value, list) else value

    def one_of(self, name: str, allowed: tuple[str, ...], default: str, resource: str = "Issue") -> str:
        """A query parameter limited to a few values; anything else is GitHub's 422."""
        value = self.param(name, default)
        if value not in allowed:
            raise GitHubError(422, "Validation Failed", [{"resource": resource, "field": name, "code": "invalid"}])
        assert value is not None
        return value

    def since(self) -> int | None:
        """The `since` time of issue and comment lists."""
        value = self.param("since")
        if value is None:
            return None
        try:
            return parse_time(value)
        except (TypeError, ValueError) as exc:
            raise GitHubError(
                422, "Validation Failed", [{"resource": "Issue", "field": "since", "code": "invalid"}]
            ) from exc

    def moment(self, name: str) -> int | None:
        """A time of the commit list (`since`, `until`); a bad one is 400."""
        value = self.query.get(name)
        if not isinstance(value, str) or not value:
            return None
        try:
            return parse_time(value)
        except ValueError as exc:
            raise GitHubError(400, f"Invalid value for parameter '{name}': {value!r}") from exc

    def page(self) -> tuple[int, int]:
        """`page` (1-based) and `per_page` (default 30, at most 100) as GitHub reads them: junk is the default."""
        return _positive(self.query.get("page"), 1), min(_positive(self.query.get("per_page"), 30), 100)

    def search_terms(self) -> tuple[list[str], dict[str, list[str]]]:
        """The free words (lower case) and the qualifiers (`repo:`, `is:`...) of a search's `q`."""
        q = self.param("q")
        if not isinstance(q, str) or not q.strip():
            raise GitHubError(
                422,
                "Validation Failed",
                [{"resource": "Search", "field": "q", "code": "missing"}],
                documentation_url=SEARCH_DOCS,
            )
        return search_terms(q)

    # -- the body ------------------------------------------------------------------------------------

    def text(self, name: str, required: bool = False) -> str | None:
        """A string field of the JSON body, None when absent; a missing `required` one is GitHub's
        `"x" wasn't supplied.`."""
        value = self.fields.get(name)
        if value is None and required:
            raise GitHubError(422, f'Invalid request.\n\n"{name}" wasn\'t supplied.')
        if value is not None and not isinstance(value, str):
            raise type_error(name, value, "a string")
        return value

    def required_text(self, name: str) -> str:
        """`text(name, required=True)`, typed as always a string."""
        return self.text(name, required=True) or ""

    def boolean(self, name: str) -> bool:
        """A boolean field of the JSON body, false when absent (an explicit null is not a boolean)."""
        value = self.fields.get(name, False)
        if not isinstance(value, bool):
            raise type_error(name, value, "a boolean")
        return value

    def strings(self, name: str) -> list[str] | None:
        """An array of strings in the body (None when absent)."""
        value = self.fields.get(name)
        if value is None:
            return None
        if not isinstance(value, list):
            raise type_error(name, value, "an array")
        for item in value:
            if not isinstance(item, str):
                raise type_error(name, item, "a string")
        return value

    def assignees(self) -> list[str] | None:
        """`assignees` (or the older single `assignee`) as logins that exist; others are 422 `invalid`."""
        names = self.strings("assignees")
        if names is None and "assignee" in self.fields:
            single = self.fields["assignee"]
            if single is not None and not isinstance(single, str):
                raise type_error("assignee", single, "a string")
            names = [single] if single else []
        if names is None:
            return None
        users = self.world[USERS]
        for login in names:
            if users.get(login) is None:
                raise GitHubError(
                    422,
                    "Validation Failed",
                    [{"value": login, "resource": "Issue", "field": "assignees", "code": "invalid"}],
                )
        return list(dict.fromkeys(names))

    def labels(self) -> list[str] | None:
        """The `labels` field: names or `{name}` objects (None when absent)."""
        value = self.fields.get("labels")
        return None if value is None else _label_names(value)

    def labels_body(self) -> list[str]:
        """The body of the issue-label operations: `{"labels": [...]}`, or the bare array PyGithub sends."""
        body = self.body
        if isinstance(body, dict):
            body = body.get("labels")
        if body is None:
            raise GitHubError(422, 'Invalid request.\n\nNo subschema in "anyOf" matched.')
        return _label_names(body)

    def comment_body(self) -> str:
        """The `body` of an issue comment, which must not be empty nor longer than `MAX_BODY`."""
        text = self.text("body")
        if not text:
            raise GitHubError(
                422, "Validation Failed", [{"resource": "IssueComment", "code": "missing_field", "field": "body"}]
            )
        if len(text) > MAX_BODY:  # GitHub's own words for a comment (capitalised, field `data`)
            message = f"Body is too long (maximum is {MAX_BODY} characters)"
            raise failed({"resource": "IssueComment", "code": "unprocessable", "field": "data", "message": message})
        return text

    def issue_body(self) -> str | None:
        """The `body` of an issue or a pull request (GitHub validates both as an Issue): at most `MAX_BODY`."""
        text = self.text("body")
        if text is not None and len(text) > MAX_BODY:
            message = f"body is too long (maximum is {MAX_BODY} characters)"
            raise failed({"resource": "Issue", "code": "custom", "field": "body", "message": message})
        return text

    def person(self, name: str, dated: bool = False) -> Record | None:
        """A commit `author` or `committer` object (`name`, `email`; with `dated`, an optional `date`) as
        `{name, email, at}`, at now by default; None when absent."""
        given = self.fields.get(name)
        if given is None:
            return None
        if (
            not isinstance(given, dict)
            or not isinstance(given.get("name"), str)
            or not isinstance(given.get("email"), str)
        ):
            raise GitHubError(422, f"Invalid request.\n\n{name} must have name and email.")
        at = self.now()
        if dated and given.get("date") is not None:
            try:
                at = parse_time(given["date"])
            except (TypeError, ValueError) as exc:
                raise GitHubError(422, f"Invalid request.\n\n{name}.date is not a valid time.") from exc
        return {"name": given["name"], "email": given["email"], "at": at}

    def head_branch(self, repo: Record, value: str) -> str:
        """A pull's `head`, `owner:branch` or `branch`, as a branch name ("" for another owner's fork)."""
        owner, sep, branch = value.rpartition(":")
        if sep and owner != repo["owner"]:
            return ""
        return branch

    def review_comment(self, item: Any, name: str) -> dict[str, Any]:
        """One review comment's `path`, `body`, `line` (or the older `position` in the diff), `side` and,
        for a comment on several lines, `start_line` and `start_side`, checked; `item` is the body or an
        entry of its `comments`."""
        if not isinstance(item, dict):
            raise type_error(name, item, "an object")
        for key in ("path", "body"):
            if not isinstance(item.get(key), str) or not item[key]:
                raise failed({"resource": "PullRequestReviewComment", "code": "missing_field", "field": key})
        found: dict[str, Any] = {"path": item["path"], "body": item["body"]}
        for key in ("line", "position", "start_line"):
            value = item.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise failed({"resource": "PullRequestReviewComment", "code": "invalid", "field": key})
            found[key] = value
        for key in ("side", "start_side"):
            value = item.get(key) or None
            if value is not None and value not in ("LEFT", "RIGHT"):
                raise failed({"resource": "PullRequestReviewComment", "code": "invalid", "field": key})
            found[key] = value
        found["side"] = found["side"] or "RIGHT"
        return found

    def tree_changes(self, objects: Objects) -> dict[str, tuple[str, str] | None]:
        """The `tree` entries of a create-tree body as path -> ("text", content) or ("blob", sha), or None
        (delete); a `tree` entry with a sha adds that directory's files. Everything is checked before
        anything is written."""
        entries = self.fields.get("tree")
        if not isinstance(entries, list):
            raise GitHubError(422, 'Invalid request.\n\n"tree" wasn\'t supplied.', documentation_url=TREE_DOCS)
        changes: dict[str, tuple[str, str] | None] = {}
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str) or not entry["path"].strip("/"):
                raise GitHubError(422, "Invalid tree info", documentation_url=TREE_DOCS)
            path = entry["path"].strip("/")
            mode, kind = entry.get("mode", "100644"), entry.get("type", "blob")
            sha, content = entry.get("sha"), entry.get("content")
            if (mode, kind) not in (("100644", "blob"), ("040000", "tree")):
                raise GitHubError(
                    422,
                    f"Invalid tree info: mode {mode} with type {kind} is not supported",
                    documentation_url=TREE_DOCS,
                )
            if content is not None:
                if not isinstance(content, str) or kind != "blob":
                    raise GitHubError(422, "Invalid tree info", documentation_url=TREE_DOCS)
                changes[path] = ("text", content)
            elif sha is None:
                changes[path] = None
            elif kind == "blob" and isinstance(sha, str) and sha in objects.blobs:
                changes[path] = ("blob", sha)
            elif kind == "tree" and isinstance(sha, str) and sha in objects.trees:
                for sub, blob in git.flatten(objects, sha).items():
                    changes[f"{path}/{sub}"] = ("blob", blob)
            else:
                raise GitHubError(422, f"Invalid tree info: {sha} is not a {kind}", documentation_url=TREE_DOCS)
        return changes


def _positive(value: Any, default: int) -> int:
    if value is None:  # not asked: most calls, spared the exception
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if number > 0 else default


def _label_names(value: Any) -> list[str]:
    """Label names from strings or `{name}` objects."""
    if not isinstance(value, list):
        raise type_error("labels", value, "an array")
    names = []
    for item in value:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            item = item["name"]
        if not isinstance(item, str) or not item.strip():
            raise type_error("labels", item, "a string")
        names.append(item.strip())
    return names


def paginate(call: Call, items: Sequence[Any], view: Callable[[Any], Any] | None = None) -> Reply:
    """One page of `items` (rendered by `view`) with GitHub's `Link` header: `rel="prev"`, `"next"`,
    `"last"`, `"first"` as they apply, joined by `", "` exactly (PyGithub splits on it); no `next` on the
    last page (githubkit follows `next` until it is gone)."""
    page, per_page = call.page()
    chunk = items[(page - 1) * per_page : page * per_page]
    body = [view(item) for item in chunk] if view else list(chunk)
    last = max(1, -(-len(items) // per_page))
    links = []
    if page > 1:
        links.append((min(page - 1, last), "prev"))
    if page < last:
        links += [(page + 1, "next"), (last, "last")]
    if page > 1:
        links.append((1, "first"))
    headers = {"Link": ", ".join(f'<{_page_url(call, n, per_page)}>; rel="{rel}"' for n, rel in links)} if links else {}
    return Reply(200, body, headers=headers)


def _page_url(call: Call, page: int, per_page: int) -> str:
    query = {k: v for k, v in call.query.items() if k not in ("page", "per_page")}
    query["per_page"] = str(per_page)
    query["page"] = str(page)
    return f"{call.base}{quote(call.request.path)}?{urlencode(query, doseq=True)}"
