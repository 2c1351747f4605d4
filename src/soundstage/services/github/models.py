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


class GithubSection(Spec):
    users: list[User] = []
    repos: list[Repo] = []
