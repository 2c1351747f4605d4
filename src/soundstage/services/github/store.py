"""The names of GitHub's collections and the shapes of their keys: what the rest of the engine (checks,
faults, tests) reads GitHub state by. docs/services/github.md lists every collection's fields.

Accounts, repos and refs: `github.users` (by login), `github.repos` (by "owner/repo": `default_branch`,
`production`, `deploy_on_merge`...), `github.refs` (by "owner/repo:refs/heads/x": `repository`, `ref`,
`sha`). Git objects, by sha: `github.blobs`, `github.trees`, `github.commits`, `github.tags` (annotated
tags). Issues and pull requests (by "owner/repo#N", one number sequence per repo) and `github.labels` (by
"owner/repo:name"). The rest are keyed by their numeric id: comments, reviews and review comments,
deployments and their statuses, releases, workflow runs, check runs and commit statuses.
"""

from __future__ import annotations

from ..base import Address, State, names_by_field

USERS = "github.users"
REPOS = "github.repos"
REFS = "github.refs"
BLOBS = "github.blobs"
TREES = "github.trees"
COMMITS = "github.commits"
TAG_OBJECTS = "github.tags"
ISSUES = "github.issues"
PULLS = "github.pulls"
LABELS = "github.labels"
COMMENTS = "github.comments"
REVIEWS = "github.reviews"
REVIEW_COMMENTS = "github.review_comments"
DEPLOYMENTS = "github.deployments"
DEPLOYMENT_STATUSES = "github.deployment_statuses"
RELEASES = "github.releases"
WORKFLOW_RUNS = "github.workflow_runs"
CHECK_RUNS = "github.check_runs"
STATUSES = "github.statuses"
ISSUE_EVENTS = "github.issue_events"
REACTIONS = "github.reactions"
MILESTONES = "github.milestones"
ISSUE_TYPES = "github.issue_types"

# The field naming the records that requests name by numeric id (most are named by login, repo or number).
NAMED = {
    USERS: "login",
    REPOS: "full_name",
    RELEASES: "name",
    WORKFLOW_RUNS: "display_title",
    CHECK_RUNS: "name",
    MILESTONES: "title",
}

HEADS = "refs/heads/"
TAGS = "refs/tags/"


def record_names(state: State) -> dict[str, str]:
    """Accounts, repos, releases, workflow runs, check runs and milestones by id, named; and issues and pull
    requests by the node id GraphQL names them by, as `acme/orders#12: its title`."""
    threads = {
        str(record["node_id"]): f"{record['repository']}#{record['number']}: {record['title']}"
        for collection in (ISSUES, PULLS)
        for record in state.get(collection, ())
        if record.get("node_id")
    }
    return {**names_by_field(state, NAMED), **threads}


def ref_key(repo: str, ref: str) -> str:
    """A `github.refs` key: `ref_key("acme/orders", "refs/heads/main")`."""
    return f"{repo}:{ref}"


def item_key(repo: str, number: int) -> str:
    """A `github.issues` or `github.pulls` key: "owner/repo#N"."""
    return f"{repo}#{number}"


def label_key(repo: str, name: str) -> str:
    """A `github.labels` key: label names are unique in a repo regardless of case."""
    return f"{repo}:{name.lower()}"


def addresses(collections: State) -> list[Address]:
    """The accounts of users with a public email (`Service.addresses`), named; a `$ref` to one names its login."""
    return [
        Address(user["email"], user.get("name") or user["login"], None, (user["login"],))
        for user in collections.get(USERS, ())
        if user.get("email") and user["type"] == "User"
    ]
