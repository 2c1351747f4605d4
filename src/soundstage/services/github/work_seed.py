"""Building a repo's `issues[]` and `pulls[]` from a world file, and its CI history.

Issues are numbered first (1, 2...), then pulls, in file order; a ref names "owner/repo#N". Labels an
issue names that the repo does not define are created (grey, as GitHub does when a label is applied by
name). Every branch head gets one completed, successful `CI` workflow run with its `build` check run.
"""

from __future__ import annotations

from typing import Any

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from .models import Repo
from .store import USERS
from .work import ISSUES, PULLS, RELEASES, Work, item_key

HOUR = 3600 * US
DAY = 24 * HOUR


def seed_work(repo: Repo, ctx: BuildContext) -> None:
    work = Work(ctx.collection, ctx.ids)
    name = repo.full_name
    owner = name.split("/")[0]
    count = len(repo.issues) + len(repo.pulls)
    for k, issue in enumerate(repo.issues):
        at = ctx.start - (count - k) * 2 * HOUR
        login = _login(ctx, issue.user, owner, "issues", k, "user")
        assignees = [_login(ctx, a, owner, "issues", k, "assignees", j) for j, a in enumerate(issue.assignees)]
        labels = [_label(ctx, work, name, value, "issues", k, "labels", j) for j, value in enumerate(issue.labels)]
        record = work.create_issue(
            name, login, at, title=issue.title, body=issue.body, labels=labels, assignees=assignees
        )
        if issue.state == "closed":
            record = work.update_item(ISSUES, record, login, at + HOUR, state="closed")
        ctx.define(issue.ref, item_key(name, record["number"]), ISSUES, "issues", k)
    for k, pull in enumerate(repo.pulls):
        at = ctx.start - (count - len(repo.issues) - k) * 2 * HOUR
        base = pull.base or repo.default_branch
        for field, branch in (("head", pull.head), ("base", base)):
            if work.repos.branch_sha(name, branch) is None:
                raise ctx.error(f"{name} has no branch {branch!r}", "pulls", k, field)
        if pull.head == base:
            raise ctx.error(f"head and base are both {base!r}", "pulls", k, "head")
        login = _login(ctx, pull.user, owner, "pulls", k, "user")
        record = work.create_pull(name, login, at, title=pull.title, body=pull.body, head=pull.head, base=base)
        if pull.merged:
            _mark_merged(ctx, work, record, login, at + HOUR)
        elif pull.state == "closed":
            work.update_item(PULLS, record, login, at + HOUR, state="closed")
        ctx.define(pull.ref, item_key(name, record["number"]), PULLS, "pulls", k)
    tags: set[str] = set()
    for k, release in enumerate(repo.releases):
        if release.tag_name in tags:
            raise ctx.error(f"{name} has two releases tagged {release.tag_name!r}", "releases", k, "tag_name")
        tags.add(release.tag_name)
        target = ctx.resolve(release.target, "releases", k, "target") if release.target else repo.default_branch
        if work.repos.resolve(name, target) is None:
            raise ctx.error(f"{name} has no branch or commit {release.target!r}", "releases", k, "target")
        ago = parse_duration(release.ago) if release.ago else (len(repo.releases) - k) * DAY
        record = work.add_release(
            name,
            release.tag_name,
            target,
            _login(ctx, release.author, owner, "releases", k, "author"),
            ctx.start - ago,
            name=release.name,
            body=release.body,
            draft=release.draft,
            prerelease=release.prerelease,
        )
        ctx.define(release.ref, str(record["id"]), RELEASES, "releases", k)
    _seed_runs(work, name, owner)


def _login(ctx: BuildContext, value: str | None, default: str, *path: str | int) -> str:
    login = ctx.resolve_kind(value, USERS, *path) if value is not None else default
    if ctx.collection(USERS).get(login) is None:
        raise ctx.error(f"unknown GitHub user {login!r}", *path)
    return login


def _label(ctx: BuildContext, work: Work, repo: str, value: str, *path: str | int) -> str:
    name = ctx.resolve(value, *path)
    found = work.label(repo, name)
    return found["name"] if found else work.create_label(repo, name, "ededed", None)["name"]


def _mark_merged(ctx: BuildContext, work: Work, pull: Any, login: str, at: int) -> None:
    """A pull the file says was merged: closed and merged, its merge commit the base branch's head."""
    repo = pull["repository"]
    base = work.repos.branch_sha(repo, pull["base"])
    ctx.collection(PULLS).change(
        item_key(repo, pull["number"]),
        state="closed",
        merged=True,
        merged_at=at,
        merged_by=login,
        merge_commit_sha=base,
        closed_at=at,
        updated_at=at,
    )


def _seed_runs(work: Work, repo: str, owner: str) -> None:
    """One completed CI run per branch head, numbered in the order the heads were committed."""
    heads = [
        (work.repos.commit(ref["sha"]), ref["ref"].removeprefix("refs/heads/")) for ref in work.repos.branches(repo)
    ]
    for commit, branch in sorted(heads, key=lambda h: (h[0]["committer"]["at"], h[1])):  # type: ignore[index]
        assert commit is not None
        author = work.repos.user_by_email(commit["author"]["email"])
        at = commit["committer"]["at"] + 60 * US
        work.add_run(repo, branch, commit["sha"], author["login"] if author else owner, at)
