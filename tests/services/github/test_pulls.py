"""Pull requests on the acme world: #4 (fix-totals-cache, "Fixes #1") and #5 (cache-off, on top of #4),
through githubkit, PyGithub and raw HTTP."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from soundstage.services.github.store import (
    COMMITS,
    ISSUES,
    LABELS,
    PULLS,
    REFS,
    REPOS,
    REVIEW_COMMENTS,
    USERS,
    label_key,
)

from .conftest import GitHubWorld


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def ref(world: GitHubWorld, name: str) -> str:
    return world.live.world.refs[name]


def branch(world: GitHubWorld, name: str) -> str:
    return world.live.world[REFS].get(f"acme/orders:refs/heads/{name}")["sha"]


def conflicting_branch(world: GitHubWorld) -> Any:
    """A branch off main that rewrites the line pull #4 changes; answers the PyGithub repo."""
    repo = world.py().get_repo("acme/orders")
    repo.create_git_ref("refs/heads/conflict", ref(world, "release_commit"))
    current = repo.get_contents("src/app.py", ref="conflict")
    text = current.decoded_content.decode().replace('cache.get(order["customer_id"])', "cache.get(None)")
    repo.update_file("src/app.py", "Break the cache key", text, current.sha, branch="conflict")
    return repo


def test_list_and_filter(acme: GitHubWorld) -> None:
    kit = acme.kit()

    def listed(**params: Any) -> list[int]:
        return [p.number for p in kit.rest.pulls.list("acme", "orders", **params).parsed_data]

    assert listed() == [5, 4]
    assert listed(head="acme:cache-off") == [5]
    assert listed(head="other:cache-off") == []
    assert listed(base="main", direction="asc") == [4, 5]
    assert listed(state="closed") == []
    first = kit.rest.pulls.list("acme", "orders").parsed_data[1]
    assert (first.head.ref, first.head.label, first.base.ref) == ("fix-totals-cache", "acme:fix-totals-cache", "main")


def test_listing_shows_every_change_to_what_it_embeds(acme: GitHubWorld) -> None:
    """A listing reuses what it rendered while nothing it shows has changed: each change below, to the pull or
    to a record it embeds, shows in the very next listing."""
    world = acme.live.world

    def pull_4() -> dict[str, Any]:
        answer = acme.raw("GET", "/repos/acme/orders/pulls")
        assert answer.status_code == 200
        return next(p for p in answer.json() if p["number"] == 4)

    first = pull_4()
    assert pull_4() == first
    assert acme.raw("POST", "/repos/acme/orders/labels", json={"name": "cache", "color": "ededed"}).status_code == 201
    assert acme.raw("POST", "/repos/acme/orders/issues/4/labels", json={"labels": ["cache"]}).status_code == 200
    assert [(x["name"], x["description"]) for x in pull_4()["labels"]] == [("cache", None)]
    world[LABELS].change(label_key("acme/orders", "cache"), description="Caches and their keys", color="0e8a16")
    assert [(x["name"], x["description"], x["color"]) for x in pull_4()["labels"]] == [
        ("cache", "Caches and their keys", "0e8a16")
    ]
    world[REPOS].change("acme/orders", description="Orders, totals and their cache")
    shown = pull_4()
    assert (
        shown["head"]["repo"]["description"] == shown["base"]["repo"]["description"] == "Orders, totals and their cache"
    )
    count = shown["base"]["repo"]["open_issues_count"]
    assert acme.raw("PATCH", "/repos/acme/orders/issues/1", json={"state": "closed"}).status_code == 200
    assert pull_4()["base"]["repo"]["open_issues_count"] == count - 1
    world[USERS].change("maya", type="Organization")
    assert pull_4()["user"]["type"] == "Organization"
    assert acme.raw("POST", "/repos/acme/orders/issues/4/assignees", json={"assignees": ["maya"]}).status_code == 201
    assert [u["login"] for u in pull_4()["assignees"]] == ["maya"]
    assert acme.raw("PATCH", "/repos/acme/orders/pulls/4", json={"title": "Key the cache by order"}).status_code == 200
    assert pull_4()["title"] == "Key the cache by order"


def test_get_pull(acme: GitHubWorld) -> None:
    kit = acme.kit()
    pull = kit.rest.pulls.get("acme", "orders", 4).parsed_data
    assert pull.title == "Key the totals cache by order id"
    assert pull.user.login == "maya"
    assert (pull.state, pull.merged, pull.mergeable, pull.mergeable_state) == ("open", False, True, "clean")
    assert pull.head.sha == ref(acme, "fix_commit")
    assert pull.base.sha == ref(acme, "release_commit")
    assert pull.head.repo.full_name == "acme/orders"
    assert (pull.commits, pull.changed_files) == (1, 2)
    assert pull.merged_by is None
    assert acme.raw("GET", "/repos/acme/orders/pulls/4").json()["merge_commit_sha"] is None
    assert pull.url == f"{acme.url}/repos/acme/orders/pulls/4"
    assert pull.links.statuses.href == f"{acme.url}/repos/acme/orders/statuses/{ref(acme, 'fix_commit')}"
    files = kit.rest.pulls.list_files("acme", "orders", 4).parsed_data
    assert [(f.filename, f.status) for f in files] == [("src/app.py", "modified"), ("tests/test_app.py", "modified")]
    assert pull.additions == sum(f.additions for f in files)
    assert pull.deletions == sum(f.deletions for f in files)
    assert kit.rest.pulls.get("acme", "orders", 5).parsed_data.commits == 2


def test_files_and_commits_with_pygithub(acme: GitHubWorld) -> None:
    pull = acme.py().get_repo("acme/orders").get_pull(5)
    assert [c.sha for c in pull.get_commits()] == [ref(acme, "fix_commit"), ref(acme, "cache_off_commit")]
    assert [f.filename for f in pull.get_files()] == ["src/app.py", "src/cache.py", "tests/test_app.py"]
    assert pull.get_files().totalCount == 3


def test_create_pull(acme: GitHubWorld) -> None:
    repo = acme.py().get_repo("acme/orders")
    repo.create_git_ref("refs/heads/search-case", ref(acme, "fix_commit"))
    pull = repo.create_pull(base="main", head="search-case", title="Ignore case in search", body="Fixes #2", draft=True)
    assert pull.number == 6
    assert (pull.head.ref, pull.base.ref, pull.draft, pull.mergeable_state) == ("search-case", "main", True, "draft")
    assert pull.created_at == datetime(2026, 3, 2, 14, 0, 10, tzinfo=UTC)
    record = acme.state(PULLS)["acme/orders#6"]
    assert (record["head"], record["base"], record["body"], record["state"]) == (
        "search-case",
        "main",
        "Fixes #2",
        "open",
    )


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (
            {"head": "fix-totals-cache", "base": "main"},
            {"resource": "PullRequest", "code": "missing_field", "field": "title"},
        ),
        (
            {"title": "t", "head": "nope", "base": "main"},
            {"resource": "PullRequest", "field": "head", "code": "invalid"},
        ),
        (
            {"title": "t", "head": "cache-off", "base": "nope"},
            {"resource": "PullRequest", "field": "base", "code": "invalid"},
        ),
        (
            {"title": "t", "head": "main", "base": "main"},
            {"resource": "PullRequest", "code": "custom", "message": "No commits between main and main"},
        ),
        (
            {"title": "t", "head": "acme:fix-totals-cache", "base": "main"},
            {
                "resource": "PullRequest",
                "code": "custom",
                "message": "A pull request already exists for acme:fix-totals-cache.",
            },
        ),
    ],
)
def test_create_pull_errors(acme: GitHubWorld, body: dict[str, Any], error: dict[str, Any]) -> None:
    response = acme.raw("POST", "/repos/acme/orders/pulls", json=body)
    assert response.status_code == 422
    assert response.json() == {
        "message": "Validation Failed",
        "errors": [error],
        "documentation_url": "https://docs.github.com/rest",
        "status": "422",
    }
    assert "acme/orders#6" not in acme.state(PULLS)


def test_merge_closes_issue_and_deploys(acme: GitHubWorld) -> None:
    pull = acme.py().get_repo("acme/orders").get_pull(4)
    status = pull.merge(merge_method="merge", sha=ref(acme, "fix_commit"))
    assert (status.merged, status.message) == (True, "Pull Request successfully merged")
    main = branch(acme, "main")
    assert status.sha == main
    commit = acme.live.world[COMMITS].get(main)
    assert commit["parents"] == [ref(acme, "release_commit"), ref(acme, "fix_commit")]
    assert commit["message"] == "Merge pull request #4 from acme/fix-totals-cache\n\nKey the totals cache by order id"
    assert pull.is_merged() is True
    assert acme.py().get_repo("acme/orders").get_pull(5).is_merged() is False
    record = acme.state(PULLS)["acme/orders#4"]
    assert (record["state"], record["merged"], record["merged_by"], record["merge_commit_sha"]) == (
        "closed",
        True,
        "stagebot",
        main,
    )
    issue = acme.state(ISSUES)["acme/orders#1"]
    assert (issue["state"], issue["state_reason"], issue["closed_by"]) == ("closed", "completed", "stagebot")
    assert acme.state(ISSUES)["acme/orders#2"]["state"] == "open"
    assert acme.state(REPOS)["acme/orders"]["production"] == main
    kit = acme.kit()
    deployments = kit.rest.repos.list_deployments("acme", "orders").parsed_data
    assert [(d.sha, d.ref, d.environment, d.creator.login) for d in deployments] == [
        (main, "main", "production", "stagebot")
    ]
    statuses = kit.rest.repos.list_deployment_statuses("acme", "orders", deployments[0].id).parsed_data
    assert [s.state for s in statuses] == ["success"]
    merged = kit.rest.pulls.get("acme", "orders", 4).parsed_data
    assert (merged.merged, merged.mergeable, merged.mergeable_state, merged.merged_by.login) == (
        True,
        None,
        "unknown",
        "stagebot",
    )
    assert merged.base.sha == ref(acme, "release_commit") and merged.head.sha == ref(acme, "fix_commit")
    assert [f.filename for f in kit.rest.pulls.list_files("acme", "orders", 4).parsed_data] == [
        "src/app.py",
        "tests/test_app.py",
    ]
    again = acme.raw("PUT", "/repos/acme/orders/pulls/4/merge", json={})
    assert (again.status_code, again.json()["message"]) == (405, "Pull Request is not mergeable")


def test_squash_and_rebase(stage: Any) -> None:
    squash = GitHubWorld(stage.world(scene="merge-right-pr"))
    kit = squash.kit()
    result = kit.rest.pulls.merge("acme", "orders", 5, data={"merge_method": "squash"}).parsed_data
    commit = squash.live.world[COMMITS].get(result.sha)
    assert commit["parents"] == [ref(squash, "release_commit")]
    assert commit["message"].startswith(
        "Fix wrong totals by turning the totals cache off (#5)\n\n* Key the totals cache"
    )
    assert commit["author"]["email"] == "omar@acme.test"
    head = squash.live.world[COMMITS].get(ref(squash, "cache_off_commit"))
    assert commit["tree"] == head["tree"]  # the squashed tree is the head's tree

    rebase = GitHubWorld(stage.world(scene="merge-right-pr"))
    kit = rebase.kit()
    result = kit.rest.pulls.merge("acme", "orders", 5, data={"merge_method": "rebase"}).parsed_data
    top = rebase.live.world[COMMITS].get(result.sha)
    below = rebase.live.world[COMMITS].get(top["parents"][0])
    assert (below["message"], below["parents"]) == ("Key the totals cache by order id", [ref(rebase, "release_commit")])
    assert top["message"] == rebase.live.world[COMMITS].get(ref(rebase, "cache_off_commit"))["message"]
    assert top["committer"]["email"] == "stagebot@acme.test"


def test_merge_conflict_and_stale_head(acme: GitHubWorld) -> None:
    repo = conflicting_branch(acme)
    conflict = repo.create_pull(base="main", head="conflict", title="Break the cache key", body="")
    assert conflict.mergeable is True
    stale = acme.raw("PUT", "/repos/acme/orders/pulls/4/merge", json={"sha": ref(acme, "release_commit")})
    assert stale.status_code == 409
    assert stale.json() == {
        "message": "Head branch was modified. Review and try the merge again.",
        "documentation_url": "https://docs.github.com/rest/pulls/pulls#merge-a-pull-request",
        "status": "409",
    }
    kit = acme.kit()
    kit.rest.pulls.merge("acme", "orders", 4)
    before = branch(acme, "main")
    refused = acme.raw("PUT", f"/repos/acme/orders/pulls/{conflict.number}/merge", json={"merge_method": "squash"})
    assert (refused.status_code, refused.json()["message"]) == (405, "Pull Request is not mergeable")
    assert branch(acme, "main") == before
    seen = kit.rest.pulls.get("acme", "orders", conflict.number).parsed_data
    assert (seen.mergeable, seen.mergeable_state) == (False, "dirty")
    bad = acme.raw("PUT", "/repos/acme/orders/pulls/5/merge", json={"merge_method": "fast-forward"})
    assert bad.status_code == 422
    assert (
        bad.json()["message"] == 'Invalid request.\n\n"fast-forward" is not a member of ["merge", "squash", "rebase"].'
    )


def test_merge_status_of_unknown_and_unmerged(acme: GitHubWorld) -> None:
    assert acme.raw("GET", "/repos/acme/orders/pulls/5/merge").status_code == 404
    assert acme.raw("GET", "/repos/acme/orders/pulls/1").status_code == 404  # an issue, not a pull
    assert acme.raw("GET", "/repos/acme/orders/pulls/77/files").status_code == 404


def test_update_close_and_reopen(acme: GitHubWorld) -> None:
    pull = acme.py().get_repo("acme/orders").get_pull(5)
    pull.edit(title="Turn the totals cache off", state="closed")
    assert (pull.title, pull.state, pull.merged) == ("Turn the totals cache off", "closed", False)
    record = acme.state(PULLS)["acme/orders#5"]
    assert (record["head_sha"], record["closed_at"]) == (
        ref(acme, "cache_off_commit"),
        pull.closed_at.timestamp() * 1_000_000,
    )
    assert acme.raw("PUT", "/repos/acme/orders/pulls/5/merge").status_code == 405
    pull.edit(state="open")
    assert pull.state == "open" and pull.closed_at is None
    kit = acme.kit()
    merged = kit.rest.pulls.merge("acme", "orders", 4)
    assert merged.parsed_data.merged is True
    reopen = acme.raw("PATCH", "/repos/acme/orders/pulls/4", json={"state": "open"})
    assert reopen.status_code == 422


def test_reviews(acme: GitHubWorld) -> None:
    kit = acme.kit()
    head = ref(acme, "fix_commit")
    approved = kit.rest.pulls.create_review(
        "acme", "orders", 4, data={"event": "APPROVE", "body": "Looks right"}
    ).parsed_data
    assert (approved.state, approved.body, approved.commit_id, approved.user.login) == (
        "APPROVED",
        "Looks right",
        head,
        "stagebot",
    )
    assert approved.html_url == f"https://github.com/acme/orders/pull/4#pullrequestreview-{approved.id}"
    commented = kit.rest.pulls.create_review(
        "acme",
        "orders",
        5,
        data={"event": "COMMENT", "body": "", "comments": [{"path": "src/app.py", "line": 17, "body": "Why off?"}]},
    ).parsed_data
    assert commented.state == "COMMENTED"
    pending = kit.rest.pulls.create_review("acme", "orders", 5, data={"body": "draft"}).parsed_data
    assert (pending.state, pending.submitted_at) == ("PENDING", None)
    assert [r.state for r in kit.rest.pulls.list_reviews("acme", "orders", 5).parsed_data] == ["COMMENTED", "PENDING"]
    comments = kit.rest.pulls.list_review_comments("acme", "orders", 5).parsed_data
    assert [(c.path, c.line, c.body, c.pull_request_review_id) for c in comments] == [
        ("src/app.py", 17, "Why off?", commented.id)
    ]
    no_body = acme.raw("POST", "/repos/acme/orders/pulls/5/reviews", json={"event": "REQUEST_CHANGES"})
    assert no_body.status_code == 422
    bad = acme.raw("POST", "/repos/acme/orders/pulls/5/reviews", json={"event": "LGTM"})
    assert bad.json()["errors"] == [{"resource": "PullRequestReview", "code": "invalid", "field": "event"}]
    for event in (["APPROVE"], {"a": 1}):  # looked up in a dict: unhashable, a 500
        bad = acme.raw("POST", "/repos/acme/orders/pulls/5/reviews", json={"event": event})
        assert (bad.status_code, bad.json()["errors"]) == (
            422,
            [{"resource": "PullRequestReview", "code": "invalid", "field": "event"}],
        )


def test_get_a_review(acme: GitHubWorld) -> None:
    kit = acme.kit()
    made = kit.rest.pulls.create_review("acme", "orders", 4, data={"event": "COMMENT", "body": "Noted"}).parsed_data
    got = kit.rest.pulls.get_review("acme", "orders", 4, made.id).parsed_data
    assert (got.id, got.state, got.body, got.user.login) == (made.id, "COMMENTED", "Noted", "stagebot")
    assert acme.py().get_repo("acme/orders").get_pull(4).get_review(made.id).body == "Noted"
    docs = "https://docs.github.com/rest/pulls/reviews#get-a-review-for-a-pull-request"
    for path in (f"/repos/acme/orders/pulls/5/reviews/{made.id}", "/repos/acme/orders/pulls/4/reviews/1"):
        r = acme.raw("GET", path)
        assert (r.status_code, r.json()) == (404, {"message": "Not Found", "documentation_url": docs, "status": "404"})
    full = acme.raw(
        "GET", f"/repos/acme/orders/pulls/4/reviews/{made.id}", headers={"Accept": "application/vnd.github.full+json"}
    )
    assert (full.json()["body_text"], full.json()["body_html"]) == ("Noted", '<p dir="auto">Noted</p>')


def test_own_pull_cannot_be_approved(acme: GitHubWorld) -> None:
    repo = acme.py().get_repo("acme/orders")
    repo.create_git_ref("refs/heads/mine", ref(acme, "fix_commit"))
    mine = repo.create_pull(base="main", head="mine", title="Mine", body="")
    response = acme.raw("POST", f"/repos/acme/orders/pulls/{mine.number}/reviews", json={"event": "APPROVE"})
    assert response.status_code == 422
    assert response.json()["errors"] == ["Review Can not approve your own pull request"]


def test_review_comments_with_pygithub(acme: GitHubWorld) -> None:
    repo = acme.py().get_repo("acme/orders")
    pull = repo.get_pull(4)
    commit = repo.get_commit(ref(acme, "fix_commit"))
    comment = pull.create_review_comment("Cache key looks right", commit, "src/app.py", line=17, side="RIGHT")
    assert (comment.body, comment.path, comment.line, comment.user.login) == (
        "Cache key looks right",
        "src/app.py",
        17,
        "stagebot",
    )
    reply = pull.create_review_comment_reply(comment.id, "Agreed")
    assert (reply.in_reply_to_id, reply.path) == (comment.id, "src/app.py")
    assert [c.body for c in pull.get_review_comments()] == ["Cache key looks right", "Agreed"]
    assert pull.review_comments == 0  # read before the comments were made
    assert repo.get_pull(4).review_comments == 2


def test_same_merges_same_shas(stage: Any) -> None:
    def run() -> tuple[Any, ...]:
        world = GitHubWorld(stage.world(scene="merge-right-pr"))
        kit = world.kit()
        squash = kit.rest.pulls.merge("acme", "orders", 4, data={"merge_method": "squash"}).parsed_data.sha
        review = kit.rest.pulls.create_review("acme", "orders", 5, data={"event": "COMMENT", "body": "b"}).parsed_data
        merge = kit.rest.pulls.merge("acme", "orders", 5).parsed_data.sha
        return (
            squash,
            merge,
            review.id,
            review.submitted_at,
            world.live.world[REPOS].get("acme/orders")["production"],
        )

    first = run()
    assert first == run()
    assert first[2:4] == (2700000001, datetime(2026, 3, 2, 14, 0, 5, tzinfo=UTC))
    assert first[4] == first[1]


APP_HUNK = (
    "@@ -14,9 +14,9 @@ def search_orders(query):\n"
    " \n"
    " \n"
    " def order_total(order):\n"
    '-    cached = cache.get(order["customer_id"])\n'
    '+    cached = cache.get(order["id"])'
)


def test_a_review_comment_sits_in_the_diff(acme: GitHubWorld) -> None:
    kit = acme.kit()
    head = ref(acme, "fix_commit")
    made = kit.rest.pulls.create_review_comment(
        "acme", "orders", 4, data={"commit_id": head, "path": "src/app.py", "line": 17, "body": "Keyed by order"}
    ).parsed_data
    assert (made.position, made.original_position, made.line, made.side, made.diff_hunk) == (
        5,
        5,
        17,
        "RIGHT",
        APP_HUNK,
    )
    assert (made.start_line, made.start_side, made.subject_type) == (None, None, "line")
    left = kit.rest.pulls.create_review_comment(
        "acme", "orders", 4, data={"commit_id": head, "path": "src/app.py", "line": 17, "side": "LEFT", "body": "Was"}
    ).parsed_data
    assert (left.position, left.diff_hunk) == (4, APP_HUNK.rsplit("\n", 1)[0])
    by_position = acme.raw(
        "POST",
        "/repos/acme/orders/pulls/4/comments",
        json={"commit_id": head, "path": "src/app.py", "position": 5, "body": "Same line"},
    ).json()
    assert (by_position["line"], by_position["side"], by_position["position"]) == (17, "RIGHT", 5)
    several = acme.raw(
        "POST",
        "/repos/acme/orders/pulls/4/comments",
        json={"commit_id": head, "path": "src/app.py", "start_line": 16, "line": 17, "body": "These two"},
    ).json()
    assert (several["start_line"], several["start_side"], several["line"]) == (16, "RIGHT", 17)
    reply = kit.rest.pulls.create_reply_for_review_comment(
        "acme", "orders", 4, made.id, data={"body": "Yes"}
    ).parsed_data
    assert (reply.position, reply.diff_hunk, reply.in_reply_to_id) == (5, APP_HUNK, made.id)


def test_a_review_comment_outside_the_diff_is_refused(acme: GitHubWorld) -> None:
    head = ref(acme, "fix_commit")
    before = acme.state(REVIEW_COMMENTS)
    outside = "Pull request review thread line must be part of the diff"
    blank = "Pull request review thread diff hunk can't be blank"
    hunk = "Pull request review thread start line must be part of the same hunk as the line."
    for body, errors in (
        ({"path": "src/app.py", "line": 3}, [f"{outside} and {blank}"]),
        ({"path": "README.md", "line": 1}, [f"{outside} and {blank}"]),
        ({"path": "src/app.py", "line": 17, "start_line": 3}, [hunk]),
        ({"path": "src/app.py", "line": 3, "start_line": 1}, [f"{outside}, {hunk}, and {blank}"]),
    ):
        r = acme.raw("POST", "/repos/acme/orders/pulls/4/comments", json={"commit_id": head, "body": "b", **body})
        assert (r.status_code, r.json()["message"], r.json()["errors"]) == (422, "Unprocessable Entity", errors)
    review = acme.raw(
        "POST",
        "/repos/acme/orders/pulls/4/reviews",
        json={"event": "COMMENT", "body": "b", "comments": [{"path": "src/app.py", "line": 3, "body": "x"}]},
    )
    assert (review.status_code, review.json()["errors"]) == (422, [f"{outside} and {blank}"])
    assert acme.state(REVIEW_COMMENTS) == before
    assert [r["state"] for r in acme.raw("GET", "/repos/acme/orders/pulls/4/reviews").json()] == []
