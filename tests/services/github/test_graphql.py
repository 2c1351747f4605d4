"""GitHub's GraphQL API (`POST /graphql`) on the merge-right-pr world, over raw HTTP: queries of its
repo, issues and pulls, GitHub's error shapes and limits, and the mutations writing what REST writes."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from soundstage.checks import score_custom
from soundstage.services.github.store import COMMENTS, ISSUES, PULLS, REVIEWS

from .conftest import SCENE, GitHubWorld

PULL_4 = "MDExOlB1bGxSZXF1ZXN0MjgwMDAwMDAwMQ=="  # base64("011:PullRequest2800000001")
ISSUE_1 = "MDU6SXNzdWUzMTAwMDAwMDAx"
ISSUE_2 = "MDU6SXNzdWUzMTAwMDAwMDAy"
BUG = "MDU6TGFiZWw1MDAwMDAwMDAx"
MAYA = "MDQ6VXNlcjkwMDAwMDAy"
ORDERS = "MDEwOlJlcG9zaXRvcnk3MDAwMDAwMDE="


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def ask(world: GitHubWorld, query: str, **variables: Any) -> Any:
    response = world.raw("POST", "/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_repository_with_its_pulls_and_issues(acme: GitHubWorld) -> None:
    answer = ask(
        acme,
        """query Overview($owner: String!, $name: String!) {
          viewer { login id databaseId }
          repository(owner: $owner, name: $name) {
            id nameWithOwner url isPrivate visibility
            owner { __typename login }
            defaultBranchRef { id name target { id oid messageHeadline } }
            pullRequests(first: 5, states: OPEN) {
              totalCount
              nodes { id number headRefName baseRefName state mergeable author { login } }
            }
            issues(first: 2, states: OPEN, filterBy: {createdBy: "maya"}) {
              totalCount
              nodes { number labels(first: 5) { nodes { id name color } } }
            }
          }
        }""",
        owner="acme",
        name="orders",
    )
    assert answer["data"]["viewer"] == {"login": "stagebot", "id": "MDQ6VXNlcjkwMDAwMDAx", "databaseId": 90000001}
    repo = answer["data"]["repository"]
    assert {k: repo[k] for k in ("id", "nameWithOwner", "url", "isPrivate", "visibility", "owner")} == {
        "id": ORDERS,
        "nameWithOwner": "acme/orders",
        "url": "https://github.com/acme/orders",
        "isPrivate": False,
        "visibility": "PUBLIC",
        "owner": {"__typename": "Organization", "login": "acme"},
    }
    main = acme.raw("GET", "/repos/acme/orders/branches/main").json()["commit"]["sha"]
    assert repo["defaultBranchRef"] == {
        "id": base64.b64encode(b"03:Ref700000001:main").decode(),
        "name": "main",
        "target": {
            "id": base64.b64encode(f"06:Commit700000001:{main}".encode()).decode(),
            "oid": main,
            "messageHeadline": "Release 1.4.0",
        },
    }
    assert repo["pullRequests"] == {
        "totalCount": 2,
        "nodes": [
            {
                "id": "MDExOlB1bGxSZXF1ZXN0MjgwMDAwMDAwMg==",
                "number": 5,
                "headRefName": "cache-off",
                "baseRefName": "main",
                "state": "OPEN",
                "mergeable": "MERGEABLE",
                "author": {"login": "omar"},
            },
            {
                "id": PULL_4,
                "number": 4,
                "headRefName": "fix-totals-cache",
                "baseRefName": "main",
                "state": "OPEN",
                "mergeable": "MERGEABLE",
                "author": {"login": "maya"},
            },
        ],
    }
    issues = repo["issues"]
    assert issues["totalCount"] == len(
        [i for i in acme.state(ISSUES).values() if i["user"] == "maya" and i["state"] == "open"]
    )
    assert [i["number"] for i in issues["nodes"]] == sorted(
        (i["number"] for i in acme.state(ISSUES).values() if i["user"] == "maya" and i["state"] == "open"), reverse=True
    )[:2]


def test_one_pull_request_with_its_changes(acme: GitHubWorld) -> None:
    pull = ask(
        acme,
        """{ repository(owner: "acme", name: "orders") { pullRequest(number: 4) {
          title isDraft additions deletions changedFiles
          files(first: 10) { nodes { path additions deletions } }
          commits(first: 10) { totalCount nodes { commit { oid messageHeadline } } }
          headRefOid reviews(first: 5) { totalCount } comments(first: 5) { totalCount }
        } } }""",
    )["data"]["repository"]["pullRequest"]
    rest = acme.raw("GET", "/repos/acme/orders/pulls/4").json()
    files = acme.raw("GET", "/repos/acme/orders/pulls/4/files").json()
    commits = acme.raw("GET", "/repos/acme/orders/pulls/4/commits").json()
    assert pull == {
        "title": rest["title"],
        "isDraft": False,
        "additions": rest["additions"],
        "deletions": rest["deletions"],
        "changedFiles": rest["changed_files"],
        "files": {
            "nodes": [{"path": f["filename"], "additions": f["additions"], "deletions": f["deletions"]} for f in files]
        },
        "commits": {
            "totalCount": len(commits),
            "nodes": [
                {"commit": {"oid": c["sha"], "messageHeadline": c["commit"]["message"].split("\n")[0]}} for c in commits
            ],
        },
        "headRefOid": rest["head"]["sha"],
        "reviews": {"totalCount": 0},
        "comments": {"totalCount": rest["comments"]},
    }


def test_pages_follow_cursors(acme: GitHubWorld) -> None:
    query = """query($after: String) { repository(owner: "acme", name: "orders") {
      pullRequests(first: 1, after: $after) { nodes { number } pageInfo { hasNextPage hasPreviousPage endCursor } }
    } }"""
    first = ask(acme, query)["data"]["repository"]["pullRequests"]
    assert first == {
        "nodes": [{"number": 5}],
        "pageInfo": {"hasNextPage": True, "hasPreviousPage": False, "endCursor": "Y3Vyc29yOjE="},
    }
    second = ask(acme, query, after="Y3Vyc29yOjE=")["data"]["repository"]["pullRequests"]
    assert second == {
        "nodes": [{"number": 4}],
        "pageInfo": {"hasNextPage": False, "hasPreviousPage": True, "endCursor": "Y3Vyc29yOjI="},
    }
    bad = ask(acme, query, after="nope")
    assert bad["errors"] == [
        {
            "type": "INVALID_CURSOR_ARGUMENTS",
            "path": ["repository", "pullRequests"],
            "locations": [{"line": 2, "column": 7}],
            "message": "`nope` does not appear to be a valid cursor.",
        }
    ]


def test_a_missing_repository_is_not_found_with_partial_data(acme: GitHubWorld) -> None:
    answer = ask(acme, '{ viewer { login } repository(owner: "acme", name: "nope") { name } }')
    assert answer == {
        "data": {"viewer": {"login": "stagebot"}, "repository": None},
        "errors": [
            {
                "type": "NOT_FOUND",
                "path": ["repository"],
                "locations": [{"line": 1, "column": 20}],
                "message": "Could not resolve to a Repository with the name 'acme/nope'.",
            }
        ],
    }


def test_an_unknown_field_is_undefined_field(acme: GitHubWorld) -> None:
    answer = ask(acme, 'query Q { repository(owner: "acme", name: "orders") { name stars } }')
    assert answer == {
        "errors": [
            {
                "path": ["query Q", "repository", "stars"],
                "extensions": {"code": "undefinedField", "typeName": "Repository", "fieldName": "stars"},
                "locations": [{"line": 1, "column": 60}],
                "message": "Field 'stars' doesn't exist on type 'Repository'",
            }
        ]
    }


def test_connections_need_bounds(acme: GitHubWorld) -> None:
    unbounded = ask(acme, '{ repository(owner: "acme", name: "orders") { issues { nodes { number } } } }')
    assert unbounded["errors"][0]["type"] == "MISSING_PAGINATION_BOUNDARIES"
    assert unbounded["errors"][0]["message"] == (
        "You must provide a `first` or `last` value to properly paginate the `issues` connection."
    )
    counted = ask(acme, '{ repository(owner: "acme", name: "orders") { pullRequests { totalCount } } }')
    assert counted == {"data": {"repository": {"pullRequests": {"totalCount": 2}}}}
    too_many = ask(acme, '{ repository(owner: "acme", name: "orders") { issues(first: 101) { totalCount } } }')
    assert too_many["errors"][0]["type"] == "EXCESSIVE_PAGINATION"
    assert too_many["errors"][0]["message"] == (
        "Requesting 101 records on the connection exceeds the `first` limit of 100 records."
    )


def test_bad_documents(acme: GitHubWorld) -> None:
    assert ask(acme, "{ viewer { login }")["errors"] == [
        {"message": "Syntax Error: Expected Name, found <EOF>.", "locations": [{"line": 1, "column": 19}]}
    ]
    empty = acme.raw("POST", "/graphql", json={"variables": {}})
    assert empty.json() == {"errors": [{"message": "A query attribute must be specified and must be a string."}]}
    missing = ask(acme, 'query($n: Int!) { repository(owner: "acme", name: "orders") { issue(number: $n) { title } } }')
    assert missing == {
        "errors": [
            {
                "extensions": {
                    "value": None,
                    "problems": [{"path": [], "explanation": "Expected value to not be null"}],
                },
                "locations": [{"line": 1, "column": 7}],
                "message": "Variable $n of type Int! was provided invalid value",
            }
        ]
    }
    wrong = ask(
        acme, 'query($n: Int!) { repository(owner: "acme", name: "orders") { issue(number: $n) { title } } }', n="x"
    )
    assert wrong["errors"][0]["message"] == "Variable $n of type Int! was provided invalid value"

    def nested(parents: int) -> str:
        return '{ repository(owner: "acme", name: "orders") { ' + "parent { " * parents + "name" + " }" * (parents + 2)

    assert ask(acme, nested(13)) == {"data": {"repository": {"parent": None}}}
    assert ask(acme, nested(14)) == {"errors": [{"message": "Query has depth of 16, which exceeds max depth of 15"}]}
    nesting = ask(acme, "{" + "viewer {" * 2000 + "login" + "}" * 2001)["errors"][0]["message"]
    assert nesting == "Syntax Error: Document is nested too deeply. Parsing aborted."
    tokens = ask(acme, "{ viewer { " + "login " * 10_000 + "} }")["errors"][0]["message"]
    assert tokens == "Syntax Error: Document contains more than 10000 tokens. Parsing aborted."
    fields = " ".join(f"f{i}: login" for i in range(1999))
    assert ask(acme, f"{{ viewer {{ {fields} }} }}")["data"]["viewer"]["f1998"] == "stagebot"
    too_many = ask(acme, f"{{ viewer {{ {fields} f1999: login }} }}")
    assert too_many == {"errors": [{"message": "Query has more than 2000 fields, which exceeds the limit of 2000"}]}
    doubling = "".join(f"fragment F{i} on User {{ ...F{i + 1} ...F{i + 1} }} " for i in range(40))
    doubled = ask(acme, "{ viewer { ...F0 } } " + doubling + "fragment F40 on User { login }")
    assert doubled == {"errors": [{"message": "Query has more than 2000 fields, which exceeds the limit of 2000"}]}
    assert ask(acme, "{ viewer {} }")["errors"][0]["message"] == "Syntax Error: Expected Name, found '}'."


def test_no_token_is_refused(acme: GitHubWorld) -> None:
    response = acme.raw("POST", "/graphql", token=None, json={"query": "{ viewer { login } }"})
    assert (response.status_code, response.json()) == (
        401,
        {
            "message": "This endpoint requires you to be authenticated.",
            "documentation_url": "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql",
            "status": "401",
        },
    )
    wrong = acme.raw("POST", "/graphql", token="ghp_nope", json={"query": "{ viewer { login } }"})
    assert (wrong.status_code, wrong.json()["message"]) == (401, "Bad credentials")


def test_node_finds_records_by_their_rest_node_ids(acme: GitHubWorld) -> None:
    rest = acme.raw("GET", "/repos/acme/orders/issues/1").json()
    assert rest["node_id"] == ISSUE_1
    answer = ask(
        acme,
        "query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Issue { number } ... on Label { name } "
        "... on User { login } ... on Repository { name } } }",
        ids=[ISSUE_1, BUG, MAYA, ORDERS],
    )
    assert answer == {
        "data": {
            "nodes": [
                {"__typename": "Issue", "id": ISSUE_1, "number": 1},
                {"__typename": "Label", "id": BUG, "name": "bug"},
                {"__typename": "User", "id": MAYA, "login": "maya"},
                {"__typename": "Repository", "id": ORDERS, "name": "orders"},
            ]
        }
    }


def test_merge_pull_request_is_the_rest_merge(acme: GitHubWorld) -> None:
    answer = ask(
        acme,
        """mutation PullRequestMerge($input: MergePullRequestInput!) {
          mergePullRequest(input: $input) { clientMutationId pullRequest { state merged \
mergeCommit { oid messageHeadline } } }
        }""",
        input={"pullRequestId": PULL_4, "mergeMethod": "SQUASH", "clientMutationId": "m1"},
    )
    record = acme.state(PULLS)["acme/orders#4"]
    assert record["merged"] is True and record["merged_by"] == "stagebot"
    assert answer == {
        "data": {
            "mergePullRequest": {
                "clientMutationId": "m1",
                "pullRequest": {
                    "state": "MERGED",
                    "merged": True,
                    "mergeCommit": {
                        "oid": record["merge_commit_sha"],
                        "messageHeadline": "Key the totals cache by order id (#4)",
                    },
                },
            }
        }
    }
    assert acme.state(ISSUES)["acme/orders#1"]["state"] == "closed"  # "Fixes #1"
    world = acme.live.world
    checks = [
        {"id": "merged", "state": {"github.pull": {"repo": "acme/orders", "head": "fix-totals-cache", "merged": True}}},
        {
            "id": "deployed",
            "state": {
                "github.file_at": {
                    "repo": "acme/orders",
                    "ref": "production",
                    "path": "src/app.py",
                    "contains": 'cache.get(order["id"])',
                }
            },
        },
    ]
    assert score_custom(world, checks).passed
    call = world.log.calls()[-1]
    assert (call.method, call.path, call.operation, call.status) == ("POST", "/graphql", "PullRequestMerge", 200)
    again = ask(acme, f'mutation {{ mergePullRequest(input: {{pullRequestId: "{PULL_4}"}}) {{ clientMutationId }} }}')
    assert again == {
        "data": {"mergePullRequest": None},
        "errors": [
            {
                "type": "UNPROCESSABLE",
                "path": ["mergePullRequest"],
                "locations": [{"line": 1, "column": 12}],
                "message": "Pull Request is already merged",
            }
        ],
    }


def test_merge_refuses_a_moved_head(acme: GitHubWorld) -> None:
    answer = ask(
        acme,
        "mutation($input: MergePullRequestInput!) { mergePullRequest(input: $input) { clientMutationId } }",
        input={"pullRequestId": PULL_4, "expectedHeadOid": "0" * 40},
    )
    assert answer["errors"][0]["message"] == "Head branch was modified. Review and try the merge again."
    assert acme.state(PULLS)["acme/orders#4"]["merged"] is False


def test_issue_mutations(acme: GitHubWorld) -> None:
    created = ask(
        acme,
        """mutation IssueCreate($input: CreateIssueInput!) {
          createIssue(input: $input) { issue { number title body state author { login } \
labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } } } }
        }""",
        input={
            "repositoryId": ORDERS,
            "title": "Totals slow",
            "body": "Since 1.4.0",
            "labelIds": [BUG],
            "assigneeIds": [MAYA],
        },
    )["data"]["createIssue"]["issue"]
    number = created["number"]
    assert created == {
        "number": number,
        "title": "Totals slow",
        "body": "Since 1.4.0",
        "state": "OPEN",
        "author": {"login": "stagebot"},
        "labels": {"nodes": [{"name": "bug"}]},
        "assignees": {"nodes": [{"login": "maya"}]},
    }
    rest = acme.raw("GET", f"/repos/acme/orders/issues/{number}").json()
    assert (rest["title"], [x["name"] for x in rest["labels"]], rest["assignees"][0]["login"]) == (
        "Totals slow",
        ["bug"],
        "maya",
    )

    commented = ask(
        acme,
        (
            "mutation CommentCreate($input: AddCommentInput!) "
            "{ addComment(input: $input) { commentEdge { node { body url author { login } } } } }"
        ),
        input={"subjectId": ISSUE_2, "body": "Looking into it"},
    )["data"]["addComment"]["commentEdge"]["node"]
    comment = next(c for c in acme.state(COMMENTS).values() if c["body"] == "Looking into it")
    assert commented == {
        "body": "Looking into it",
        "url": f"https://github.com/acme/orders/issues/2#issuecomment-{comment['id']}",
        "author": {"login": "stagebot"},
    }

    closed = ask(
        acme,
        (
            "mutation IssueClose($input: CloseIssueInput!) "
            "{ closeIssue(input: $input) { issue { state stateReason closed } } }"
        ),
        input={"issueId": ISSUE_2, "stateReason": "NOT_PLANNED"},
    )
    assert closed == {
        "data": {"closeIssue": {"issue": {"state": "CLOSED", "stateReason": "NOT_PLANNED", "closed": True}}}
    }
    record = acme.state(ISSUES)["acme/orders#2"]
    assert (record["state"], record["state_reason"], record["closed_by"]) == ("closed", "not_planned", "stagebot")
    operations = [c.operation for c in acme.live.world.log.calls() if c.path == "/graphql"]
    assert operations == ["IssueCreate", "CommentCreate", "IssueClose"]


def test_a_comment_on_a_missing_node(acme: GitHubWorld) -> None:
    answer = ask(
        acme,
        "mutation($input: AddCommentInput!) { addComment(input: $input) { clientMutationId } }",
        input={"subjectId": "MDU6SXNzdWU5", "body": "hi"},
    )
    assert answer["errors"][0] == {
        "type": "NOT_FOUND",
        "path": ["addComment"],
        "locations": [{"line": 1, "column": 38}],
        "message": "Could not resolve to a node with the global id of 'MDU6SXNzdWU5'",
    }


def test_reviews(acme: GitHubWorld) -> None:
    mutation = """mutation PullRequestReviewAdd($input: AddPullRequestReviewInput!) {
      addPullRequestReview(input: $input) { pullRequestReview { state body author { login } } }
    }"""
    approved = ask(acme, mutation, input={"pullRequestId": PULL_4, "event": "APPROVE", "body": "LGTM"})
    assert approved == {
        "data": {
            "addPullRequestReview": {
                "pullRequestReview": {"state": "APPROVED", "body": "LGTM", "author": {"login": "stagebot"}}
            }
        }
    }
    [review] = acme.state(REVIEWS).values()
    assert (review["state"], review["user"], review["number"]) == ("APPROVED", "stagebot", 4)
    rest = acme.raw("GET", "/repos/acme/orders/pulls/4/reviews").json()
    assert [(r["state"], r["body"]) for r in rest] == [("APPROVED", "LGTM")]
    blank = ask(acme, mutation, input={"pullRequestId": PULL_4, "event": "REQUEST_CHANGES"})
    assert blank["errors"][0]["message"] == "Review body is required when requesting changes"


def test_status_check_rollup_of_a_pulls_head(acme: GitHubWorld) -> None:
    query = """{ repository(owner: "acme", name: "orders") { pullRequest(number: 4) { \
commits(last: 1) { nodes { commit {
      statusCheckRollup { state contexts(first: 10) { nodes {
        __typename ... on StatusContext { context state targetUrl }
        ... on CheckRun { name status conclusion checkSuite { workflowRun { workflow { name } } } }
      } } }
    } } } } } }"""

    def rollup() -> Any:
        return ask(acme, query)["data"]["repository"]["pullRequest"]["commits"]["nodes"][0]["commit"][
            "statusCheckRollup"
        ]

    run = {
        "__typename": "CheckRun",
        "name": "build",
        "status": "COMPLETED",
        "conclusion": "SUCCESS",
        "checkSuite": {"workflowRun": {"workflow": {"name": "CI"}}},
    }
    assert rollup() == {"state": "SUCCESS", "contexts": {"nodes": [run]}}
    head = acme.raw("GET", "/repos/acme/orders/pulls/4").json()["head"]["sha"]
    for state in ("pending", "success"):
        posted = acme.raw(
            "POST",
            f"/repos/acme/orders/statuses/{head}",
            json={"state": state, "context": "ci/tests", "target_url": "https://ci.acme.test/1"},
        )
        assert posted.status_code == 201
    acme.raw("POST", f"/repos/acme/orders/statuses/{head}", json={"state": "failure", "context": "ci/lint"})
    assert rollup() == {
        "state": "FAILURE",
        "contexts": {
            "nodes": [
                {
                    "__typename": "StatusContext",
                    "context": "ci/tests",
                    "state": "SUCCESS",
                    "targetUrl": "https://ci.acme.test/1",
                },
                {"__typename": "StatusContext", "context": "ci/lint", "state": "FAILURE", "targetUrl": None},
                run,
            ]
        },
    }


def test_the_trace_names_the_operation_and_limits_count_graphql(stage: Any) -> None:
    world = GitHubWorld(
        stage.world(SCENE.replace("task: test\n", 'task: test\nrate_limits: {github: {"POST /graphql": 2/1m}}\n'))
    )
    assert ask(world, "query Me { viewer { login } }") == {"data": {"viewer": {"login": "stagebot"}}}
    assert ask(world, "{ viewer { login } }") == {"data": {"viewer": {"login": "stagebot"}}}
    refused = world.raw("POST", "/graphql", json={"query": "query Me { viewer { login } }"})
    assert refused.status_code == 403
    assert refused.json()["message"].startswith("You have exceeded a secondary rate limit")
    calls = [(c.operation, c.status, c.body) for c in world.live.world.log.calls()]
    assert calls == [
        ("Me", 200, {"query": "query Me { viewer { login } }", "variables": {}}),
        ("POST /graphql", 200, {"query": "{ viewer { login } }", "variables": {}}),
        ("Me", 403, {"query": "query Me { viewer { login } }"}),
    ]


def test_search_is_rest_search(acme: GitHubWorld) -> None:
    query = """query($q: String!) { search(query: $q, type: ISSUE, first: 10) {
      issueCount edges { cursor node { __typename ... on Issue { number } \
... on PullRequest { number author { login } } } }
    } }"""
    pulls = ask(acme, query, q="repo:acme/orders is:pr is:open totals")["data"]["search"]
    assert pulls == {
        "issueCount": 2,
        "edges": [
            {"cursor": "Y3Vyc29yOjE=", "node": {"__typename": "PullRequest", "number": 5, "author": {"login": "omar"}}},
            {"cursor": "Y3Vyc29yOjI=", "node": {"__typename": "PullRequest", "number": 4, "author": {"login": "maya"}}},
        ],
    }
    rest = acme.raw("GET", "/search/issues", params={"q": "repo:acme/orders label:bug"}).json()
    found = ask(acme, query, q="repo:acme/orders label:bug sort:created-asc")["data"]["search"]
    assert [e["node"]["number"] for e in found["edges"]] == sorted(i["number"] for i in rest["items"])
    mine = ask(acme, query, q="repo:acme/orders author:@me")["data"]["search"]
    assert mine == {"issueCount": 0, "edges": []}


def test_updates_labels_and_assignees(acme: GitHubWorld) -> None:
    pull_5 = "MDExOlB1bGxSZXF1ZXN0MjgwMDAwMDAwMg=="
    update = """mutation($input: UpdatePullRequestInput!) { updatePullRequest(input: $input) {
      pullRequest { title baseRefName state labels(first: 5) { nodes { name } } }
    } }"""
    changed = ask(
        acme, update, input={"pullRequestId": pull_5, "title": "Cache off", "state": "CLOSED", "labelIds": [BUG]}
    )
    assert changed == {
        "data": {
            "updatePullRequest": {
                "pullRequest": {
                    "title": "Cache off",
                    "baseRefName": "main",
                    "state": "CLOSED",
                    "labels": {"nodes": [{"name": "bug"}]},
                }
            }
        }
    }
    record = acme.state(PULLS)["acme/orders#5"]
    assert (record["title"], record["state"], record["labels"]) == ("Cache off", "closed", ["bug"])
    missing = ask(acme, update, input={"pullRequestId": pull_5, "baseRefName": "nope"})
    assert missing["errors"][0]["message"] == "Proposed base branch 'nope' was not found"
    labels = """mutation($input: RemoveLabelsFromLabelableInput!) { removeLabelsFromLabelable(input: $input) {
      labelable { __typename labels(first: 5) { nodes { name } } }
    } }"""
    removed = ask(acme, labels, input={"labelableId": ISSUE_1, "labelIds": [BUG]})
    assert removed == {
        "data": {
            "removeLabelsFromLabelable": {"labelable": {"__typename": "Issue", "labels": {"nodes": [{"name": "p1"}]}}}
        }
    }
    assignees = """mutation($input: AddAssigneesToAssignableInput!) { addAssigneesToAssignable(input: $input) {
      assignable { ... on Issue { assignees(first: 5) { nodes { login } } } }
    } }"""
    added = ask(acme, assignees, input={"assignableId": ISSUE_2, "assigneeIds": [MAYA, MAYA]})
    assert added == {
        "data": {"addAssigneesToAssignable": {"assignable": {"assignees": {"nodes": [{"login": "maya"}]}}}}
    }
    assert acme.state(ISSUES)["acme/orders#2"]["assignees"] == ["maya"]


def test_checks_are_never_required(acme: GitHubWorld) -> None:
    """`gh pr checks` asks `isRequired` of every context: only branch protection requires one, and the world
    has none."""
    head = acme.raw("GET", "/repos/acme/orders/pulls/4").json()["head"]["sha"]
    acme.raw("POST", f"/repos/acme/orders/statuses/{head}", json={"state": "success", "context": "ci/lint"})
    answer = ask(
        acme,
        """query Checks($id: ID!) { node(id: $id) { ... on PullRequest { commits(last: 1) { nodes { commit {
          statusCheckRollup { contexts(first: 10) { nodes {
            ... on StatusContext { context isRequired(pullRequestId: $id) }
            ... on CheckRun { name isRequired(pullRequestNumber: 4) }
          } } } } } } } } }""",
        id=PULL_4,
    )
    rollup = answer["data"]["node"]["commits"]["nodes"][0]["commit"]["statusCheckRollup"]
    assert rollup["contexts"]["nodes"] == [
        {"context": "ci/lint", "isRequired": False},
        {"name": "build", "isRequired": False},
    ]


def test_a_commits_authors_and_co_authors(gh: GitHubWorld) -> None:
    """`Commit.authors`: the git author, then each `Co-authored-by:` trailer; a GitActor's `user` is the
    account with its email, its `date` in the commit's own time zone."""
    main = gh.raw("GET", "/repos/acme/orders/git/ref/heads/main").json()["object"]["sha"]
    tree = gh.raw("GET", f"/repos/acme/orders/git/commits/{main}").json()["tree"]["sha"]
    message = "Pair on totals\n\nCo-authored-by: Maya Chen <maya@acme.test>\nco-authored-by: Sam <sam@acme.test>\n"
    made = gh.raw(
        "POST",
        "/repos/acme/orders/git/commits",
        json={"message": message, "tree": tree, "parents": [main]},
    ).json()
    gh.raw("PATCH", "/repos/acme/orders/git/refs/heads/main", json={"sha": made["sha"]})
    answer = ask(
        gh,
        """{ repository(owner: "acme", name: "orders") { defaultBranchRef { target {
          author { name date } committer { email }
          authors(first: 5) { totalCount nodes { name email date avatarUrl user { login } } }
        } } } }""",
    )
    target = answer["data"]["repository"]["defaultBranchRef"]["target"]
    at = made["author"]["date"].removesuffix("Z") + "+00:00"
    assert target["author"] == {"name": "Stage Bot", "date": at}
    assert target["committer"] == {"email": "bot@acme.test"}
    avatar = "https://avatars.githubusercontent.com/u/{}?v=4"
    gravatar = "https://secure.gravatar.com/avatar/b2965ab83585c36a1d322837e297ffbb?d=identicon&r=g"
    assert target["authors"]["totalCount"] == 3
    assert [(a["name"], a["email"], a["date"], a["avatarUrl"], a["user"]) for a in target["authors"]["nodes"]] == [
        ("Stage Bot", "bot@acme.test", at, avatar.format(90000001), None),  # a bot is no User
        ("Maya Chen", "maya@acme.test", at, avatar.format(90000002), {"login": "maya"}),
        ("Sam", "sam@acme.test", at, gravatar, None),
    ]


def test_releases(acme: GitHubWorld) -> None:
    """`gh release list`'s query: newest first, `isLatest` the release REST calls latest; drafts too."""
    acme.raw("POST", "/repos/acme/orders/releases", json={"tag_name": "v1.5.0", "name": "1.5.0", "draft": True})
    query = """query List($order: ReleaseOrder) { repository(owner: "acme", name: "orders") {
      latestRelease { tagName }
      releases(first: 2, orderBy: $order) {
        totalCount
        nodes { name tagName isDraft isLatest isPrerelease createdAt publishedAt author { login } tagCommit { oid } }
        pageInfo { hasNextPage endCursor }
      }
    } }"""
    repo = ask(acme, query, order={"field": "CREATED_AT", "direction": "DESC"})["data"]["repository"]
    assert repo["latestRelease"] == {"tagName": "v1.4.0"}
    releases = repo["releases"]
    assert (releases["totalCount"], releases["pageInfo"]) == (3, {"hasNextPage": True, "endCursor": "Y3Vyc29yOjI="})
    main = acme.live.world.refs["release_commit"]
    fields = ("name", "tagName", "isDraft", "isLatest", "isPrerelease", "createdAt", "publishedAt")
    assert [(*(r[k] for k in fields), r["author"]["login"], r["tagCommit"]["oid"]) for r in releases["nodes"]] == [
        ("1.5.0", "v1.5.0", True, False, False, "2026-03-02T14:00:00Z", None, "stagebot", main),  # a draft: its target
        ("1.4.0", "v1.4.0", False, True, False, "2026-02-28T14:00:00Z", "2026-02-28T14:00:00Z", "alex", main),
    ]
    by_name = ask(acme, query, order={"field": "NAME", "direction": "ASC"})["data"]["repository"]["releases"]
    assert [r["name"] for r in by_name["nodes"]] == ["1.3.0", "1.4.0"]
    unbounded = ask(acme, '{ repository(owner: "acme", name: "orders") { releases { nodes { name } } } }')
    assert unbounded["errors"][0]["type"] == "MISSING_PAGINATION_BOUNDARIES"
