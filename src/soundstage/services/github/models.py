"""The `github:` section of world and scene files (docs/services/github.md shows one).

Values that name other records are refs (`$maya_gh`) or plain values (a login, a commit sha); they are
resolved when the image is built, so these models only check shapes. Issues and pulls are modelled
here so the file format is complete; `seed_issues` builds their records.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ...spec.fields import Duration, Spec, matching


class User(Spec):
    ref: str | None = None
    login: str
    name: str | None = None
    email: str | None = None
    type: Literal["User", "Bot", "Organization"] = "User"


class Commit(Spec):
    ref: str | None = None
    message: str
    author: str | None = None  # a user ref or login; default: the repo owner
    files: dict[str, str | None] = {}  # path -> new text, or null to delete
    ago: str | None = None  # how long before the clock start it was made
    parent: str | None = None  # a commit of the repo written earlier (ref or sha); default: the previous one


class Label(Spec):
    ref: str | None = None
    name: str
    color: Annotated[str, matching(r"[0-9a-fA-F]{6}", "a 6-digit hex colour like d73a4a")] = "ededed"
    description: str | None = None


class Milestone(Spec):
    ref: str | None = None
    title: str
    description: str | None = None
    state: Literal["open", "closed"] = "open"
    due_in: Duration | None = None  # how long after the clock start it is due; default: no due date
    creator: str | None = None  # a user ref or login; default: the repo owner


class Issue(Spec):
    ref: str | None = None
    title: str
    body: str | None = None
    labels: list[str] = []
    state: Literal["open", "closed"] = "open"
    assignees: list[str] = []
    user: str | None = None
    milestone: str | None = None  # a milestone's title or ref
    type: Literal["Task", "Bug", "Feature"] | None = None  # an organization's issue type
    ago: Duration | None = None  # when it was opened, before the clock start; default: two hours apart
    updated_ago: Duration | None = None  # when it last changed; default: its last event
    closed_ago: Duration | None = None  # a closed one: when; default: an hour after it was opened


class Pull(Spec):
    ref: str | None = None
    title: str
    body: str | None = None
    head: str  # a branch of the repo
    base: str | None = None  # default: the repo's default branch
    user: str | None = None
    state: Literal["open", "closed"] = "open"
    merged: bool = False
    milestone: str | None = None  # a milestone's title or ref
    ago: Duration | None = None  # when it was opened, before the clock start; default: two hours apart
    updated_ago: Duration | None = None  # when it last changed; default: its last event
    closed_ago: Duration | None = None  # a closed or merged one: when; default: an hour after it was opened


class Repo(Spec):
    ref: str | None = None
    full_name: Annotated[str, matching(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", "owner/name like acme/orders")]
    description: str | None = None
    private: bool = False
    default_branch: str = "main"
    files: dict[str, str] = Field(default_factory=dict)  # the first commit
    commits: list[Commit] = []
    branches: dict[str, str] = {}  # name -> commit ref or sha
    production: str | None = None  # commit ref or sha; default: the default branch's head
    deploy_on_merge: bool = False
    license: str | None = None  # an SPDX id GitHub detects (`MIT`, `Apache-2.0`...; licenses.LICENSES)
    topics: list[Annotated[str, matching(r"[a-z0-9][a-z0-9-]{0,49}", "a topic like orders-api")]] = []
    labels: list[Label] = []
    milestones: list[Milestone] = []
    issues: list[Issue] = []
    pulls: list[Pull] = []
    releases: list[Release] = []
    runs: list[Run] = []


class Release(Spec):
    ref: str | None = None
    tag_name: str
    target: str | None = None  # a commit ref, sha or branch; default: the default branch
    name: str | None = None  # default: the tag
    body: str | None = None
    draft: bool = False
    prerelease: bool = False
    author: str | None = None  # a user ref or login; default: the repo owner
    ago: Duration | None = None  # how long before the clock start it was published; default: a day apart


class Flaky(Spec):
    passes_on_attempt: Annotated[int, Field(ge=2)]  # the attempt (a rerun's number) from which the job passes
    log: str | None = None  # the log of a passing attempt; default: one line saying it passed


class Run(Spec):
    ref: str | None = None
    branch: str  # a branch of the repo
    commit: str | None = None  # a commit ref or sha; default: the branch's head
    workflow: str = "CI"  # the workflow's name (its file: .github/workflows/<name lower case>.yml)
    job: str = "build"  # the run's one job (and check run)
    event: Literal["push", "pull_request"] = "push"
    conclusion: Literal["success", "failure", "cancelled", "timed_out"] = "success"
    log: str | None = None  # the job's log; default: one line saying how it ended
    actor: str | None = None  # a user ref or login; default: the commit's author
    ago: Duration | None = None  # when it ran, before the clock start; default: a minute after the commit
    flaky: Flaky | None = None  # a failure that a rerun turns into a pass


class GithubSection(Spec):
    users: list[User] = []
    repos: list[Repo] = []
