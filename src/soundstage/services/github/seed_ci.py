"""Building a repo's `releases[]` from a world file, and its CI history: every branch head gets one
completed, successful `CI` workflow run with its `build` check run."""

from __future__ import annotations

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from . import ci, commits, repos
from .models import Repo
from .records import Records
from .seed_repos import DAY, account
from .store import RELEASES


def build(repo: Repo, ctx: BuildContext) -> None:
    """The repo's releases, then its CI runs (`ctx` points at the repo in the file)."""
    records = Records.image(ctx)
    name = repo.full_name
    owner = name.split("/")[0]
    tags: set[str] = set()
    for k, release in enumerate(repo.releases):
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
            account(ctx, release.author, owner, "releases", k, "author")["login"],
            ctx.start - ago,
            name=release.name,
            body=release.body,
            draft=release.draft,
            prerelease=release.prerelease,
        )
        ctx.define(release.ref, str(record["id"]), RELEASES, "releases", k)
    _seed_runs(records, name, owner)


def _seed_runs(records: Records, repo: str, owner: str) -> None:
    """One completed CI run per branch head, numbered in the order the heads were committed."""
    objects = records.objects
    heads = [
        (commits.known(objects, ref["sha"]), ref["ref"].removeprefix("refs/heads/"))
        for ref in repos.branches(records, repo)
    ]
    for commit, branch in sorted(heads, key=lambda h: (h[0]["committer"]["at"], h[1])):
        author = repos.user_by_email(records, commit["author"]["email"])
        at = commit["committer"]["at"] + 60 * US
        ci.add_run(records, repo, branch, commit["sha"], author["login"] if author else owner, at)
