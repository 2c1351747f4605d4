"""The world's records as GraphQL objects: one class per GitHub type, whose snake_case attributes and
methods are its fields (`handlers_graphql` calls `pull_request(number=1)` for `pullRequest(number: 1)`).
Node ids are the records' own `node_id`s, the ones the REST answers carry; a connection pages a list
with GitHub's opaque cursors."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...clock import US
from ...world import Record
from . import ci, commits, git, issues, milestones, pulls, repos
from .records import Records
from .store import CHECK_RUNS, ISSUES, PULLS, RELEASES, REPOS, STATUSES, USERS, WORKFLOW_RUNS
from .views import HTML, association, maybe_stamp, stamp

MAX_PAGE = 100  # GitHub's largest `first`/`last`


class Problem(Exception):
    """A GraphQL error GitHub words with a `type` (`NOT_FOUND`, `UNPROCESSABLE`...)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Context:
    """What every resolver reads: the world's records, the caller's account, the time of the call."""

    records: Records
    viewer: Record
    at: int


def _legacy_id(ctx: Context, kind: str, repo: str, name: str) -> str:
    """GitHub's legacy id of what a repo holds by name (a commit by sha, a ref by branch name):
    base64 of `0<len>:<Kind><repo id>:<name>`."""
    found = repos.repo(ctx.records, repo)
    return base64.b64encode(f"0{len(kind)}:{kind}{found['id'] if found else 0}:{name}".encode()).decode()


def cursor(index: int) -> str:
    return base64.b64encode(f"cursor:{index + 1}".encode()).decode()


def _position(value: str | None) -> int | None:
    """The index a cursor stands for; a cursor that is not one of ours is GitHub's `INVALID_CURSOR_ARGUMENTS`."""
    if value is None:
        return None
    try:
        text = base64.b64decode(value, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise Problem("INVALID_CURSOR_ARGUMENTS", f"`{value}` does not appear to be a valid cursor.") from exc
    kind, _, number = text.partition(":")
    if kind != "cursor" or not number.isdigit():
        raise Problem("INVALID_CURSOR_ARGUMENTS", f"`{value}` does not appear to be a valid cursor.")
    return int(number) - 1


class Connection:
    """A page of `items` by `first`/`after` or `last`/`before`, as GitHub's connections page (only the page
    is read of `items`, and made into nodes by `_node`)."""

    def __init__(
        self,
        items: Sequence[Any],
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
        **_: Any,
    ) -> None:
        for name, value in (("first", first), ("last", last)):
            if value is not None and value > MAX_PAGE:
                raise Problem(
                    "EXCESSIVE_PAGINATION",
                    f"Requesting {value} records on the connection exceeds the `{name}` limit of {MAX_PAGE} records.",
                )
            if value is not None and value < 0:
                raise Problem("INVALID_ARGUMENTS", f"`{name}` on a connection cannot be less than zero.")
        start, end = 0, len(items)
        after_at, before_at = _position(after), _position(before)
        if after_at is not None:
            start = min(after_at + 1, end)
        if before_at is not None:
            end = max(min(before_at, end), start)
        if first is not None:
            end = min(end, start + first)
        if last is not None:
            start = max(start, end - last)
        self.total_count = len(items)
        self.nodes = [self._node(i) for i in items[start:end]]
        self.edges = [{"cursor": cursor(i), "node": node} for i, node in enumerate(self.nodes, start)]
        self.page_info = {
            "hasNextPage": end < len(items),
            "hasPreviousPage": start > 0,
            "startCursor": cursor(start) if end > start else None,
            "endCursor": cursor(end - 1) if end > start else None,
        }

    def _node(self, found: Any) -> Any:
        return found


class SearchResults(Connection):
    """What `search` finds, issues and pulls made into objects a page at a time: its count is `issueCount`."""

    def __init__(self, ctx: Context, found: Sequence[Record], **page: Any) -> None:
        self.ctx = ctx
        super().__init__(found, **page)

    def _node(self, found: Any) -> Any:
        return item(self.ctx, found)

    @property
    def issue_count(self) -> int:
        return self.total_count


class Empty:
    """A connection of things the world never has (project cards, review requests)."""

    total_count = 0
    nodes: list[Any] = []
    page_info = {"hasNextPage": False, "hasPreviousPage": False, "startCursor": None, "endCursor": None}


class Actor:
    """A `User`, `Bot` or `Organization` (by the record's `type`)."""

    def __init__(self, ctx: Context, record: Record) -> None:
        self.ctx, self.record = ctx, record
        self.typename = record["type"]
        self.id = record["node_id"]
        self.database_id = record["id"]
        self.login = record["login"]
        self.name = record.get("name")
        self.email = record.get("email") or ""
        self.url = f"{HTML}/{self.login}"
        self.resource_path = f"/{self.login}"
        self.created_at = stamp(record["created_at"])

    def avatar_url(self, size: int | None = None) -> str:
        return f"https://avatars.githubusercontent.com/u/{self.record['id']}?v=4"


def actor(ctx: Context, login: str | None) -> Actor | None:
    record = repos.user(ctx.records, login) if login else None
    return Actor(ctx, record) if record else None


def owner(ctx: Context, login: str) -> Actor | None:
    """A repository's owner: a bot account owning one is shown as the user it is to git."""
    found = actor(ctx, login)
    if found is not None and found.typename == "Bot":
        found.typename = "User"
    return found


class Label:
    def __init__(self, record: Record) -> None:
        self.typename = "Label"
        self.id = record["node_id"]
        self.name, self.color, self.description = record["name"], record["color"], record["description"]
        self.is_default = record["default"]
        self.url = f"{HTML}/{record['repository']}/labels/{record['name']}"


class Milestone:
    def __init__(self, record: Record) -> None:
        self.typename = "Milestone"
        self.number, self.title, self.description = record["number"], record["title"], record["description"]
        self.due_on = maybe_stamp(record["due_on"])


class Commit:
    def __init__(self, ctx: Context, record: Record) -> None:
        self.ctx, self.record = ctx, record
        self.typename = "Commit"
        self.id = _legacy_id(ctx, "Commit", record["repository"], record["sha"])
        self.oid = record["sha"]
        self.abbreviated_oid = record["sha"][:7]
        self.message = record["message"]
        headline, _, rest = record["message"].partition("\n")
        self.message_headline, self.message_body = headline, rest.strip("\n")
        self.committed_date = stamp(record["committer"]["at"])
        self.authored_date = stamp(record["author"]["at"])
        self.url = f"{HTML}/{record['repository']}/commit/{record['sha']}"

    def author(self) -> GitActor:
        return GitActor(self.ctx, self.record["author"])

    def committer(self) -> GitActor:
        return GitActor(self.ctx, self.record["committer"])

    def authors(self, **page: Any) -> Connection:
        """The git author, then each `Co-authored-by:` trailer of the message, as GitHub lists them."""
        author = self.record["author"]
        found = [GitActor(self.ctx, author)] + [
            GitActor(self.ctx, {**author, "name": m["name"], "email": m["email"]})
            for m in _CO_AUTHOR.finditer(self.record["message"])
        ]
        return Connection(found, **page)

    def status_check_rollup(self) -> dict[str, Any] | None:
        """The commit's statuses (the latest per context) and check runs; None when it has neither."""
        records, sha = self.ctx.records, self.oid
        latest: dict[str, Record] = {}
        for status in records[STATUSES].by("sha", sha):
            latest[status["context"]] = status
        runs = ci.latest(records, records[CHECK_RUNS].by("head_sha", sha))  # not earlier attempts
        if not latest and not runs:
            return None
        contexts = [_status_context(s) for s in latest.values()] + [_check_run(records, r) for r in runs]
        states = {c["state"] for c in contexts}
        state = "FAILURE" if states & {"FAILURE", "ERROR"} else "PENDING" if "PENDING" in states else "SUCCESS"
        return {"state": state, "contexts": lambda first=None, after=None: Connection(contexts, first, after)}


_CO_AUTHOR = re.compile(
    r"^Co-authored-by: *(?P<name>[^<>\n]*?) *<(?P<email>[^<>\n]+)> *$", re.IGNORECASE | re.MULTILINE
)


class GitActor:
    """A commit's author or committer as git wrote it: `date` in the commit's own time zone (GitHub's
    GitTimestamp is not converted to UTC), `user` the account with that email."""

    def __init__(self, ctx: Context, person: Record) -> None:
        self.ctx, self.person = ctx, person
        self.typename = "GitActor"
        self.name, self.email = person["name"], person["email"]
        zone = git.zone(person)
        local = stamp(person["at"] + git.zone_minutes(zone) * 60 * US).removesuffix("Z")
        self.date = f"{local}{zone[0]}{zone[1:3]}:{zone[3:5]}"

    def user(self) -> Actor | None:
        found = repos.user_by_email(self.ctx.records, self.email)
        return Actor(self.ctx, found) if found and found["type"] == "User" else None

    def avatar_url(self, size: int | None = None) -> str:
        found = repos.user_by_email(self.ctx.records, self.email)
        if found is not None:
            return f"https://avatars.githubusercontent.com/u/{found['id']}?v=4"
        digest = hashlib.md5(self.email.strip().lower().encode(), usedforsecurity=False).hexdigest()
        return f"https://secure.gravatar.com/avatar/{digest}?d=identicon&r=g"


def _not_required(pull_request_id: str | None = None, pull_request_number: int | None = None) -> bool:
    """`isRequired`: a check is required only by a branch protection rule, and the world has none."""
    return False


def _status_context(record: Record) -> dict[str, Any]:
    return {
        "typename": "StatusContext",
        "isRequired": _not_required,
        "context": record["context"],
        "state": record["state"].upper(),
        "targetUrl": record["target_url"],
        "description": record["description"],
        "createdAt": stamp(record["created_at"]),
    }


_PASSING = ("success", "neutral", "skipped")  # conclusions the rollup counts as passing


def _check_run(records: Records, record: Record) -> dict[str, Any]:
    run = records[WORKFLOW_RUNS].get(str(record["run_id"]))
    conclusion = record["conclusion"]
    return {
        "typename": "CheckRun",
        "isRequired": _not_required,
        "state": "PENDING" if conclusion is None else "SUCCESS" if conclusion in _PASSING else "FAILURE",
        "name": record["name"],
        "status": record["status"].upper(),
        "conclusion": conclusion.upper() if conclusion else None,
        "startedAt": stamp(record["started_at"]),
        "completedAt": maybe_stamp(record["completed_at"]),
        "detailsUrl": f"{HTML}/{record['repository']}/actions/runs/{record['run_id']}/job/{record['id']}",
        "checkSuite": {"workflowRun": {"workflow": {"name": run["name"]}}} if run else None,
    }


def commit(ctx: Context, sha: str | None) -> Commit | None:
    record = commits.commit(ctx.records.objects, sha) if sha else None
    return Commit(ctx, record) if record else None


class Comment:
    """An `IssueComment`."""

    def __init__(self, ctx: Context, record: Record) -> None:
        self.ctx, self.record = ctx, record
        self.typename = "IssueComment"
        self.id = record["node_id"]
        self.database_id = record["id"]
        self.body = record["body"]
        self.created_at = stamp(record["created_at"])
        self.updated_at = stamp(record["updated_at"])
        self.includes_created_edit = record["updated_at"] != record["created_at"]
        self.is_minimized, self.minimized_reason = False, None
        self.reaction_groups: list[Any] = []
        kind = "pull" if ctx.records[PULLS].get(record["issue"]) else "issues"
        self.url = f"{HTML}/{record['repository']}/{kind}/{record['number']}#issuecomment-{record['id']}"
        self.viewer_did_author = record["user"] == ctx.viewer["login"]
        self.author_association = association(ctx.records, record["repository"], record["user"]).upper()

    def author(self) -> Actor | None:
        return actor(self.ctx, self.record["user"])


class Review:
    """A `PullRequestReview`."""

    def __init__(self, ctx: Context, record: Record) -> None:
        self.ctx, self.record = ctx, record
        self.typename = "PullRequestReview"
        self.id = record["node_id"]
        self.database_id = record["id"]
        self.body = record["body"]
        self.state = record["state"]
        self.submitted_at = maybe_stamp(record["submitted_at"])
        self.includes_created_edit = False
        self.reaction_groups: list[Any] = []
        self.url = f"{HTML}/{record['repository']}/pull/{record['number']}#pullrequestreview-{record['id']}"
        self.author_association = association(ctx.records, record["repository"], record["user"]).upper()

    def author(self) -> Actor | None:
        return actor(self.ctx, self.record["user"])

    def commit(self) -> Commit | None:
        return commit(self.ctx, self.record["commit_id"])


class Item:
    """What an `Issue` and a `PullRequest` share."""

    def __init__(self, ctx: Context, record: Record) -> None:
        self.ctx, self.record = ctx, record
        repo = record["repository"]
        self.id = record["node_id"]
        self.database_id = record["id"]
        self.number = record["number"]
        self.title = record["title"]
        self.body = record["body"] or ""
        self.closed = record["state"] == "closed"
        self.closed_at = maybe_stamp(record["closed_at"])
        self.created_at = stamp(record["created_at"])
        self.updated_at = stamp(record["updated_at"])
        self.locked = record["locked"]
        self.author_association = association(ctx.records, repo, record["user"]).upper()
        found = milestones.milestone(ctx.records, repo, record["milestone"]) if record["milestone"] else None
        self.milestone = Milestone(found) if found else None
        self.reaction_groups: list[Any] = []
        self.viewer_did_author = record["user"] == ctx.viewer["login"]

    def author(self) -> Actor | None:
        return actor(self.ctx, self.record["user"])

    def repository(self) -> Repository:
        found = repos.repo(self.ctx.records, self.record["repository"])
        assert found is not None
        return Repository(self.ctx, found)

    def labels(self, **page: Any) -> Connection:
        found = (issues.label(self.ctx.records, self.record["repository"], n) for n in self.record["labels"])
        return Connection([Label(r) for r in found if r], **page)

    def assignees(self, **page: Any) -> Connection:
        return Connection([a for a in (actor(self.ctx, login) for login in self.record["assignees"]) if a], **page)

    def comments(self, **page: Any) -> Connection:
        found = issues.comments(self.ctx.records, self.record["repository"], self.number)
        return Connection([Comment(self.ctx, r) for r in found], **page)

    def project_cards(self, **_: Any) -> Empty:
        return Empty()

    def project_items(self, **_: Any) -> Empty:
        return Empty()


class Issue(Item):
    def __init__(self, ctx: Context, record: Record) -> None:
        super().__init__(ctx, record)
        self.typename = "Issue"
        self.state = record["state"].upper()
        self.state_reason = record["state_reason"].upper() if record.get("state_reason") else None
        self.url = f"{HTML}/{record['repository']}/issues/{record['number']}"


_MERGE_STATE = {True: "CLEAN", False: "DIRTY", None: "UNKNOWN"}


class PullRequest(Item):
    def __init__(self, ctx: Context, record: Record) -> None:
        super().__init__(ctx, record)
        records = ctx.records
        self.typename = "PullRequest"
        self.state = "MERGED" if record["merged"] else record["state"].upper()
        self.url = f"{HTML}/{record['repository']}/pull/{record['number']}"
        self.merged = record["merged"]
        self.merged_at = maybe_stamp(record["merged_at"])
        self.is_draft = record["draft"]
        self.maintainer_can_modify = record.get("maintainer_can_modify", False)
        self.base_ref_name, self.head_ref_name = record["base"], record["head"]
        self.base_ref_oid = pulls.base_sha(records, record) or ""
        self.head_ref_oid = pulls.head_sha(records, record) or ""
        self.is_cross_repository = False

    # What takes work (a compare, a three-way merge) is worked out once, and only when asked for.

    @cached_property
    def _changes(self) -> dict[str, Any]:
        return pulls.changes(self.ctx.records, self.record)

    @cached_property
    def _can_merge(self) -> bool | None:
        return pulls.mergeable(self.ctx.records, self.record)

    def mergeable(self) -> str:
        return {True: "MERGEABLE", False: "CONFLICTING", None: "UNKNOWN"}[self._can_merge]

    def merge_state_status(self) -> str:
        return "DRAFT" if self.is_draft and self._can_merge else _MERGE_STATE[self._can_merge]

    def additions(self) -> int:
        return sum(f["additions"] for f in self._changes["files"])

    def deletions(self) -> int:
        return sum(f["deletions"] for f in self._changes["files"])

    def changed_files(self) -> int:
        return len(self._changes["files"])

    def files(self, **page: Any) -> Connection:
        found = self._changes["files"]
        return Connection(
            [{"path": f["filename"], "additions": f["additions"], "deletions": f["deletions"]} for f in found], **page
        )

    def commits(self, **page: Any) -> Connection:
        found = [commit(self.ctx, c["sha"]) for c in self._changes["commits"]]
        return Connection([{"commit": c} for c in found if c], **page)

    def merged_by(self) -> Actor | None:
        return actor(self.ctx, self.record["merged_by"])

    def merge_commit(self) -> Commit | None:
        return commit(self.ctx, self.record["merge_commit_sha"])

    def _ref(self, branch: str) -> dict[str, Any] | None:
        sha = repos.branch_sha(self.ctx.records, self.record["repository"], branch)
        if sha is None:
            return None
        ident = _legacy_id(self.ctx, "Ref", self.record["repository"], branch)
        return {"id": ident, "name": branch, "prefix": "refs/heads/", "target": commit(self.ctx, sha)}

    def base_ref(self) -> dict[str, Any] | None:
        return self._ref(self.record["base"])

    def head_ref(self) -> dict[str, Any] | None:
        return self._ref(self.record["head"])

    def base_repository(self) -> Repository:
        return self.repository()

    def head_repository(self) -> Repository:
        return self.repository()

    def head_repository_owner(self) -> Actor | None:
        return owner(self.ctx, self.record["repository"].split("/")[0])

    def reviews(self, states: list[str] | None = None, **page: Any) -> Connection:
        found = [r for r in pulls.reviews(self.ctx.records, self.record) if states is None or r["state"] in states]
        return Connection([Review(self.ctx, r) for r in found], **page)

    def latest_reviews(self, **page: Any) -> Connection:
        """Each reviewer's latest submitted review."""
        latest: dict[str, Record] = {}
        for review in pulls.reviews(self.ctx.records, self.record):
            if review["state"] != "PENDING":
                latest.pop(review["user"], None)
                latest[review["user"]] = review
        return Connection([Review(self.ctx, r) for r in latest.values()], **page)

    def review_decision(self) -> None:
        """None: GitHub decides only when branch protection requires reviews, and the world has none."""
        return

    def review_requests(self, **_: Any) -> Empty:
        return Empty()


class Release:
    def __init__(self, ctx: Context, record: Record, latest: bool) -> None:
        self.ctx, self.record = ctx, record
        self.typename = "Release"
        self.id = record["node_id"]
        self.database_id = record["id"]
        self.name, self.tag_name, self.description = record["name"], record["tag_name"], record["body"]
        self.is_draft, self.is_prerelease, self.is_latest = record["draft"], record["prerelease"], latest
        self.created_at = stamp(record["created_at"])
        self.published_at = maybe_stamp(record["published_at"])
        self.updated_at = stamp(record["published_at"] or record["created_at"])
        self.resource_path = f"/{record['repository']}/releases/tag/{record['tag_name']}"
        self.url = HTML + self.resource_path

    def author(self) -> Actor | None:
        return actor(self.ctx, self.record["author"])

    def tag_commit(self) -> Commit | None:
        """The commit its tag names (a draft's target, which it will tag once published)."""
        repo, record = self.record["repository"], self.record
        return commit(
            self.ctx,
            repos.resolve(self.ctx.records, repo, record["tag_name"])
            or repos.resolve(self.ctx.records, repo, record["target_commitish"]),
        )


def item(ctx: Context, record: Record) -> Issue | PullRequest:
    return PullRequest(ctx, record) if "head" in record else Issue(ctx, record)


def _sorted(ctx: Context, found: list[Record], order: dict[str, str] | None) -> list[Record]:
    """Newest first unless `orderBy` says otherwise (`CREATED_AT`, `UPDATED_AT`, `COMMENTS`)."""
    field = (order or {}).get("field", "CREATED_AT")
    sort = {"CREATED_AT": "created", "UPDATED_AT": "updated", "COMMENTS": "comments"}[field]
    ascending = (order or {}).get("direction", "DESC") == "ASC"
    return sorted(found, key=lambda r: (issues.sort_value(ctx.records, r, sort), r["number"]), reverse=not ascending)


class Repository:
    def __init__(self, ctx: Context, record: Record) -> None:
        self.ctx, self.record = ctx, record
        self.typename = "Repository"
        name = record["full_name"]
        self.id = record["node_id"]
        self.database_id = record["id"]
        self.name = record["name"]
        self.name_with_owner = name
        self.description = record["description"]
        self.url = f"{HTML}/{name}"
        self.homepage_url = None
        self.is_private = record["private"]
        self.visibility = "PRIVATE" if record["private"] else "PUBLIC"
        self.is_fork = self.is_archived = self.is_template = False
        self.has_issues_enabled = self.has_wiki_enabled = self.has_projects_enabled = True
        self.merge_commit_allowed = self.squash_merge_allowed = self.rebase_merge_allowed = True
        self.delete_branch_on_merge = False
        self.viewer_permission = "ADMIN"
        self.parent = None
        self.created_at = stamp(record["created_at"])
        self.updated_at = stamp(record["updated_at"])
        self.pushed_at = maybe_stamp(record["pushed_at"])
        self.stargazer_count = self.fork_count = 0

    def owner(self) -> Actor | None:
        return owner(self.ctx, self.record["owner"])

    def is_empty(self) -> bool:
        return not repos.branches(self.ctx.records, self.record["full_name"])

    def default_branch_ref(self) -> dict[str, Any] | None:
        branch = self.record["default_branch"]
        sha = repos.branch_sha(self.ctx.records, self.record["full_name"], branch)
        if sha is None:
            return None
        ident = _legacy_id(self.ctx, "Ref", self.record["full_name"], branch)
        return {"id": ident, "name": branch, "prefix": "refs/heads/", "target": commit(self.ctx, sha)}

    def _numbered(self, collection: str, number: int) -> Record | None:
        return self.ctx.records[collection].get(f"{self.record['full_name']}#{number}")

    def issue(self, number: int) -> Issue:
        found = self._numbered(ISSUES, number)
        if found is None:
            raise Problem("NOT_FOUND", f"Could not resolve to an Issue with the number of {number}.")
        return Issue(self.ctx, found)

    def pull_request(self, number: int) -> PullRequest:
        found = self._numbered(PULLS, number)
        if found is None:
            raise Problem("NOT_FOUND", f"Could not resolve to a PullRequest with the number of {number}.")
        return PullRequest(self.ctx, found)

    def issue_or_pull_request(self, number: int) -> Issue | PullRequest:
        found = issues.item(self.ctx.records, self.record["full_name"], number)
        if found is None:
            raise Problem("NOT_FOUND", f"Could not resolve to an issue or pull request with the number of {number}.")
        return item(self.ctx, found[1])

    def issues(
        self,
        states: list[str] | None = None,
        labels: list[str] | None = None,
        order_by: dict[str, str] | None = None,
        filter_by: dict[str, Any] | None = None,
        **page: Any,
    ) -> Connection:
        wanted = {s.lower() for s in (states or (filter_by or {}).get("states") or ["OPEN", "CLOSED"])}
        terms = filter_by or {}
        names = {n.lower() for n in (labels or terms.get("labels") or [])}
        found = [
            r
            for r in self.ctx.records[ISSUES].by("repository", self.record["full_name"])
            if r["state"] in wanted
            and (not terms.get("assignee") or terms["assignee"] in r["assignees"])
            and (not terms.get("createdBy") or terms["createdBy"] == r["user"])
            and (not terms.get("mentioned") or self._mentions(r, terms["mentioned"]))
            and names <= {n.lower() for n in r["labels"]}
        ]
        return Connection([Issue(self.ctx, r) for r in _sorted(self.ctx, found, order_by)], **page)

    def _mentions(self, record: Record, login: str) -> bool:
        """Whether `@login` is in the issue's body or one of its comments."""
        texts = [record["body"] or ""] + [
            c["body"] for c in issues.comments(self.ctx.records, record["repository"], record["number"])
        ]
        return any(re.search(rf"@{re.escape(login)}\b", text, re.IGNORECASE) for text in texts)

    def pull_requests(
        self,
        states: list[str] | None = None,
        labels: list[str] | None = None,
        head_ref_name: str | None = None,
        base_ref_name: str | None = None,
        order_by: dict[str, str] | None = None,
        **page: Any,
    ) -> Connection:
        wanted = set(states or ["OPEN", "CLOSED", "MERGED"])
        names = {n.lower() for n in labels or []}
        found = [
            r
            for r in self.ctx.records[PULLS].by("repository", self.record["full_name"])
            if ("MERGED" if r["merged"] else r["state"].upper()) in wanted
            and head_ref_name in (None, r["head"])
            and base_ref_name in (None, r["base"])
            and names <= {n.lower() for n in r["labels"]}
        ]
        return Connection([PullRequest(self.ctx, r) for r in _sorted(self.ctx, found, order_by)], **page)

    def label(self, name: str) -> Label | None:
        found = issues.label(self.ctx.records, self.record["full_name"], name)
        return Label(found) if found else None

    def labels(self, query: str | None = None, order_by: dict[str, str] | None = None, **page: Any) -> Connection:
        found = [
            r
            for r in issues.labels(self.ctx.records, self.record["full_name"])
            if not query or query.lower() in r["name"].lower()
        ]
        found.sort(key=lambda r: r["name"].lower(), reverse=(order_by or {}).get("direction") == "DESC")
        return Connection([Label(r) for r in found], **page)

    def releases(self, order_by: dict[str, str] | None = None, **page: Any) -> Connection:
        """Newest first unless `orderBy` says otherwise (`CREATED_AT`, `NAME`); drafts too, as the
        repository's writers see them."""
        records = self.ctx.records
        found = records[RELEASES].by("repository", self.record["full_name"])
        latest = ci.latest_release(records, self.record["full_name"])
        by_name = (order_by or {}).get("field") == "NAME"
        found = sorted(found, key=lambda r: ((r["name"] or "") if by_name else r["created_at"], r["id"]))
        if (order_by or {}).get("direction", "DESC") == "DESC":
            found.reverse()
        return Connection([Release(self.ctx, r, r is latest) for r in found], **page)

    def latest_release(self) -> Release | None:
        found = ci.latest_release(self.ctx.records, self.record["full_name"])
        return Release(self.ctx, found, True) if found else None

    def assignable_users(self, query: str | None = None, **page: Any) -> Connection:
        found = [
            Actor(self.ctx, r)
            for r in self.ctx.records[USERS]
            if r["type"] == "User" and (not query or query.lower() in r["login"].lower())
        ]
        return Connection(found, **page)


def repository(ctx: Context, full_name: str) -> Repository | None:
    record = ctx.records[REPOS].get(full_name)
    return Repository(ctx, record) if record else None
