"""Building the `github:` sections of a world definition and a scene into a world image, in the two
passes every service has: `assign` adds the accounts and writes each repo's history, so that commit
refs name their shas (`seed_repos`); `build` adds the repo records, branches and labels (`seed_repos`),
then each repo's issues and pull requests (`seed_issues`), its releases and CI runs (`seed_ci`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...spec.build import BuildContext
from . import seed_ci, seed_issues, seed_repos
from .models import GithubSection


def assign(section: Any, ctx: BuildContext) -> None:
    seed_repos.assign(ctx.parsed(GithubSection, section), ctx)


def build(section: Any, ctx: BuildContext) -> None:
    """Each record built on its own (`BuildContext.attempt`): one with a problem is left out, the others built; a
    repo left out leaves out what it holds."""
    github = ctx.parsed(GithubSection, section)
    here = ctx.here
    for i, repo in enumerate(github.repos):
        if not ctx.attempt(partial(seed_repos.build_repo, ctx, repo, i), repo.full_name):
            continue
        ctx.at(ctx.file, here + ("repos", i))
        seed_issues.build(repo, ctx)
        seed_ci.build(repo, ctx)
        ctx.at(ctx.file, here)
