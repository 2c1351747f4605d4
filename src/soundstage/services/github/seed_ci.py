"""Building a repo's `releases[]` from a world file, and its CI history: the file's `runs[]` (a workflow
run with one job, its conclusion, its log, flaky or not), and one completed, successful `CI` run with its
`build` check run for every branch head that no listed run ran on."""

from __future__ import annotations

from functools import partial

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from ...world import Record
from . import ci, commits, repos
from .models import Release, Repo, Run
from .records import Records
from .seed_repos import DAY, account
from .store import COMMITS, RELEASES, WORKFLOW_RUNS


def build(repo: Repo, ctx: BuildContext) -> None:
    """The repo's releases, then its CI runs (`ctx` points at the repo in the file)."""
    records = Records.image(ctx)
    name = repo.full_name
    owner = name.split("/")[0]
    tags: set[str] = set()
    for k, release in enumerate(repo.releases):
        ctx.attempt(partial(_build_release, ctx, records, repo, release, k, tags), ref=release.ref)
    _seed_runs(ctx, records, repo, owner)


def _build_release(ctx: BuildContext, records: Records, repo: Repo, release: Release, k: int, tags: set[str]) -> None:
    """A release of the repo; `tags`: those of the releases before it."""
    name = repo.full_name
    if release.tag_name in tags:
        raise ctx.error(f"{name} has two releases tagged {release.tag_name!r}", "releases", k, "tag_name")
    tags.add(release.tag_name)
    target = ctx.resolve(release.target, "releases", k, "target") if release.target else repo.default_branch
    if repos.resolve(records, name, target) is None:
        raise ctx.error(f"{name} has no branch or commit {release.target!r}", "releases", k, "target")
    ago = parse_duration(release.ago) if release.ago else (len(repo.releases) - k) * DAY
    record = ci.add_release(
        records,
        name,
        release.tag_name,
        target,
        account(ctx, release.author, name.split("/")[0], "releases", k, "author")["login"],
        ctx.start - ago,
        name=release.name,
        body=release.body,
        draft=release.draft,
        prerelease=release.prerelease,
    )
    ctx.define(release.ref, str(record["id"]), RELEASES, "releases", k)


def _seed_runs(ctx: BuildContext, records: Records, repo: Repo, owner: str) -> None:
    """The file's `runs`, and one completed, successful CI run for each branch head none of them ran on;
    numbered in the order they ran (a default run: a minute after its head was committed)."""
    name = repo.full_name
    objects = records.objects
    planned: list[tuple[int, str, str, str, Run | None, int]] = []
    for k, run in enumerate(repo.runs):
        ctx.attempt(partial(_plan_run, ctx, records, name, owner, run, k, planned), ref=run.ref)
    covered = {(branch, sha) for _, branch, sha, _, _, _ in planned}
    for ref in repos.branches(records, name):
        commit = commits.known(objects, ref["sha"])
        branch = ref["ref"].removeprefix("refs/heads/")
        if (branch, commit["sha"]) not in covered:
            at = commit["committer"]["at"] + 60 * US
            planned.append((at, branch, commit["sha"], _author(records, commit, owner), None, -1))
    for at, branch, sha, actor, listed, k in sorted(planned, key=lambda p: (p[0], p[1], p[5])):
        if listed is None:
            ci.add_run(records, name, branch, sha, actor, at)
            continue
        run = listed
        record = ci.add_run(
            records,
            name,
            branch,
            sha,
            actor,
            at,
            run.conclusion,
            workflow=run.workflow,
            job=run.job,
            event=run.event,
            log=run.log,
            passes_on_attempt=run.flaky.passes_on_attempt if run.flaky else None,
            passing_log=run.flaky.log if run.flaky else None,
        )
        ctx.define(run.ref, str(record["id"]), WORKFLOW_RUNS, "runs", k)


def _plan_run(
    ctx: BuildContext,
    records: Records,
    name: str,
    owner: str,
    run: Run,
    k: int,
    planned: list[tuple[int, str, str, str, Run | None, int]],
) -> None:
    """A run of the file, checked, added to `planned`."""
    objects = records.objects
    if repos.branch_sha(records, name, run.branch) is None:
        raise ctx.error(f"{name} has no branch {run.branch!r}", "runs", k, "branch")
    sha = repos.branch_sha(records, name, run.branch)
    if run.commit is not None:
        sha = ctx.resolve_kind(run.commit, COMMITS, "runs", k, "commit")
        found = commits.commit(objects, sha)
        if found is None or found["repository"] != name:
            raise ctx.error(f"{run.commit} is not a commit of {name}", "runs", k, "commit")
    if run.flaky is not None and run.conclusion == "success":
        raise ctx.error("a flaky run fails first: its conclusion cannot be success", "runs", k, "flaky")
    assert sha is not None
    commit = commits.known(objects, sha)
    at = ctx.start - parse_duration(run.ago) if run.ago else commit["committer"]["at"] + 60 * US
    actor = _author(records, commit, owner)
    if run.actor is not None:
        actor = account(ctx, run.actor, owner, "runs", k, "actor")["login"]
    planned.append((at, run.branch, sha, actor, run, k))


def _author(records: Records, commit: Record, owner: str) -> str:
    """The login of a commit's author (by email), else the repo's owner."""
    author = repos.user_by_email(records, commit["author"]["email"])
    return author["login"] if author else owner
