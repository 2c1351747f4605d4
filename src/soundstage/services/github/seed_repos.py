"""Building accounts and repositories from the `github:` section: users, an Organization account for any
repo owner that is not a user, each repo's history as real git objects (so commit refs name their
shas), and the repo records with their branches and labels.

`files` is a repo's first commit, each of `commits[]` goes on top of the previous one, or of its `parent`
(an earlier commit: history diverges there, as a branch does); commits without `ago` are one hour apart,
the last one hour before the clock start.
"""

from __future__ import annotations

from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from ...world import Record
from . import commits, git, issues, repos
from .licenses import LICENSES
from .models import GithubSection, Label, Repo, User
from .records import Records, node_id
from .store import COMMITS, HEADS, LABELS, REPOS, USERS, label_key

HOUR = 3600 * US
DAY = 24 * HOUR
USER_IDS = 90_000_000
REPO_IDS = 700_000_000

# The head commit `assign` wrote for each repo (None for an empty repo), per build, by full name.
_heads: WeakKeyDictionary[BuildContext, dict[str, str | None]] = WeakKeyDictionary()


def user_record(ctx: BuildContext, login: str, kind: str, name: str | None = None, email: str | None = None) -> Record:
    number = USER_IDS + ctx.ids.next("github:user")
    return {
        "id": number,
        "node_id": node_id(kind, number),
        "login": login,
        "type": kind,
        "name": name,
        "email": email,
        "created_at": ctx.start - 400 * DAY,
    }


def account(ctx: BuildContext, value: str | None, default: str, *path: str | int) -> Record:
    """The account a user ref or login names (`default`, a login, when `value` is None); an error at
    `path` for an unknown one."""
    login = ctx.resolve_kind(value, USERS, *path) if value is not None else default
    user = ctx.collection(USERS).get(login)
    if user is None:
        raise ctx.error(f"unknown GitHub user {login!r}", *path)
    return user


# -- pass 1 ------------------------------------------------------------------------------------------


def assign(github: GithubSection, ctx: BuildContext) -> None:
    """Accounts, and each repo's history (its name and commit refs defined)."""
    for i, user in enumerate(github.users):
        ctx.attempt(partial(_add_user, ctx, user, i))
    for i, repo in enumerate(github.repos):
        ctx.attempt(partial(_add_repo, ctx, repo, i))


def _add_repo(ctx: BuildContext, repo: Repo, i: int) -> None:
    """A repo's name and its history; its owner an Organization account unless a user owns it."""
    users = ctx.collection(USERS)
    owner = repo.full_name.split("/")[0]
    if owner not in users:
        users.add(owner, user_record(ctx, owner, "Organization"))
    if repo.full_name in _heads.setdefault(ctx, {}):
        raise ctx.error(f"repo {repo.full_name} is defined twice", "repos", i, "full_name")
    ctx.define(repo.ref, repo.full_name, REPOS, "repos", i)
    _write_history(ctx, repo, i)


def _add_user(ctx: BuildContext, user: User, i: int) -> None:
    users = ctx.collection(USERS)
    if user.login in users:
        raise ctx.error(f"login {user.login} is already used by another GitHub account", "users", i, "login")
    users.add(user.login, user_record(ctx, user.login, user.type, user.name, user.email))
    ctx.define(user.ref, user.login, USERS, "users", i)


def _write_history(ctx: BuildContext, repo: Repo, i: int) -> None:
    """The repo's commits as git objects; the head is remembered for `build_repo`."""
    objects = Records.image(ctx).objects
    owner = repo.full_name.split("/")[0]
    steps: list[tuple[Any, ...]] = []
    if repo.files:
        steps.append((None, "Initial commit", None, dict(repo.files), None, None, ("files",)))
    steps += [
        (c.ref, c.message, c.author, c.files, c.ago, c.parent, ("commits", k)) for k, c in enumerate(repo.commits)
    ]
    undated = [k for k, step in enumerate(steps) if step[4] is None]
    hours_before = {k: len(undated) - n for n, k in enumerate(undated)}
    head: str | None = None
    written: set[str] = set()
    for k, (ref, message, author, files, ago, parent, path) in enumerate(steps):
        if parent is not None:  # a branch that leaves the line of history at an earlier commit
            head = ctx.resolve_kind(parent, COMMITS, "repos", i, *path, "parent")
            if head not in written:
                raise ctx.error(
                    f"{parent} is not a commit of {repo.full_name} written before this one", "repos", i, *path, "parent"
                )
        at = ctx.start - (parse_duration(ago) if ago is not None else hours_before[k] * HOUR)
        person = repos.identity(account(ctx, author, owner, "repos", i, *path, "author"), at)
        if head is None and any(text is None for text in files.values()):
            raise ctx.error("the first commit of a repo cannot delete files", "repos", i, *path, "files")
        paths = [p for p, t in {**(commits.files(objects, head) if head else {}), **files}.items() if t is not None]
        blocked = git.clash(paths)
        if blocked is not None:
            raise ctx.error(f"{blocked} is a file, so it cannot also be a directory", "repos", i, *path, "files")
        record = commits.commit_changes(objects, repo.full_name, [head] if head else [], files, message, person, person)
        head = record["sha"]
        written.add(head)
        ctx.define(ref, head, COMMITS, "repos", i, *path)
    _heads[ctx][repo.full_name] = head


# -- pass 2 ------------------------------------------------------------------------------------------


def build_repo(ctx: BuildContext, repo: Repo, i: int) -> None:
    """The repo record, its branches and its labels."""
    records = Records.image(ctx)
    name = repo.full_name
    head = _heads[ctx][name]
    if head is not None:
        repos.set_ref(records, name, HEADS + repo.default_branch, head)
    for branch, value in repo.branches.items():
        sha = _commit_of(ctx, records, name, value, "repos", i, "branches", branch)
        repos.set_ref(records, name, HEADS + branch, sha)
    if repo.license is not None and repo.license not in LICENSES:
        raise ctx.error(f"unknown license {repo.license!r}; one of {', '.join(LICENSES)}", "repos", i, "license")
    production = head
    if repo.production is not None:
        production = _commit_of(ctx, records, name, repo.production, "repos", i, "production")
    pushed = commits.known(records.objects, head)["committer"]["at"] if head else ctx.start - 30 * DAY
    number = REPO_IDS + ctx.ids.next("github:repo")
    owner, short = name.split("/")
    ctx.collection(REPOS).add(
        name,
        {
            "id": number,
            "node_id": node_id("Repository", number),
            "name": short,
            "full_name": name,
            "owner": owner,
            "private": repo.private,
            "description": repo.description,
            "default_branch": repo.default_branch,
            "production": production,
            "deploy_on_merge": repo.deploy_on_merge,
            "license": repo.license,
            "topics": list(dict.fromkeys(repo.topics)),
            "created_at": ctx.start - 365 * DAY,
            "updated_at": pushed,
            "pushed_at": pushed,
        },
    )
    for k, label in enumerate(repo.labels):
        ctx.attempt(partial(_build_label, ctx, records, name, label, i, k), ref=label.ref)


def _commit_of(ctx: BuildContext, records: Records, repo: str, value: str, *path: str | int) -> str:
    """A commit ref (or sha) that must name a commit of `repo`."""
    sha = ctx.resolve_kind(value, COMMITS, *path)
    commit = commits.commit(records.objects, sha)
    if commit is None or commit["repository"] != repo:
        raise ctx.error(f"{value} is not a commit of {repo}", *path)
    return sha


def _build_label(ctx: BuildContext, records: Records, repo: str, label: Label, i: int, k: int) -> None:
    if label_key(repo, label.name) in ctx.collection(LABELS):
        raise ctx.error(f"label {label.name!r} is defined twice in {repo}", "repos", i, "labels", k)
    issues.create_label(records, repo, label.name, label.color, label.description)
    ctx.define(label.ref, label.name, LABELS, "repos", i, "labels", k)
