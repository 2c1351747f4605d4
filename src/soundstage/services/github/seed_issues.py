"""Building a repo's `issues[]` and `pulls[]` from a world file.

Issues are numbered first (1, 2...), then pulls, in file order; a ref names "owner/repo#N". Labels an
issue names that the repo does not define are created (grey, as GitHub does when a label is applied by
name).
"""

from __future__ import annotations

from ...spec.build import BuildContext
from ...world import Record
from . import events, issues, pulls, repos
from .models import Repo
from .records import Records
from .seed_repos import HOUR, account
from .store import ISSUES, PULLS, item_key


def build(repo: Repo, ctx: BuildContext) -> None:
    """The repo's issues, then its pull requests (`ctx` points at the repo in the file)."""
    records = Records.image(ctx)
    name = repo.full_name
    owner = name.split("/")[0]
    count = len(repo.issues) + len(repo.pulls)
    for k, issue in enumerate(repo.issues):
        at = ctx.start - (count - k) * 2 * HOUR
        login = account(ctx, issue.user, owner, "issues", k, "user")["login"]
        assignees = [
            account(ctx, a, owner, "issues", k, "assignees", j)["login"] for j, a in enumerate(issue.assignees)
        ]
        labels = [
            issues.apply_labels(records, name, [ctx.resolve(value, "issues", k, "labels", j)])[0]
            for j, value in enumerate(issue.labels)
        ]
        record = issues.create_issue(
            records, name, login, at, title=issue.title, body=issue.body, labels=labels, assignees=assignees
        )
        if issue.state == "closed":
            record = issues.update_item(records, ISSUES, record, login, at + HOUR, state="closed")
        ctx.define(issue.ref, item_key(name, record["number"]), ISSUES, "issues", k)
    for k, pull in enumerate(repo.pulls):
        at = ctx.start - (count - len(repo.issues) - k) * 2 * HOUR
        base = pull.base or repo.default_branch
        for field, branch in (("head", pull.head), ("base", base)):
            if repos.branch_sha(records, name, branch) is None:
                raise ctx.error(f"{name} has no branch {branch!r}", "pulls", k, field)
        if pull.head == base:
            raise ctx.error(f"head and base are both {base!r}", "pulls", k, "head")
        login = account(ctx, pull.user, owner, "pulls", k, "user")["login"]
        record = pulls.create_pull(
            records, name, login, at, title=pull.title, body=pull.body, head=pull.head, base=base
        )
        if pull.merged:
            _mark_merged(records, record, login, at + HOUR)
        elif pull.state == "closed":
            issues.update_item(records, PULLS, record, login, at + HOUR, state="closed")
        ctx.define(pull.ref, item_key(name, record["number"]), PULLS, "pulls", k)


def _mark_merged(records: Records, pull: Record, login: str, at: int) -> None:
    """A pull the file says was merged: closed and merged, its merge commit the base branch's head."""
    repo = pull["repository"]
    base = repos.branch_sha(records, repo, pull["base"])
    assert base is not None
    events.merged(records, pull, login, at, base)
    records[PULLS].change(
        item_key(repo, pull["number"]),
        state="closed",
        merged=True,
        merged_at=at,
        merged_by=login,
        merge_commit_sha=base,
        closed_at=at,
        updated_at=at,
    )
