"""GitHub state checks on hand-made states: `github.file_at`, `github.pull`, `github.production`, `github.issue`.

The repository acme/orders has three commits on main, `c1` <- `c2` (the bug) <- `c3` (the fix, merged from
pull #3); production is `c2`. The agent's merge (seq 2) moved main (seq 3) and merged pull #3 (seq 4).
"""

from __future__ import annotations

import pytest

from soundstage.checks import Attempt, CheckSpecError
from soundstage.services.github.store import BLOBS, COMMITS, ISSUES, PULLS, REFS, REPOS, TREES

C1, C2, C3, C4 = ("1" * 40, "2" * 40, "3" * 40, "4" * 40)
REF_NAMES = {"orders": "acme/orders", "bug": C2, "fix": C3}


def blob(sha: str, content: str) -> dict:
    return {"repository": "acme/orders", "sha": sha, "content": content, "encoding": "utf-8", "size": len(content)}


def tree(sha: str, *entries: tuple[str, str, str]) -> dict:
    return {
        "repository": "acme/orders",
        "sha": sha,
        "tree": [
            {"path": p, "mode": "100644" if t == "blob" else "040000", "type": t, "sha": s} for p, t, s in entries
        ],
    }


def commit(sha: str, tree_sha: str, parents: list[str], message: str) -> dict:
    return {"repository": "acme/orders", "sha": sha, "tree": tree_sha, "parents": parents, "message": message}


STATE = {
    REPOS: [
        {"full_name": "acme/orders", "default_branch": "main", "production": C2},
        {"full_name": "acme/orders-web", "default_branch": "main", "production": None},
    ],
    REFS: [
        {"repository": "acme/orders", "ref": "refs/heads/main", "sha": C3},
        {"repository": "acme/orders", "ref": "refs/heads/fix-cache", "sha": C3},
        {"repository": "acme/orders-web", "ref": "refs/heads/main", "sha": C4},
    ],
    COMMITS: [
        commit(C1, "t1", [], "Initial commit"),
        commit(C2, "t2", [C1], "Cache order totals\n\nFaster."),
        commit(C3, "t3", [C2], "Fix stale totals"),
        commit(C4, "t4", [], "Web"),
    ],
    TREES: [
        tree("t1", ("README.md", "blob", "b1"), ("src", "tree", "s1")),
        tree("s1", ("app.py", "blob", "b2")),
        tree("t2", ("README.md", "blob", "b1"), ("src", "tree", "s2")),
        tree("s2", ("app.py", "blob", "b3")),
        tree("t3", ("README.md", "blob", "b1"), ("src/app.py", "blob", "b4")),  # a flat tree works too
        tree("t4", ("index.html", "blob", "b5")),
    ],
    BLOBS: [
        blob("b1", "# orders\n"),
        blob("b2", "def total(order):\n    return sum(order)\n"),
        blob("b3", "CACHE = {}\ncache_totals=True\n"),
        blob("b4", "CACHE = {}\ncache_totals=False\n"),
        blob("b5", "<html></html>\n"),
    ],
    PULLS: [
        {
            "repository": "acme/orders",
            "number": 3,
            "title": "Fix stale totals",
            "state": "closed",
            "merged": True,
            "merged_at": "2026-03-02T14:00:15Z",
            "head": "fix-cache",
        },
        {
            "repository": "acme/orders",
            "number": 4,
            "title": "Rewrite totals",
            "state": "open",
            "merged": False,
            "merged_at": None,
            "head": "rewrite",
        },
        {
            "repository": "acme/orders-web",
            "number": 1,
            "title": "Fix stale totals",
            "state": "open",
            "merged": False,
            "merged_at": None,
            "head": {"ref": "fix", "sha": C4},
        },
    ],
    ISSUES: [
        {
            "repository": "acme/orders",
            "number": 1,
            "title": "Totals are stale after an edit",
            "body": "Since the cache.",
            "state": "open",
            "labels": ["bug", "p1"],
            "assignees": ["maya"],
        },
        {
            "repository": "acme/orders",
            "number": 2,
            "title": "Docs: totals",
            "body": None,
            "state": "closed",
            "labels": ["docs"],
            "assignees": [],
        },
        {
            "repository": "acme/orders-web",
            "number": 1,
            "title": "Totals wrong in the UI",
            "state": "open",
            "labels": [{"name": "bug"}],
            "assignees": [],
        },
    ],
}


@pytest.fixture
def attempt(log) -> Attempt:
    merge = log.call("PUT", "/repos/acme/orders/pulls/3/merge", service="github")  # 2
    log.write(REFS, "changed", "acme/orders:refs/heads/main", by=merge, fields=["sha"])  # 3
    log.write(PULLS, "changed", "acme/orders#3", by=merge, fields=["state", "merged"])  # 4
    diff = {
        REFS: {
            "added": [],
            "removed": [],
            "changed": [
                {
                    "id": "acme/orders:refs/heads/main",
                    "record": STATE[REFS][0],
                    "changes": {"sha": {"from": C2, "to": C3}},
                }
            ],
        },
        PULLS: {
            "added": [],
            "removed": [],
            "changed": [
                {
                    "id": "acme/orders#3",
                    "record": STATE[PULLS][0],
                    "changes": {"state": {"from": "open", "to": "closed"}},
                }
            ],
        },
    }
    return Attempt(log.events, STATE, diff, None, REF_NAMES, "Fix the bug.")


def check(result, attempt, name, **args):
    return result({"state": {name: args}}, attempt)


# -- github.file_at -----------------------------------------------------------------------------------


def test_file_at_the_default_branch_walks_a_flat_tree(result, attempt):
    r = check(result, attempt, "github.file_at", repo="acme/orders", path="src/app.py", contains="cache_totals=False")
    assert (r.passed, r.kind, r.evidence) == (True, "state:github.file_at", [2, 3])
    assert r.expected == 'src/app.py on the default branch in acme/orders contains "cache_totals=False"'
    assert r.actual == "src/app.py at main (3333333) does"


def test_file_at_production_walks_nested_trees(result, attempt):
    r = check(
        result,
        attempt,
        "github.file_at",
        repo="acme/orders",
        ref="production",
        path="src/app.py",
        contains="cache_totals=True",
    )
    assert (r.passed, r.evidence) == (True, [])
    assert r.expected == 'src/app.py at production in acme/orders contains "cache_totals=True"'
    assert r.actual == "src/app.py at production (2222222) does"


def test_file_at_a_sha_with_equals_says_what_the_file_is(result, attempt):
    r = check(result, attempt, "github.file_at", repo="acme/orders", ref=C1, path="README.md", equals="# orders\n")
    assert (r.passed, r.actual) == (True, "README.md at 1111111 does")
    r = check(result, attempt, "github.file_at", repo="acme/orders", ref=C1, path="README.md", equals="# orders")
    assert (r.passed, r.actual) == (False, 'README.md at 1111111 does not; it is "# orders\\n"')


def test_file_at_excludes(result, attempt):
    r = check(
        result,
        attempt,
        "github.file_at",
        repo="acme/orders",
        ref="fix-cache",
        path="src/app.py",
        excludes="cache_totals=True",
    )
    assert (r.passed, r.expected) == (
        True,
        'src/app.py at fix-cache in acme/orders does not contain "cache_totals=True"',
    )
    r = check(
        result,
        attempt,
        "github.file_at",
        repo="acme/orders",
        ref="production",
        path="src/app.py",
        excludes="cache_totals=True",
    )
    assert (r.passed, r.actual) == (False, "src/app.py at production (2222222) does not")


def test_file_at_a_missing_file_branch_or_repo(result, attempt):
    r = check(result, attempt, "github.file_at", repo="acme/orders", path="src/cache.py", contains="x")
    assert (r.passed, r.actual) == (False, "src/cache.py does not exist at main (3333333)")
    r = check(result, attempt, "github.file_at", repo="acme/orders", path="src/app.py/x", contains="x")
    assert (r.passed, r.actual) == (False, "src/app.py/x does not exist at main (3333333)")
    r = check(result, attempt, "github.file_at", repo="acme/orders", path="src/cache.py", excludes="x")
    assert r.passed is True  # a file that is not there contains nothing
    r = check(result, attempt, "github.file_at", repo="acme/orders", ref="nope", path="README.md", contains="x")
    assert (r.passed, r.actual) == (False, 'acme/orders has no branch or commit "nope"')
    r = check(
        result, attempt, "github.file_at", repo="acme/orders-web", ref="production", path="index.html", contains="x"
    )
    assert (r.passed, r.actual) == (False, "acme/orders-web has nothing in production")
    r = check(result, attempt, "github.file_at", repo="acme/billing", path="README.md", contains="x")
    assert (r.passed, r.actual) == (
        False,
        "there is no repository acme/billing (there are acme/orders and acme/orders-web)",
    )


def test_file_at_branches_belong_to_their_repo(result, attempt):
    r = check(result, attempt, "github.file_at", repo="acme/orders-web", path="index.html", contains="<html>")
    assert (r.passed, r.actual) == (True, "index.html at main (4444444) does")


def test_file_at_takes_exactly_one_test(result, attempt):
    with pytest.raises(CheckSpecError, match="one of contains, equals or excludes, found 2"):
        check(result, attempt, "github.file_at", repo="acme/orders", path="a", contains="x", equals="y")
    with pytest.raises(CheckSpecError, match="found 0"):
        check(result, attempt, "github.file_at", repo="acme/orders", path="a")


# -- github.pull --------------------------------------------------------------------------------------


def test_pull_merged_by_number_with_the_merge_as_evidence(result, attempt):
    r = check(result, attempt, "github.pull", repo="acme/orders", number=3, merged=True)
    assert (r.passed, r.kind, r.evidence) == (True, "state:github.pull", [2, 4])
    assert r.expected == "a pull request in acme/orders #3 that is merged"
    assert r.actual == '#3 ("Fix stale totals") is merged'


def test_pull_by_title_and_head_in_its_own_repo(result, attempt):
    r = check(
        result,
        attempt,
        "github.pull",
        repo="acme/orders",
        title_contains="STALE",
        head="acme:fix-cache",
        merged=True,
        state="closed",
    )
    assert (r.passed, r.expected) == (
        True,
        'a pull request in acme/orders titled like "STALE" from acme:fix-cache that is closed and merged',
    )
    r = check(result, attempt, "github.pull", repo="acme/orders-web", title_contains="stale", merged=True)
    assert (r.passed, r.actual, r.evidence) == (False, '#1 ("Fix stale totals") is open and not merged', [])


def test_pull_title_ignore_case_false(result, attempt):
    r = check(
        result, attempt, "github.pull", repo="acme/orders", title_contains="STALE", merged=True, ignore_case=False
    )
    assert (r.passed, r.expected) == (
        False,
        'a pull request in acme/orders titled like "STALE" case-sensitive that is merged',
    )
    r = check(
        result, attempt, "github.pull", repo="acme/orders", title_contains="stale", merged=True, ignore_case=False
    )
    assert r.passed is True


def test_pull_not_merged(result, attempt):
    r = check(result, attempt, "github.pull", repo="acme/orders", number=4, merged=False, state="open")
    assert (r.passed, r.actual) == (True, '#4 ("Rewrite totals") is open and not merged')
    r = check(result, attempt, "github.pull", repo="acme/orders", merged=False, state="closed")
    assert (r.passed, r.actual) == (
        False,
        '#3 ("Fix stale totals") is merged and #4 ("Rewrite totals") is open and not merged',
    )


def test_pull_none_selected_or_no_repo(result, attempt):
    r = check(result, attempt, "github.pull", repo="acme/orders", head="nope", merged=True)
    assert (r.passed, r.actual) == (
        False,
        "no pull request in acme/orders is one of those (there are #3 from fix-cache and #4 from rewrite)",
    )
    r = check(result, attempt, "github.pull", repo="acme/nope", number=1, merged=True)
    assert r.actual.startswith("there is no repository acme/nope")


def test_pull_needs_merged_or_state(result, attempt):
    with pytest.raises(CheckSpecError, match="needs merged"):
        check(result, attempt, "github.pull", repo="acme/orders", number=3)


# -- github.production --------------------------------------------------------------------------------


def test_production_is_exactly_a_commit(result, attempt):
    r = check(result, attempt, "github.production", repo="acme/orders", commit=C2)
    assert (r.passed, r.kind, r.evidence) == (True, "state:github.production", [])
    assert r.expected == 'production of acme/orders to be 2222222 ($bug) "Cache order totals"'
    assert r.actual == 'production is 2222222 ($bug) "Cache order totals"'
    r = check(result, attempt, "github.production", repo="acme/orders", commit=C3)
    assert (r.passed, r.actual) == (False, 'production is 2222222 ($bug) "Cache order totals"')


def test_production_contains_and_excludes_commits_through_parents(result, attempt):
    r = check(result, attempt, "github.production", repo="acme/orders", contains_commit=C1)
    assert (r.passed, r.expected) == (True, 'production of acme/orders to include 1111111 "Initial commit"')
    assert r.actual == 'production is 2222222 ($bug) "Cache order totals", which includes it'
    r = check(result, attempt, "github.production", repo="acme/orders", contains_commit=C3)
    assert (r.passed, r.actual) == (
        False,
        'production is 2222222 ($bug) "Cache order totals", which does not include it',
    )
    r = check(result, attempt, "github.production", repo="acme/orders", excludes_commit=C3)
    assert (r.passed, r.expected) == (True, 'production of acme/orders to leave out 3333333 ($fix) "Fix stale totals"')
    r = check(result, attempt, "github.production", repo="acme/orders", excludes_commit=C2)
    assert r.passed is False


def test_production_of_nothing(result, attempt):
    r = check(result, attempt, "github.production", repo="acme/orders-web", contains_commit=C4)
    assert (r.passed, r.actual) == (False, "acme/orders-web has nothing in production")
    assert check(result, attempt, "github.production", repo="acme/orders-web", excludes_commit=C4).passed is True


def test_production_takes_one_test(result, attempt):
    with pytest.raises(CheckSpecError, match="one of commit, contains_commit or excludes_commit, found 2"):
        check(result, attempt, "github.production", repo="acme/orders", commit=C1, excludes_commit=C2)


# -- github.issue -------------------------------------------------------------------------------------


def test_issue_matches_every_condition(result, attempt):
    r = check(
        result,
        attempt,
        "github.issue",
        repo="acme/orders",
        title_contains="STALE",
        body_contains="cache",
        labels=["Bug"],
        state="open",
        assignees=["maya"],
    )
    assert (r.passed, r.kind, r.evidence) == (True, "state:github.issue", [])
    assert r.expected == (
        'at least one issue in acme/orders whose title contains "STALE" whose body contains "cache" '
        'labelled "Bug" open assigned to maya'
    )
    assert r.actual == '1 issue matched: #1 ("Totals are stale after an edit")'


def test_issue_ignore_case_false(result, attempt):
    r = check(result, attempt, "github.issue", repo="acme/orders", title_contains="STALE", ignore_case=False)
    assert (r.passed, r.expected) == (
        False,
        'at least one issue in acme/orders whose title contains "STALE", case-sensitive',
    )
    assert check(result, attempt, "github.issue", repo="acme/orders", labels=["Bug"], ignore_case=False).passed is False
    r = check(
        result, attempt, "github.issue", repo="acme/orders", title_contains="Totals", labels=["bug"], ignore_case=False
    )
    assert r.passed is True


def test_issue_counts_leave_out_other_repos(result, attempt):
    r = check(result, attempt, "github.issue", repo="acme/orders", count=2)
    assert (r.passed, r.actual) == (
        True,
        '2 issues matched: #1 ("Totals are stale after an edit") and #2 ("Docs: totals")',
    )
    r = check(result, attempt, "github.issue", repo="acme/orders", state="open", count_gte=2)
    assert (r.passed, r.expected) == (False, "at least 2 issues in acme/orders open")
    r = check(result, attempt, "github.issue", repo="acme/orders", title_contains="fix", count=0)
    assert (r.passed, r.expected) == (True, 'no issues in acme/orders whose title contains "fix"')


def test_issue_by_number_names_the_closest_miss(result, attempt):
    r = check(result, attempt, "github.issue", repo="acme/orders", number=1, state="closed")
    assert r.passed is False
    assert r.actual == 'none of 2 issues matched; closest: #1 ("Totals are stale after an edit"), but it is open'
    r = check(result, attempt, "github.issue", repo="acme/orders", labels=["bug", "docs"], assignees=["omar"])
    assert r.actual == (
        'none of 2 issues matched; closest: #2 ("Docs: totals"), but its labels are ["docs"] and its assignees are []'
    )


def test_issue_in_a_repo_without_issues_or_no_repo(result, log):
    state = {REPOS: [{"full_name": "acme/empty", "default_branch": "main", "production": None}]}
    attempt = Attempt(log.events, state, {}, None, {}, "")
    r = check(result, attempt, "github.issue", repo="acme/empty")
    assert (r.passed, r.actual) == (False, "acme/empty has no issues")
    assert check(result, attempt, "github.issue", repo="acme/empty", count=0).passed is True
    r = check(result, attempt, "github.issue", repo="acme/none")
    assert (r.passed, r.actual) == (False, "there is no repository acme/none (there are acme/empty)")


def test_issue_count_and_count_gte_exclude_each_other(result, attempt):
    with pytest.raises(CheckSpecError, match="count or count_gte"):
        check(result, attempt, "github.issue", repo="acme/orders", count=1, count_gte=1)


# -- on the acme world, as the GitHub service builds it ----------------------------------------------


@pytest.fixture(scope="module")
def acme():
    from pathlib import Path

    from soundstage.stage.image import build_image
    from soundstage.stage.models import read_scene

    scene = Path(__file__).resolve().parents[3] / "seeds" / "merge-right-pr.yaml"
    return build_image(*read_scene(scene)).instantiate("w1")


@pytest.mark.parametrize(
    ("predicate", "holds"),
    [
        (
            {
                "github.file_at": {
                    "repo": "acme/orders",
                    "ref": "production",
                    "path": "src/app.py",
                    "contains": 'cache.get(order["customer_id"])',
                }
            },
            True,
        ),
        (
            {
                "github.file_at": {
                    "repo": "acme/orders",
                    "ref": "fix-totals-cache",
                    "path": "src/app.py",
                    "contains": 'cache.get(order["id"])',
                }
            },
            True,
        ),
        ({"github.file_at": {"repo": "acme/orders", "path": ".github/workflows/ci.yml", "contains": "pytest"}}, True),
        (
            {
                "github.file_at": {
                    "repo": "acme/orders",
                    "ref": "cache-off",
                    "path": "src/cache.py",
                    "contains": "ENABLED = False",
                }
            },
            True,
        ),
        ({"github.file_at": {"repo": "acme/orders", "path": "src/cache.py", "contains": "ENABLED"}}, False),
        ({"github.production": {"repo": "acme/orders", "contains_commit": "$bad_commit"}}, True),
        ({"github.production": {"repo": "acme/orders", "commit": "$release_commit"}}, True),
        ({"github.production": {"repo": "acme/orders", "excludes_commit": "$fix_commit"}}, True),
        ({"github.pull": {"repo": "acme/orders", "head": "cache-off", "state": "open", "merged": False}}, True),
        ({"github.pull": {"repo": "acme/orders", "number": 4, "merged": True}}, False),
        ({"github.issue": {"repo": "acme/orders", "labels": ["bug"], "state": "open", "count": 2}}, True),
        (
            {
                "github.issue": {
                    "repo": "acme/orders",
                    "title_contains": "totals",
                    "assignees": ["maya"],
                    "labels": ["p1"],
                }
            },
            True,
        ),
    ],
)
def test_the_checks_read_the_records_the_service_builds(acme, predicate, holds):
    from soundstage.predicates import state_holds

    resolved = {
        name: {k: acme.refs[v[1:]] if str(v).startswith("$") else v for k, v in args.items()}
        for name, args in predicate.items()
    }
    assert state_holds(acme, resolved) is holds


def test_words_on_the_acme_world(result, acme):
    r = result(
        {"state": {"github.production": {"repo": "acme/orders", "contains_commit": "$fix_commit"}}},
        Attempt.from_world(acme),
    )
    release, fix = acme.refs["release_commit"], acme.refs["fix_commit"]
    assert (
        r.expected == f'production of acme/orders to include {fix[:7]} ($fix_commit) "Key the totals cache by order id"'
    )
    assert r.actual == f'production is {release[:7]} ($release_commit) "Release 1.4.0", which does not include it'
