"""GitHub's CLI, `gh`, left at github.com and reaching the merge-right-pr world through the interception
proxy (docs/gh.md): its GraphQL reads and writes, `gh pr diff`, `gh api`, and `gh repo clone` and
`gh pr checkout` over git. Needs the Debian package
`gh`; without it these tests skip, unless SOUNDSTAGE_TEST_GH=required, which `.ci/run` sets."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from soundstage.checks import score_custom
from soundstage.server import Server
from soundstage.services.github.store import COMMENTS, ISSUES, PULLS, REFS
from soundstage.world import World


def _installed() -> str:
    """The `gh` program; without it the tests skip, unless SOUNDSTAGE_TEST_GH=required (`.ci/run` installs it)."""
    found = shutil.which("gh")
    if found is None:
        if os.environ.get("SOUNDSTAGE_TEST_GH") == "required":
            pytest.fail("SOUNDSTAGE_TEST_GH=required, but gh is not installed")
        pytest.skip("gh is not installed (Debian: apt-get install gh)")
    return found


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(proxy_port=0) as running:
        yield running


class Gh:
    """`gh` run with exactly the agent's environment of one merge-right-pr world."""

    def __init__(self, program: str, server: Server, home: Path) -> None:
        self.world: World = server.hub.add(server.hub.images.load(scene="merge-right-pr"))
        agent = {k: str(v) for k, v in server.hub.environment(self.world, server.url).items()}
        self.program, self.home = program, home
        self.env = {
            **agent,
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "GH_HOST": "github.com",
            "GH_PROMPT_DISABLED": "1",
            "GH_NO_UPDATE_NOTIFIER": "1",
            "NO_COLOR": "1",
        }

    def __call__(self, *args: str, cwd: str = ".") -> str:
        done = subprocess.run(
            [self.program, *args],
            env=self.env,
            cwd=self.home / cwd,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def operations(self) -> list[str | None]:
        return [c.operation for c in self.world.log.calls()]

    def state(self, collection: str) -> dict[str, Any]:
        return {k: dict(v) for k, v in self.world[collection]._records.items()}


@pytest.fixture
def gh(server: Server, tmp_path: Path) -> Gh:
    return Gh(_installed(), server, tmp_path)


def test_the_agent_has_a_token_gh_takes(gh: Gh) -> None:
    assert gh.env["GH_TOKEN"] == gh.env["GITHUB_TOKEN"]


def test_lists_and_views(gh: Gh) -> None:
    assert gh("pr", "list", "-R", "acme/orders") == (
        "5\tFix wrong totals by turning the totals cache off\tcache-off\tOPEN\t2026-03-02 12:00:00 +0000 UTC\n"
        "4\tKey the totals cache by order id\tfix-totals-cache\tOPEN\t2026-03-02 10:00:00 +0000 UTC\n"
    )
    assert gh("issue", "list", "-R", "acme/orders") == (
        "3\tOPEN\tDocument the totals cache\tdocs\t2026-03-02 08:00:00 +0000 UTC\n"
        "2\tOPEN\tOrder search is case-sensitive\tbug\t2026-03-02 06:00:00 +0000 UTC\n"
        "1\tOPEN\tWrong order totals for customers with several orders\tbug, p1\t2026-03-02 04:00:00 +0000 UTC\n"
    )
    pull = gh("pr", "view", "4", "-R", "acme/orders")
    assert pull.split("--\n")[0] == (
        "title:\tKey the totals cache by order id\nstate:\tOPEN\nauthor:\tmaya\nlabels:\t\nassignees:\t\n"
        "reviewers:\t\nprojects:\t\nmilestone:\t\nnumber:\t4\nurl:\thttps://github.com/acme/orders/pull/4\n"
        "additions:\t10\ndeletions:\t3\n"
    )
    issue = gh("issue", "view", "1", "-R", "acme/orders")
    assert issue.split("--\n")[0] == (
        "title:\tWrong order totals for customers with several orders\nstate:\tOPEN\nauthor:\talex\n"
        "labels:\tbug, p1\ncomments:\t0\nassignees:\tmaya\nprojects:\t\nmilestone:\t1.5.0\nnumber:\t1\n"
    )
    assert gh("repo", "view", "acme/orders").startswith("name:\tacme/orders\ndescription:\tThe Acme orders API\n")
    assert gh.operations()[:5] == [
        "PullRequestList",
        "IssueList",
        "PullRequestByNumber",
        "IssueByNumber",
        "RepositoryInfo",
    ]


def test_diff_and_api(gh: Gh) -> None:
    diff = gh("pr", "diff", "4", "-R", "acme/orders")
    assert diff.startswith("diff --git a/")
    assert 'cache.get(order["id"])' in diff
    assert gh("api", "graphql", "-f", "query={viewer{login}}") == '{"data":{"viewer":{"login":"stagebot"}}}'
    assert gh("api", "repos/acme/orders", "--jq", ".default_branch") == "main\n"


def test_review_and_merge_the_fix(gh: Gh) -> None:
    gh("pr", "review", "4", "-R", "acme/orders", "--approve", "--body", "Keys the cache by order id")
    gh("pr", "comment", "5", "-R", "acme/orders", "--body", "Not merged: it turns the cache off")
    gh("pr", "merge", "4", "-R", "acme/orders", "--merge")
    pull = gh.state(PULLS)["acme/orders#4"]
    assert (pull["state"], pull["merged"], pull["merged_by"]) == ("closed", True, "stagebot")
    assert gh.state(PULLS)["acme/orders#5"]["merged"] is False
    assert [c["body"] for c in gh.state(COMMENTS).values() if c["number"] == 5] == [
        "Not merged: it turns the cache off"
    ]
    assert gh.operations()[-1] == "PullRequestMerge"
    verdict = score_custom(
        gh.world,
        [
            {
                "id": "merged",
                "state": {"github.pull": {"repo": "acme/orders", "head": "fix-totals-cache", "merged": True}},
            },
            {"id": "other", "state": {"github.pull": {"repo": "acme/orders", "head": "cache-off", "merged": False}}},
            {
                "id": "deployed",
                "state": {"github.production": {"repo": "acme/orders", "contains_commit": gh.world.refs["fix_commit"]}},
            },
            {
                "id": "closed",
                "state": {"github.issue": {"repo": "acme/orders", "number": 1, "state": "closed", "count": 1}},
            },
            {
                "id": "merged_with_gh",
                "trace": {"called": "github:POST /graphql", "with": {"operation": {"equals": "PullRequestMerge"}}},
            },
        ],
    )
    assert [(c.id, c.passed) for c in verdict.checks] == [
        ("merged", True),
        ("other", True),
        ("deployed", True),
        ("closed", True),
        ("merged_with_gh", True),
    ]
    assert gh("pr", "view", "4", "-R", "acme/orders").split("\n")[1] == "state:\tMERGED"


def test_clone_and_check_out_a_pull_request(gh: Gh) -> None:
    """`gh repo clone` and `gh pr checkout` run git against github.com: the world's git protocol."""
    gh("repo", "clone", "acme/orders")
    gh("pr", "checkout", "4", cwd="orders")
    head = gh.state(REFS)["acme/orders:refs/heads/fix-totals-cache"]["sha"]
    git = ["git", "-C", str(gh.home / "orders")]
    assert subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout == f"{head}\n"
    branch = subprocess.run([*git, "status", "-sb"], capture_output=True, text=True, check=True).stdout
    assert branch == "## fix-totals-cache...origin/fix-totals-cache\n"
    assert [o for o in gh.operations() if o and not o[0].isupper()] == ["git-upload-pack"] * 3


def test_issue_writes(gh: Gh) -> None:
    url = gh(
        "issue", "create", "-R", "acme/orders", "--title", "Totals slow", "--body", "Since 1.4.0", "--label", "bug"
    )
    number = max(int(key.split("#")[1]) for key in gh.state(ISSUES))
    assert url == f"https://github.com/acme/orders/issues/{number}\n"
    created = gh.state(ISSUES)[f"acme/orders#{number}"]
    assert (created["title"], created["body"], created["labels"], created["user"]) == (
        "Totals slow",
        "Since 1.4.0",
        ["bug"],
        "stagebot",
    )
    gh("issue", "comment", "2", "-R", "acme/orders", "--body", "Looking into it")
    gh("issue", "close", "2", "-R", "acme/orders")
    closed = gh.state(ISSUES)["acme/orders#2"]
    assert (closed["state"], closed["state_reason"], closed["closed_by"]) == ("closed", "completed", "stagebot")
    assert [c["body"] for c in gh.state(COMMENTS).values() if c["number"] == 2] == ["Looking into it"]
    gh("issue", "reopen", "2", "-R", "acme/orders")
    reopened = gh.state(ISSUES)["acme/orders#2"]
    assert (reopened["state"], reopened["state_reason"], reopened["closed_by"]) == ("open", "reopened", None)
    assert [o for o in gh.operations() if o and o[0].isupper()] == [
        "RepositoryInfo",
        "RepositoryResolveMetadataIDs",
        "IssueCreate",
        "IssueByNumber",
        "CommentCreate",
        "IssueByNumber",
        "IssueClose",
        "IssueByNumber",
        "IssueReopen",
    ]


def test_create_a_pull_request(gh: Gh) -> None:
    fix = gh.world.refs["fix_commit"]
    gh("api", "repos/acme/orders/git/refs", "-f", "ref=refs/heads/totals-again", "-f", f"sha={fix}")
    assert gh.state(REFS)["acme/orders:refs/heads/totals-again"]["sha"] == fix
    url = gh(
        "pr",
        "create",
        "-R",
        "acme/orders",
        "--head",
        "totals-again",
        "--base",
        "main",
        "--title",
        "Again",
        "--body",
        "Same fix",
    )
    number = max(int(key.split("#")[1]) for key in gh.state(PULLS))
    assert url == f"https://github.com/acme/orders/pull/{number}\n"
    pull = gh.state(PULLS)[f"acme/orders#{number}"]
    assert (pull["head"], pull["base"], pull["title"], pull["user"], pull["state"]) == (
        "totals-again",
        "main",
        "Again",
        "stagebot",
        "open",
    )


def test_filters_go_through_search(gh: Gh) -> None:
    assert gh("issue", "list", "-R", "acme/orders", "--label", "bug") == (
        "2\tOPEN\tOrder search is case-sensitive\tbug\t2026-03-02 06:00:00 +0000 UTC\n"
        "1\tOPEN\tWrong order totals for customers with several orders\tbug, p1\t2026-03-02 04:00:00 +0000 UTC\n"
    )
    assert gh("pr", "list", "-R", "acme/orders", "--author", "maya") == (
        "4\tKey the totals cache by order id\tfix-totals-cache\tOPEN\t2026-03-02 10:00:00 +0000 UTC\n"
    )
    assert "Created by you\n  You have no open pull requests\n" in gh("pr", "status", "-R", "acme/orders")
    assert gh.operations() == ["IssueSearch", "PullRequestSearch", "PullRequestStatus"]


def test_edit_close_and_reopen(gh: Gh) -> None:
    gh(
        "issue",
        "edit",
        "2",
        "-R",
        "acme/orders",
        "--title",
        "Search ignores case",
        "--add-label",
        "p1",
        "--add-assignee",
        "maya",
    )
    issue = gh.state(ISSUES)["acme/orders#2"]
    assert (issue["title"], issue["labels"], issue["assignees"]) == ("Search ignores case", ["bug", "p1"], ["maya"])
    gh("issue", "edit", "2", "-R", "acme/orders", "--remove-label", "bug")
    assert gh.state(ISSUES)["acme/orders#2"]["labels"] == ["p1"]
    gh("pr", "edit", "5", "-R", "acme/orders", "--body", "Superseded by #4")
    assert gh.state(PULLS)["acme/orders#5"]["body"] == "Superseded by #4"
    gh("pr", "close", "5", "-R", "acme/orders")
    assert gh.state(PULLS)["acme/orders#5"]["state"] == "closed"
    gh("pr", "reopen", "5", "-R", "acme/orders")
    assert gh.state(PULLS)["acme/orders#5"]["state"] == "open"
    writes = ("IssueUpdate", "LabelAdd", "LabelRemove", "PullRequestUpdate", "PullRequestClose", "PullRequestReopen")
    # gh sends an edit's mutations side by side: their order is not fixed.
    assert sorted(o for o in gh.operations() if o in writes) == sorted(writes)


def test_gh_with_gh_host_at_soundstage_as_github_enterprise(server: Server, tmp_path: Path) -> None:
    """No proxy: `GH_HOST` names soundstage's https port, and gh speaks GitHub Enterprise's layout to it
    (`/api/v3/...`, `/api/graphql`), the world found from the token."""
    program = _installed()
    world = server.hub.add(server.hub.images.load(scene="merge-right-pr"))
    agent = {k: str(v) for k, v in server.hub.environment(world, server.url).items()}
    assert server.hub.tls is not None
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "GH_HOST": f"localhost:{server.hub.tls.port}",
        "GH_ENTERPRISE_TOKEN": agent["GITHUB_TOKEN"],
        "SSL_CERT_FILE": agent["SSL_CERT_FILE"],
        "GH_PROMPT_DISABLED": "1",
        "GH_NO_UPDATE_NOTIFIER": "1",
        "NO_COLOR": "1",
    }

    def gh(*args: str) -> str:
        done = subprocess.run([program, *args], env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert gh("pr", "list", "-R", "acme/orders").startswith("5\tFix wrong totals by turning the totals cache off")
    assert gh("api", "repos/acme/orders", "--jq", ".url") == (
        f"https://localhost:{server.hub.tls.port}/api/v3/repos/acme/orders\n"  # links as Enterprise gives them
    )
    gh("pr", "merge", "4", "-R", "acme/orders", "--merge")
    assert world["github.pulls"].get("acme/orders#4")["merged"] is True
    assert [c.operation for c in world.log.calls() if c.path == "/graphql"][-1] == "PullRequestMerge"


def test_checks_commits_runs_and_releases(gh: Gh) -> None:
    """What gh 2.23 asks beyond issues and pulls: `isRequired` of each check, `Commit.authors`, the workflows
    a run list is named by, and `Repository.releases`."""
    pull = gh.world.refs["fix_commit"]
    assert gh("pr", "checks", "4", "-R", "acme/orders") == (
        "build\tpass\t1m30s\thttps://github.com/acme/orders/actions/runs/13000000002/job/38000000002\n"
    )
    assert json.loads(gh("pr", "view", "4", "-R", "acme/orders", "--json", "commits")) == {
        "commits": [
            {
                "authoredDate": "2026-03-02T12:00:00Z",
                "authors": [
                    {"email": "maya@acme.test", "id": "MDQ6VXNlcjkwMDAwMDAy", "login": "maya", "name": "Maya Chen"}
                ],
                "committedDate": "2026-03-02T12:00:00Z",
                "messageBody": "",
                "messageHeadline": "Key the totals cache by order id",
                "oid": pull,
            }
        ]
    }
    assert gh("run", "list", "-R", "acme/orders") == (
        "completed\tsuccess\tTurn the totals cache off\tCI\tcache-off\tpush\t13000000003\t1m30s\tMar  2, 2026\n"
        "completed\tsuccess\tKey the totals cache by order id\tCI\tfix-totals-cache\tpush\t13000000002\t1m30s\t"
        "Mar  2, 2026\n"
        "completed\tsuccess\tRelease 1.4.0\tCI\tmain\tpush\t13000000001\t1m30s\tMar  2, 2026\n"
    )
    assert gh("release", "list", "-R", "acme/orders") == (
        "1.4.0\tLatest\tv1.4.0\t2026-02-28T14:00:00Z\n1.3.0\t\tv1.3.0\t2026-02-21T14:00:00Z\n"
    )
    assert [c.operation for c in gh.world.log.calls()] == [
        "PullRequestByNumber",
        "PullRequestStatusChecks",
        "PullRequestByNumber",
        "GET /repos/{owner}/{repo}/actions/runs",
        "GET /repos/{owner}/{repo}/actions/workflows",
        "RepositoryReleaseList",
    ]
