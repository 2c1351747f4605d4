"""Building a repo's `milestones[]`, `issues[]` and `pulls[]` from a world file.

Issues are numbered first (1, 2...), then pulls, in file order; a ref names "owner/repo#N". Each is opened
`ago` before the clock start (default: two hours apart, the last two hours before it), closed or merged
`closed_ago` (default: an hour after opening), and last updated `updated_ago` (default: its last event). Labels an
issue names that the repo does not define are created (grey, as GitHub does when a label is applied by
name). Milestones are numbered from 1 in file order, made 30 days before the clock start; an issue or
pull names its milestone by title or ref.
"""

from __future__ import annotations

from functools import partial

from ...clock import parse_duration
from ...spec.build import BuildContext
from ...world import Record
from . import commits, events, issue_types, issues, milestones, pulls, repos
from .models import Issue, Milestone, Pull, Repo
from .records import Records
from .seed_repos import DAY, HOUR, account
from .store import ISSUES, MILESTONES, PULLS, item_key


def build(repo: Repo, ctx: BuildContext) -> None:
    """The repo's issues, then its pull requests (`ctx` points at the repo in the file)."""
    records = Records.image(ctx)
    name = repo.full_name
    owner = name.split("/")[0]
    for k, planned in enumerate(repo.milestones):
        ctx.attempt(partial(_build_milestone, ctx, records, name, owner, planned, k), ref=planned.ref)
    count = len(repo.issues) + len(repo.pulls)
    for k, issue in enumerate(repo.issues):
        default = ctx.start - (count - k) * 2 * HOUR
        ctx.attempt(partial(_build_issue, ctx, records, repo, issue, k, default), ref=issue.ref)
    for k, pull in enumerate(repo.pulls):
        default = ctx.start - (count - len(repo.issues) - k) * 2 * HOUR
        ctx.attempt(partial(_build_pull, ctx, records, repo, pull, k, default), ref=pull.ref)


def _build_issue(ctx: BuildContext, records: Records, repo: Repo, issue: Issue, k: int, default: int) -> None:
    name = repo.full_name
    owner = name.split("/")[0]
    at, closed_at = _times(ctx, issue, default, issue.state == "closed", "issues", k)
    login = account(ctx, issue.user, owner, "issues", k, "user")["login"]
    assignees = [account(ctx, a, owner, "issues", k, "assignees", j)["login"] for j, a in enumerate(issue.assignees)]
    labels = [
        issues.apply_labels(records, name, [ctx.resolve(value, "issues", k, "labels", j)])[0]
        for j, value in enumerate(issue.labels)
    ]
    milestone = _milestone_of(ctx, records, name, issue.milestone, "issues", k, "milestone")
    if issue.type is not None:
        org = repos.user(records, owner)
        if org is None or org["type"] != "Organization":
            raise ctx.error(f"{name} is not an organization's repo: its issues have no types", "issues", k, "type")
        issue_types.ensure(records, org)
    record = issues.create_issue(
        records,
        name,
        login,
        at,
        title=issue.title,
        body=issue.body,
        labels=labels,
        assignees=assignees,
        milestone=milestone,
        type=issue.type,
    )
    if issue.state == "closed":
        record = issues.update_item(records, ISSUES, record, login, closed_at, state="closed")
    _touch(ctx, records, ISSUES, record, issue, "issues", k)
    ctx.define(issue.ref, item_key(name, record["number"]), ISSUES, "issues", k)


def _build_pull(ctx: BuildContext, records: Records, repo: Repo, pull: Pull, k: int, default: int) -> None:
    name = repo.full_name
    owner = name.split("/")[0]
    at, closed_at = _times(ctx, pull, default, pull.merged or pull.state == "closed", "pulls", k)
    base = pull.base or repo.default_branch
    for field, branch in (("head", pull.head), ("base", base)):
        if repos.branch_sha(records, name, branch) is None:
            raise ctx.error(f"{name} has no branch {branch!r}", "pulls", k, field)
    if pull.head == base:
        raise ctx.error(f"head and base are both {base!r}", "pulls", k, "head")
    login = account(ctx, pull.user, owner, "pulls", k, "user")["login"]
    milestone = _milestone_of(ctx, records, name, pull.milestone, "pulls", k, "milestone")
    record = pulls.create_pull(records, name, login, at, title=pull.title, body=pull.body, head=pull.head, base=base)
    if milestone is not None:
        record = issues.update_item(records, PULLS, record, login, at, milestone=milestone)
    if pull.merged:
        record = _mark_merged(records, record, login, closed_at)
    elif pull.state == "closed":
        record = issues.update_item(records, PULLS, record, login, closed_at, state="closed")
    _touch(ctx, records, PULLS, record, pull, "pulls", k)
    ctx.define(pull.ref, item_key(name, record["number"]), PULLS, "pulls", k)


def _build_milestone(ctx: BuildContext, records: Records, repo: str, owner: str, planned: Milestone, k: int) -> None:
    if milestones.by_title(records, repo, planned.title) is not None:
        raise ctx.error(f"milestone {planned.title!r} is defined twice in {repo}", "milestones", k, "title")
    creator = account(ctx, planned.creator, owner, "milestones", k, "creator")["login"]
    due = ctx.start + parse_duration(planned.due_in) if planned.due_in is not None else None
    at = ctx.start - 30 * DAY
    fields = {"title": planned.title, "description": planned.description, "state": planned.state, "due_on": due}
    record = milestones.create(records, repo, creator, at, **fields)
    ctx.define(planned.ref, milestones.key(repo, record["number"]), MILESTONES, "milestones", k)


def _milestone_of(ctx: BuildContext, records: Records, repo: str, value: str | None, *path: str | int) -> int | None:
    """The number of the milestone an issue or pull names by ref or title."""
    if value is None:
        return None
    if value.startswith("$"):
        found = records[MILESTONES].get(ctx.resolve_kind(value, MILESTONES, *path))
    else:
        found = milestones.by_title(records, repo, value)
    if found is None or found["repository"] != repo:
        raise ctx.error(f"{repo} has no milestone {value!r}", *path)
    return found["number"]


def _times(ctx: BuildContext, item: Issue | Pull, default: int, closed: bool, *path: str | int) -> tuple[int, int]:
    """When an issue or pull was opened and (if it is closed or merged) closed, from its `ago` and
    `closed_ago`: a close before the opening, or a `closed_ago` on an open one, is an error at its field."""
    at = ctx.start - parse_duration(item.ago) if item.ago is not None else default
    if item.closed_ago is None:
        return at, at + HOUR
    if not closed:
        raise ctx.error("an open item has no closed_ago", *path, "closed_ago")
    closed_at = ctx.start - parse_duration(item.closed_ago)
    if closed_at < at:
        raise ctx.error(f"closed {item.closed_ago} ago, before it was opened", *path, "closed_ago")
    return at, closed_at


def _touch(
    ctx: BuildContext, records: Records, collection: str, record: Record, item: Issue | Pull, *path: str | int
) -> None:
    """Sets `updated_at` from `updated_ago`, which may not come before the item's last event."""
    if item.updated_ago is None:
        return
    at = ctx.start - parse_duration(item.updated_ago)
    if at < record["updated_at"]:
        raise ctx.error(
            f"updated {item.updated_ago} ago, before its last change (opened, closed or merged)", *path, "updated_ago"
        )
    records[collection].change(item_key(record["repository"], record["number"]), updated_at=at)


def _mark_merged(records: Records, pull: Record, login: str, at: int) -> Record:
    """A pull the file says was merged: closed and merged. When its head is already in the base branch
    (the file wrote the history as merged), the head is the merge commit and the pull brought that one
    commit (its base is the head's parent); otherwise the merge commit is the base branch's head."""
    repo = pull["repository"]
    base = repos.branch_sha(records, repo, pull["base"])
    assert base is not None
    head = pull["head_sha"]
    merged_in = head is not None and any(c["sha"] == head for c in commits.history(records.objects, base))
    merge_commit, before = base, pull["base_sha"]
    if merged_in:
        parents = commits.known(records.objects, head)["parents"]
        merge_commit, before = head, parents[0] if parents else head
    events.merged(records, pull, login, at, merge_commit)
    return records[PULLS].change(
        item_key(repo, pull["number"]),
        base_sha=before,
        state="closed",
        merged=True,
        merged_at=at,
        merged_by=login,
        closed_by=login,
        merge_commit_sha=merge_commit,
        closed_at=at,
        updated_at=at,
    )
