"""How soundstage's answers measure up against real recorded responses (tests/services/recorded, kept by
scripts/extract_recorded.py): per operation, the share of the real response's key paths soundstage's answer
has, the ones it lacks and the formats that differ; per service, the average share. Read by
tests/services/test_recorded.py (which holds each service to its floor) and scripts/coverage_docs.py (which
writes docs/services/<service>-coverage.md).

Each service is measured twice, with the same calls in two worlds: `tailored`, the world of a scene its own
tests use (with something of every kind the recorded responses show), and `neutral`, the shipped world
(worlds/acme.yaml) as it is. The calls are made in an order that makes every operation succeed: writes first
(they also give the reads something to show), then reads, with the query parameters of the recorded request
where they change the answer's shape (`include_hosts_metadata`, `with_downtimes`, `recursive`, a page size
that leaves a next page). Each recorded response is compared with the answer to one call, the one made as
the recorded request was (an operation's other calls set the world up and are not measured), never with the
richest of several answers. GitHub's and Datadog's test world is the shipped one, so their two measures are
one. What the shipped world lacks for a call to succeed, the neutral sequence makes first, as a user or a
sender would: Slack's bot note to react to, PagerDuty's open pages (sent by the monitors through the Orders
API's Events API integration) to acknowledge, snooze and merge; an incident's parts (alerts, notes, log
entries, related deploys) are read on the shipped world's own resolved incident.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from tests.services.keypaths import Comparison, compare

from soundstage.services import SERVICES as REGISTRY

RECORDED = Path(__file__).resolve().parent / "recorded"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "services"
SERVICES = tuple(REGISTRY)  # every registered service has a page, those with no recorded responses too
REGENERATE = "python scripts/coverage_docs.py"
WORLDS = ("tailored", "neutral")  # the world of the service's tests; the shipped world, as it is

# The demo world (worlds/acme.yaml) as the fuzz test builds it: GitHub and Datadog have the most there.
ACME = """
name: recorded
world: acme
task: Nothing; the test makes the calls.
agent: {slack_user: $bot, github_user: $bot_gh, datadog_user: $bot_dd, pagerduty_user: $bot_pd, google_user: $maya}
"""


def recorded(service: str) -> dict[str, Any]:
    """The service's data file; for a service with none, no real response to compare with."""
    path = RECORDED / f"{service}.json"
    if not path.exists():
        return {
            "service": service,
            "floors": {world: 1.0 for world in WORLDS},
            "max_mismatches": {world: 0 for world in WORLDS},
            "required": [],
            "exclusions": {},
            "operations": {},
        }
    return json.loads(path.read_text())


@dataclass
class Answers:
    """Soundstage's answer to each operation, from the one call measured, and the calls that failed."""

    bodies: dict[str, Any]
    failures: list[str]

    def keep(self, operation: str, status: int, text: str, measured: bool = True) -> Any:
        """Keeps the answer of a measured call; another measured call of the operation is a failure of the
        sequence, as the comparison would then depend on which answer was kept."""
        body = json.loads(text) if text.strip() else None
        if not 200 <= status < 300:
            self.failures.append(f"{operation}: {status} {text[:300]}")
        elif measured and operation in self.bodies:
            self.failures.append(f"{operation}: measured twice")
        elif measured and body is not None:
            self.bodies[operation] = body
        return body


# -- calls per service -------------------------------------------------------------------------------


# The refs `valid_calls` (tests/services/slack/conftest.py) names, found in the shipped world: a user in
# #support (Jonas for Maya), one outside it (Kenji for Omar), a deleted one, a channel the bot is in to
# archive (#incidents for #ops), the customer's question; the bot's own note is posted by the sequence.
ACME_SLACK = {
    "maya": "jonas",
    "omar": "kenji",
    "gone": "old_contractor",
    "ops": "incidents",
    "question": "csv_question",
}
# Of the methods `valid_calls` calls more than once, the call made as the recorded request was (0 is the
# first): an update of a message with a file, an open of an existing DM with `return_im`, a join of a channel
# already joined (the recorded one warns), the thread and history with metadata, the bot's reacted note.
SLACK_MEASURED = {
    "conversations.open": 2,
    "conversations.join": 1,
    "conversations.replies": 1,
    "conversations.history": 1,
    "reactions.get": 1,
}


def slack_answers(stage: Any, world: str) -> Answers:
    from tests.services.slack.conftest import SCENE, Slack, file_shares, valid_calls

    s = Slack(stage.world(SCENE if world == "tailored" else ACME))
    answers = Answers({}, [])

    def call(method: str, args: dict[str, Any], measured: bool = True) -> Any:
        given = dict(args)
        token = given.pop("token", "bot")  # `valid_calls` names the token a method needs ("user")
        response = s.raw(method, token=token, data=given)
        body = answers.keep(method, response.status_code, response.text, measured)
        if body and body.get("ok") is not True:
            answers.failures.append(f"{method}: {body}")
            answers.bodies.pop(method, None)
        return body

    if world == "neutral":
        s.refs = {**s.refs, **{name: s.refs[ref] for name, ref in ACME_SLACK.items()}}
        note = call("chat.postMessage", {"channel": s["support"], "text": "Looking into it"}, measured=False)
        s.refs["bot_note"] = note["ts"]
        call("reactions.add", {"channel": s["support"], "timestamp": note["ts"], "name": "eyes"}, measured=False)
    seen: dict[str, int] = {}
    calls = [*file_shares(s), *valid_calls(s), ("bookmarks.list", {"channel_id": s["support"]})]
    for method, args in calls:
        seen[method] = seen.get(method, -1) + 1
        call(method, args, measured=seen[method] == SLACK_MEASURED.get(method, 0))
    return answers


def github_answers(stage: Any, world: str) -> Answers:
    from tests.services.github.conftest import GitHubWorld

    gh = GitHubWorld(stage.world(ACME))
    answers = Answers({}, [])

    def call(operation: str, path: str, measured: bool = True, **kwargs: Any) -> Any:
        response = gh.raw(operation.partition(" ")[0], path, **kwargs)
        return answers.keep(operation, response.status_code, response.text, measured)

    repo = "/repos/acme/orders"
    main = call("GET /repos/{owner}/{repo}/branches/{branch}", f"{repo}/branches/main")["commit"]["sha"]
    issue = call(
        "POST /repos/{owner}/{repo}/issues",
        f"{repo}/issues",
        json={
            "title": "Totals are off",
            "body": "Two orders share a total.",
            "labels": ["bug"],
            "assignees": ["maya"],
            "milestone": 1,  # the world's milestone, as the recorded issue has one
        },
    )["number"]
    issue_path = f"{repo}/issues/{issue}"
    comment = call(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", f"{issue_path}/comments", json={"body": "Seen it"}
    )["id"]
    call(
        "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
        f"{repo}/issues/comments/{comment}",
        json={"body": "Seen it too"},
    )
    call("GET /repos/{owner}/{repo}/issues/comments/{comment_id}", f"{repo}/issues/comments/{comment}")
    call("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", f"{issue_path}/labels", json={"labels": ["p1"]})
    call(
        "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels", f"{issue_path}/labels", json={"labels": ["bug", "p1"]}
    )
    call("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", f"{issue_path}/labels/p1")
    assignees = {"assignees": ["omar"]}
    # Measured on the pull request below, as the recorded issue answers are a pull request's.
    call("POST /repos/{owner}/{repo}/issues/{issue_number}/assignees", f"{issue_path}/assignees", False, json=assignees)
    call(
        "DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees", f"{issue_path}/assignees", False, json=assignees
    )
    call("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", f"{issue_path}/comments")
    call("GET /repos/{owner}/{repo}/issues/{issue_number}/labels", f"{issue_path}/labels")
    call(
        "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
        issue_path,
        json={"state": "closed", "state_reason": "not_planned"},
    )
    call("GET /repos/{owner}/{repo}/issues/{issue_number}", issue_path)  # closed: it has `closed_by`
    call("POST /repos/{owner}/{repo}/labels", f"{repo}/labels", json={"name": "triage", "color": "ededed"})
    text = base64.b64encode(b"Recorded.\n").decode()
    created = call(
        "PUT /repos/{owner}/{repo}/contents/{path}",
        f"{repo}/contents/docs/recorded.md",
        json={"message": "Add a note", "content": text},
    )
    call(
        "DELETE /repos/{owner}/{repo}/contents/{path}",
        f"{repo}/contents/docs/recorded.md",
        json={"message": "Remove the note", "sha": created["content"]["sha"]},
    )
    # A branch made through the git database, a pull request from it, its review and its merge.
    blob = call(
        "POST /repos/{owner}/{repo}/git/blobs", f"{repo}/git/blobs", json={"content": "Note\n", "encoding": "utf-8"}
    )
    base_tree = call("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", f"{repo}/git/commits/{main}")["tree"]["sha"]
    tree = call(
        "POST /repos/{owner}/{repo}/git/trees",
        f"{repo}/git/trees",
        json={
            "base_tree": base_tree,
            "tree": [{"path": "NOTE.md", "mode": "100644", "type": "blob", "sha": blob["sha"]}],
        },
    )["sha"]
    commit = call(
        "POST /repos/{owner}/{repo}/git/commits",
        f"{repo}/git/commits",
        json={"message": "Add a note", "tree": tree, "parents": [main]},
    )["sha"]
    call("POST /repos/{owner}/{repo}/git/refs", f"{repo}/git/refs", json={"ref": "refs/heads/note", "sha": commit})
    pull = call(
        "POST /repos/{owner}/{repo}/pulls",
        f"{repo}/pulls",
        json={"title": "Add a note", "head": "note", "base": "main", "body": "A note."},
    )["number"]
    pull_path = f"{repo}/pulls/{pull}"
    call("PATCH /repos/{owner}/{repo}/pulls/{pull_number}", pull_path, json={"body": "A short note."})
    call(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
        f"{repo}/issues/{pull}/labels",
        False,  # measured on the issue above
        json={"labels": ["docs"]},
    )
    review_comment = call(
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments",
        f"{pull_path}/comments",
        json={"body": "Typo?", "commit_id": commit, "path": "NOTE.md", "line": 1, "side": "RIGHT"},
    )["id"]
    call(
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
        f"{pull_path}/comments/{review_comment}/replies",
        json={"body": "No."},
    )
    call(
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
        f"{pull_path}/reviews",
        json={"event": "COMMENT", "body": "Fine"},
    )
    call("GET /repos/{owner}/{repo}/pulls/{pull_number}", pull_path, False)  # measured merged, as recorded
    call("GET /repos/{owner}/{repo}/pulls/{pull_number}/comments", f"{pull_path}/comments")
    call("GET /repos/{owner}/{repo}/pulls/{pull_number}/commits", f"{pull_path}/commits")
    call("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", f"{pull_path}/files")
    call("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", f"{pull_path}/reviews")
    call("PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge", f"{pull_path}/merge", json={})
    call("GET /repos/{owner}/{repo}/pulls/{pull_number}", pull_path)  # merged: it has `merged_by`
    # The recorded issue answers are a closed pull request's, in a milestone: `pull_request` and `closed_by`.
    merged_path = f"{repo}/issues/{pull}"
    call("PATCH /repos/{owner}/{repo}/issues/{issue_number}", merged_path, False, json={"milestone": 1})
    call("POST /repos/{owner}/{repo}/issues/{issue_number}/assignees", f"{merged_path}/assignees", json=assignees)
    call("DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees", f"{merged_path}/assignees", json=assignees)
    deployment = call(
        "POST /repos/{owner}/{repo}/deployments",
        f"{repo}/deployments",
        json={"ref": "main", "environment": "staging", "auto_merge": False, "required_contexts": []},
    )["id"]
    deployment_path = f"{repo}/deployments/{deployment}"
    call(
        "POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses",
        f"{deployment_path}/statuses",
        json={"state": "success"},
    )
    call(
        "POST /repos/{owner}/{repo}/statuses/{sha}",
        f"{repo}/statuses/{main}",
        json={"state": "success", "context": "ci"},
    )
    call("GET /repos/{owner}/{repo}/commits/{ref}/status", f"{repo}/commits/{main}/status")
    # Reads.
    call("GET /repos/{owner}/{repo}", repo)
    call("GET /orgs/{org}/repos", "/orgs/acme/repos")
    call("GET /rate_limit", "/rate_limit")
    call("GET /user", "/user")
    call("GET /user/repos", "/user/repos")
    call("GET /users/{username}", "/users/maya")
    call("GET /users/{username}/repos", "/users/acme/repos")
    runs = call("GET /repos/{owner}/{repo}/actions/runs", f"{repo}/actions/runs")["workflow_runs"]
    call("GET /repos/{owner}/{repo}/actions/runs/{run_id}", f"{repo}/actions/runs/{runs[0]['id']}")
    call("GET /repos/{owner}/{repo}/commits", f"{repo}/commits")
    call("GET /repos/{owner}/{repo}/commits/{ref}", f"{repo}/commits/main")
    call("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", f"{repo}/commits/{runs[0]['head_sha']}/check-runs")
    call("GET /repos/{owner}/{repo}/compare/{basehead}", f"{repo}/compare/main...fix-totals-cache")
    call("GET /repos/{owner}/{repo}/contents/{path}", f"{repo}/contents/README.md")
    call("GET /repos/{owner}/{repo}/deployments", f"{repo}/deployments")
    call("GET /repos/{owner}/{repo}/deployments/{deployment_id}", deployment_path)
    call("GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses", f"{deployment_path}/statuses")
    call("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", f"{repo}/git/blobs/{blob['sha']}")
    call("GET /repos/{owner}/{repo}/git/matching-refs/{ref}", f"{repo}/git/matching-refs/heads")
    call("GET /repos/{owner}/{repo}/git/refs", f"{repo}/git/refs")
    call("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", f"{repo}/git/trees/{tree}", params={"recursive": 1})
    call("GET /repos/{owner}/{repo}/issues", f"{repo}/issues")
    call("GET /repos/{owner}/{repo}/labels", f"{repo}/labels")
    call("GET /repos/{owner}/{repo}/pulls", f"{repo}/pulls")
    call("GET /repos/{owner}/{repo}/releases", f"{repo}/releases")
    call("GET /repos/{owner}/{repo}/releases/latest", f"{repo}/releases/latest")
    call("GET /search/code", "/search/code", params={"q": "total repo:acme/orders"})
    call("GET /search/issues", "/search/issues", params={"q": "totals repo:acme/orders"})
    return answers


def datadog_answers(stage: Any, world: str) -> Answers:
    from tests.services.datadog.conftest import DatadogWorld

    dd = DatadogWorld(stage.world(ACME))
    answers = Answers({}, [])

    def call(operation: str, path: str, measured: bool = True, **kwargs: Any) -> Any:
        response = dd.raw(operation.partition(" ")[0], path, **kwargs)
        return answers.keep(operation, response.status_code, response.text, measured)

    latency = dd.ref("latency")
    monitor = call(
        "POST /api/v1/monitor",
        "/api/v1/monitor",
        json={
            "name": "Orders requests low",
            "type": "query alert",
            "query": "sum(last_10m):sum:orders.requests{service:orders} < 10",
            "message": "Traffic dropped. @slack-engineering",
            "tags": ["service:orders"],
            "options": {
                # The options of the recorded requests' monitor (tests/v1/cassettes/.../test_edit_a_monitor_...).
                "enable_logs_sample": True,
                "escalation_message": "Still low",
                "evaluation_delay": 700,
                "groupby_simple_monitor": True,
                "locked": False,
                "new_host_delay": 600,
                "no_data_timeframe": None,
                "notification_preset_name": "hide_handles",
                "on_missing_data": "show_and_notify_no_data",
                "renotify_interval": 60,
                "require_full_window": True,
                "thresholds": {"critical": 10, "warning": 20},
                "timeout_h": 24,
            },
        },
    )["id"]
    call("GET /api/v1/monitor/{monitor_id}", f"/api/v1/monitor/{monitor}", params={"with_downtimes": "true"})
    options = {  # the recorded edit's options
        "evaluation_delay": None,
        "new_group_delay": 600,
        "new_host_delay": None,
        "renotify_interval": None,
        "thresholds": {"critical": 10, "warning": None},
        "timeout_h": None,
    }
    call(
        "PUT /api/v1/monitor/{monitor_id}",
        f"/api/v1/monitor/{monitor}",
        json={"name": "Orders traffic low", "options": options},
    )
    call(
        "POST /api/v1/events",
        "/api/v1/events",
        False,  # measured below, with a host and an aggregation key
        json={"title": "Deployed orders 4.13", "text": "Rolled out", "tags": ["service:orders"]},
    )
    # An event with a host and an aggregation key, as the recorded reads show them.
    event = {"title": "Orders 4.13 healthy", "text": "Checks pass", "host": "web-1", "aggregation_key": "deploy-4.13"}
    call("POST /api/v1/events", "/api/v1/events", json={**event, "tags": ["service:orders"]})
    downtime = call(
        "POST /api/v2/downtime",
        "/api/v2/downtime",
        json={
            "data": {
                "type": "downtime",
                # By monitor tags, as the recorded request (it matches the monitor made above).
                "attributes": {
                    "scope": "env:prod",
                    "monitor_identifier": {"monitor_tags": ["service:orders"]},
                    "message": "Work",
                },
            }
        },
    )["data"]["id"]
    call(
        "PATCH /api/v2/downtime/{downtime_id}",
        f"/api/v2/downtime/{downtime}",
        json={"data": {"id": downtime, "type": "downtime", "attributes": {"message": "More work"}}},
    )
    incident = call(
        "POST /api/v2/incidents",
        "/api/v2/incidents",
        json={
            "data": {
                "type": "incidents",
                "attributes": {"title": "Orders latency", "customer_impacted": False},
                "relationships": {"commander_user": {"data": {"type": "users", "id": dd.ref("maya_dd")}}},
            }
        },
    )["data"]["id"]
    call(
        "PATCH /api/v2/incidents/{incident_id}",
        f"/api/v2/incidents/{incident}",
        json={"data": {"id": incident, "type": "incidents", "attributes": {"title": "Orders p99 latency"}}},
    )
    call("GET /api/v1/dashboard/{dashboard_id}", "/api/v1/dashboard/ord-api-ovw")
    call("GET /api/v1/hosts", "/api/v1/hosts", params={"include_hosts_metadata": "true"})
    call("GET /api/v1/monitor", "/api/v1/monitor", params={"with_downtimes": "true"})
    call("GET /api/v1/monitor/groups/search", "/api/v1/monitor/groups/search")
    call("GET /api/v1/monitor/search", "/api/v1/monitor/search")
    call("GET /api/v1/monitor/{monitor_id}", f"/api/v1/monitor/{latency}", False, params={"with_downtimes": "true"})
    start = 1772460000  # the scene's clock start
    call(
        "GET /api/v1/query",
        "/api/v1/query",
        params={"from": start - 3600, "to": start, "query": "avg:orders.latency.p99{service:orders} by {host}"},
    )
    call("GET /api/v1/slo", "/api/v1/slo")
    call("GET /api/v1/validate", "/api/v1/validate")
    call("GET /api/v2/downtime", "/api/v2/downtime")
    call("GET /api/v2/downtime/{downtime_id}", f"/api/v2/downtime/{downtime}")
    call("GET /api/v2/events", "/api/v2/events", params={"filter[from]": "now-3d", "page[limit]": 1})
    call("GET /api/v2/incidents", "/api/v2/incidents")
    call("GET /api/v2/incidents/{incident_id}", f"/api/v2/incidents/{incident}")
    call("GET /api/v2/logs/events", "/api/v2/logs/events")
    call("GET /api/v2/monitor/{monitor_id}/downtime_matches", f"/api/v2/monitor/{monitor}/downtime_matches")
    call("GET /api/v2/users", "/api/v2/users")
    call(
        "POST /api/v2/events/search", "/api/v2/events/search", json={"filter": {"from": "now-3d"}, "page": {"limit": 1}}
    )
    call("POST /api/v2/logs/events/search", "/api/v2/logs/events/search", json={"filter": {"from": "now-15m"}})
    call("GET /api/v1/monitor/can_delete", "/api/v1/monitor/can_delete", params={"monitor_ids": monitor})
    call("GET /api/v2/metrics", "/api/v2/metrics", params={"page[size]": 1})
    # A v1 downtime of one monitor, as the recorded one; then what the recorded update sends.
    v1_downtime = call(
        "POST /api/v1/downtime",
        "/api/v1/downtime",
        json={
            "scope": ["service:orders"],
            "monitor_id": monitor,
            "message": "Work",
            "start": start,
            "timezone": "Etc/UTC",
        },
    )["id"]
    call("GET /api/v1/downtime/{downtime_id}", f"/api/v1/downtime/{v1_downtime}")
    call(
        "PUT /api/v1/downtime/{downtime_id}",
        f"/api/v1/downtime/{v1_downtime}",
        json={
            "message": "More work",
            "mute_first_recovery_notification": True,
            "notify_end_types": ["canceled", "expired"],
        },
    )
    call("GET /api/v1/downtime", "/api/v1/downtime", params={"with_creator": "true"})
    call("POST /api/v1/downtime/cancel/by_scope", "/api/v1/downtime/cancel/by_scope", json={"scope": "service:orders"})
    points = {"metric": "system.load.1", "type": 0, "points": [{"timestamp": start, "value": 0.7}]}
    call(
        "POST /api/v2/series",
        "/api/v2/series",
        json={"series": [{**points, "resources": [{"name": "web-1", "type": "host"}]}]},
    )
    # The recorded queries' shape: one metrics query and a formula with a limit.
    attributes = {
        "formulas": [{"formula": "a", "limit": {"count": 10, "order": "desc"}}],
        "from": (start - 3600) * 1000,
        "to": start * 1000,
        "queries": [{"data_source": "metrics", "name": "a", "query": "avg:orders.latency.p99{*}", "aggregator": "avg"}],
    }
    call(
        "POST /api/v2/query/timeseries",
        "/api/v2/query/timeseries",
        json={"data": {"type": "timeseries_request", "attributes": {**attributes, "interval": 60000}}},
    )
    call(
        "POST /api/v2/query/scalar",
        "/api/v2/query/scalar",
        json={"data": {"type": "scalar_request", "attributes": attributes}},
    )
    call("DELETE /api/v1/monitor/{monitor_id}", f"/api/v1/monitor/{monitor}")
    return answers


# The refs the tailored sequence names, found in the shipped world: the agent (Stage Bot) in Maya's place,
# Maya (on call next) in Sam's; its open incidents, alert and priority the neutral sequence makes itself.
ACME_PAGERDUTY = {
    "orders_svc": "orders_svc",
    "ep": "orders_ep",
    "primary": "orders_primary",
    "maya": "bot_pd",
    "sam": "maya_pd",
    "past": "old_latency_incident",
}


def pagerduty_answers(stage: Any, world: str) -> Answers:
    from tests.services.pagerduty.conftest import PagerDutyWorld
    from tests.services.pagerduty.incident_scene import ZONED_INCIDENT_SCENE

    # The test world's account is in New York, as the recorded examples' offsets show theirs.
    pd = PagerDutyWorld(stage.world(ZONED_INCIDENT_SCENE if world == "tailored" else ACME))
    answers = Answers({}, [])

    def call(operation: str, path: str, measured: bool = True, **kwargs: Any) -> Any:
        headers = {"From": pd.email} if operation.startswith(("POST", "PUT")) else {}
        response = pd.raw(operation.partition(" ")[0], path, headers=headers, **kwargs)
        return answers.keep(operation, response.status_code, response.text, measured)

    if world == "tailored":
        refs = {name: pd.ref(name) for name in ("orders_svc", "ep", "primary", "maya", "sam", "p1", "fresh")}
        # The incident the writes act on and the one whose parts are read: #3, acknowledged, with an alert.
        refs["latency"] = refs["past"] = pd.ref("latency")
        refs["past_alert"] = pd.ref("latency_alert")
    else:
        refs = {name: pd.ref(ref) for name, ref in ACME_PAGERDUTY.items()}
        alerts = call("GET /incidents/{id}/alerts", f"/incidents/{refs['past']}/alerts", False)["alerts"]
        refs["past_alert"] = alerts[0]["id"]
        refs["p1"] = call("GET /priorities", "/priorities", False)["priorities"][0]["id"]
        refs["latency"], refs["fresh"] = pagerduty_pages(call, refs)
    latency, fresh = refs["latency"], refs["fresh"]
    service = {"id": refs["orders_svc"], "type": "service_reference"}
    priority = {"id": refs["p1"], "type": "priority_reference"}  # the recorded examples set one
    created = call(
        "POST /incidents",
        "/incidents",
        json={
            "incident": {
                "type": "incident",
                "title": "Orders checkout failing",
                "service": service,
                "priority": priority,
            }
        },
    )["incident"]["id"]
    call("POST /incidents/{id}/notes", f"/incidents/{latency}/notes", json={"note": {"content": "Rolling back."}})
    call(
        "POST /incidents/{id}/responder_requests",
        f"/incidents/{latency}/responder_requests",
        json={
            "requester_id": refs["maya"],
            "message": "Please help",
            "responder_request_targets": [{"responder_request_target": {"id": refs["sam"], "type": "user_reference"}}],
        },
    )
    call(
        "POST /incidents/{id}/status_updates", f"/incidents/{latency}/status_updates", json={"message": "Rolling back."}
    )
    call("POST /incidents/{id}/snooze", f"/incidents/{latency}/snooze", json={"duration": 3600})
    call(
        "PUT /incidents",
        "/incidents",
        json={"incidents": [{"id": fresh, "type": "incident_reference", "status": "acknowledged"}]},
    )
    call(
        "PUT /incidents/{id}",
        f"/incidents/{fresh}",
        False,  # measured below, with a conference bridge as the recorded example
        json={"incident": {"type": "incident", "urgency": "high", "priority": priority}},
    )
    bridge = {"conference_number": "+1 415-555-1212,,,,1234#", "conference_url": "https://meet.acme.test/orders"}
    call(
        "PUT /incidents/{id}",
        f"/incidents/{latency}",
        json={"incident": {"type": "incident", "conference_bridge": bridge}},
    )
    call(
        "PUT /incidents/{id}/merge",
        f"/incidents/{fresh}/merge",
        json={"source_incidents": [{"id": created, "type": "incident_reference"}]},
    )
    call(
        "POST /maintenance_windows",
        "/maintenance_windows",
        json={
            "maintenance_window": {
                "type": "maintenance_window",
                "start_time": "2026-03-02T15:00:00Z",
                "end_time": "2026-03-02T16:00:00Z",
                "description": "Database upgrade",
                # A service with a team, as the recorded example's window shows teams.
                "services": [{"id": refs["orders_svc"], "type": "service_reference"}],
            }
        },
    )
    week = {"since": "2026-03-02T00:00:00Z", "until": "2026-03-09T00:00:00Z"}
    call("GET /escalation_policies", "/escalation_policies")
    call("GET /escalation_policies/{id}", f"/escalation_policies/{refs['ep']}")
    statuses = {"statuses[]": ["triggered", "acknowledged", "resolved"]}
    bridged = {"include[]": "conference_bridge"}  # the recorded examples show the bridge
    call("GET /incidents", "/incidents", params={**statuses, **bridged})
    call("GET /incidents/{id}", f"/incidents/{latency}", params=bridged)
    # An incident's parts are read on the world's own incident where it has one (acme's of yesterday).
    past = refs["past"]
    call("GET /incidents/{id}/alerts", f"/incidents/{past}/alerts")
    call("GET /incidents/{id}/alerts/{alert_id}", f"/incidents/{past}/alerts/{refs['past_alert']}")
    entries = call("GET /incidents/{id}/log_entries", f"/incidents/{past}/log_entries")["log_entries"]
    call("GET /incidents/{id}/notes", f"/incidents/{past}/notes")
    call("GET /incidents/{id}/related_change_events", f"/incidents/{past}/related_change_events")
    call("GET /log_entries", "/log_entries")
    trigger = next(e for e in entries if e["type"] == "trigger_log_entry")  # the recorded example's kind
    call("GET /log_entries/{id}", f"/log_entries/{trigger['id']}")
    call("GET /oncalls", "/oncalls", params=week)
    call("GET /priorities", "/priorities")
    call("GET /schedules", "/schedules")
    next_oncall = {"include_next_oncall_for_user": refs["sam"]}
    call("GET /schedules/{id}", f"/schedules/{refs['primary']}", params={**week, **next_oncall})
    call("GET /services", "/services")
    call("GET /services/{id}", f"/services/{refs['orders_svc']}")
    call("GET /teams", "/teams")
    call("GET /users", "/users")
    call("GET /users/me", "/users/me")
    call("GET /users/{id}", f"/users/{refs['maya']}")  # one's own: with the calendar URLs
    return answers


def pagerduty_pages(call: Callable[..., Any], refs: dict[str, str]) -> tuple[str, str]:
    """Two pages the monitors send to the Orders API through its Events API v2 integration (its routing key
    read from the service, as a sender's set-up would): p99 latency, acknowledged by the agent with a
    priority, and errors, left triggered. Their ids, in that order; no call here is measured."""

    service = f"/services/{refs['orders_svc']}"
    integration = call("GET /services/{id}", service, False)["service"]["integrations"][0]["id"]
    found = call("GET /services/{id}/integrations/{integration_id}", f"{service}/integrations/{integration}", False)
    key = found["integration"]["integration_key"]
    opened = []
    for monitor, summary, dedup in [
        ("Orders p99 latency", "p99 latency 2.4s", "orders-latency"),
        ("Orders error count", "140 errors in 10 minutes", "orders-errors"),
    ]:
        payload = {
            "summary": summary,
            "source": "datadog",
            "severity": "critical",
            "custom_details": {"monitor": monitor},
        }
        event = {"routing_key": key, "event_action": "trigger", "dedup_key": dedup, "payload": payload}
        call("POST /v2/enqueue", "/v2/enqueue", False, token=None, json=event)  # a routing key, no token
        opened.append(call("GET /incidents", "/incidents", False, params={"incident_key": dedup})["incidents"][0]["id"])
    priority = {"id": refs["p1"], "type": "priority_reference"}
    call(
        "PUT /incidents/{id}",
        f"/incidents/{opened[0]}",
        False,
        json={"incident": {"type": "incident", "status": "acknowledged", "priority": priority}},
    )
    return opened[0], opened[1]


def calendar_answers(stage: Any, world: str) -> Answers:
    from tests.services.calendar.conftest import calendar_world
    from tests.services.calendar.test_world import SCENE

    # The tailored world adds to the tests' one a recurring event in its own zone on the shared calendar, as the
    # recorded events list shows.
    rota = '      - {calendar: $oncall, summary: Rota review, start: "2026-03-02T10:00:00-08:00", duration: 30m,\n'
    rota += '         time_zone: America/Los_Angeles, recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"]}\n'
    c = calendar_world(stage.world(SCENE + rota if world == "tailored" else ACME))
    answers = Answers({}, [])

    def call(operation: str, method: str, path: str, **kwargs: Any) -> Any:
        response = c.raw(method, path, **kwargs)
        return answers.keep(operation, response.status_code, response.text)

    call("GET /calendar/v3/users/me/calendarList", "GET", "users/me/calendarList")  # as gcalcli: no parameters
    # As northworld/google_calendar's client makes its calls: a shared calendar with a description and a
    # location (the recorded one has both), its events with no parameters, an event read and one made with
    # a description and a shared extended property, and the free/busy of a busy and a free calendar.
    shared = c.ref("oncall" if world == "tailored" else "oncall_calendar")
    call("GET /calendar/v3/calendars/{calendarId}", "GET", f"calendars/{shared}")
    call("GET /calendar/v3/calendars/{calendarId}/events", "GET", f"calendars/{shared}/events")
    made = call(
        "POST /calendar/v3/calendars/{calendarId}/events",
        "POST",
        "calendars/primary/events",
        json={
            "summary": "New Event",
            "description": "A New Event",
            "start": {"dateTime": "2026-03-04T20:17:31-08:00"},
            "end": {"dateTime": "2026-03-04T21:17:31-08:00"},
            "extendedProperties": {"shared": {"key": "value"}},
        },
    )
    call("GET /calendar/v3/calendars/{calendarId}/events/{eventId}", "GET", f"calendars/primary/events/{made['id']}")
    call(
        "POST /calendar/v3/freeBusy",
        "POST",
        "freeBusy",
        json={
            "timeMin": "2026-03-02T00:00:00Z",
            "timeMax": "2026-03-10T23:59:59Z",
            "items": [{"id": "primary"}, {"id": shared}],
        },
    )
    return answers


def gmail_answers(stage: Any, world: str) -> Answers:
    from tests.services.gmail.conftest import MAIL, gmail_world

    g = gmail_world(stage.world(MAIL if world == "tailored" else ACME))
    answers = Answers({}, [])

    def call(operation: str, method: str, path: str, measured: bool = True, **kwargs: Any) -> Any:
        response = g.raw(method, path, **kwargs)
        return answers.keep(operation, response.status_code, response.text, measured)

    call("GET /gmail/v1/users/{userId}/profile", "GET", "gmail/v1/users/me/profile")  # as Home Assistant: no parameters
    # The recorded message is mail with a text part and an attached file, read in the client's default format
    # (full). The tailored world has such mail (the vendor's report); in the shipped world Maya first sends
    # herself some.
    if world == "tailored":
        with_file = g.ref("report")
    else:
        sent = call(
            "POST /gmail/v1/users/{userId}/messages/send",
            "POST",
            "gmail/v1/users/me/messages/send",
            False,
            json={"raw": _with_attachment("maya@acme.test")},
        )
        with_file = sent["id"]
    call("GET /gmail/v1/users/{userId}/messages/{id}", "GET", f"gmail/v1/users/me/messages/{with_file}")
    # The recorded draft was written in Gmail's composer, which makes text and HTML alternatives; it is read in
    # the default format too.
    made = call(
        "POST /gmail/v1/users/{userId}/drafts",
        "POST",
        "gmail/v1/users/me/drafts",
        False,
        json={"message": {"raw": _alternatives("omar@acme.test")}},
    )
    call("GET /gmail/v1/users/{userId}/drafts/{id}", "GET", f"gmail/v1/users/me/drafts/{made['id']}")
    return answers


def _with_attachment(to: str) -> str:
    message = EmailMessage()
    message["To"], message["Subject"] = to, "Disclaimer"
    message.set_content("See the attached disclaimer.")
    message.add_attachment(b"Not an offer.", maintype="text", subtype="plain", filename="disclaim.txt")
    return base64.urlsafe_b64encode(message.as_bytes()).decode()


def _alternatives(to: str) -> str:
    message = EmailMessage()
    message["To"], message["Subject"] = to, "Draft"
    message.set_content("Can it parse a draft?")
    message.add_alternative('<div dir="ltr">Can it parse a <b>draft</b>?</div>', subtype="html")
    return base64.urlsafe_b64encode(message.as_bytes()).decode()


ANSWERS: dict[str, Callable[[Any, str], Answers]] = {
    "slack": slack_answers,
    "github": github_answers,
    "datadog": datadog_answers,
    "pagerduty": pagerduty_answers,
    "calendar": calendar_answers,
    "gmail": gmail_answers,
}
# Services whose test world is the shipped one: their neutral measure is their tailored one.
SHIPPED = {"github", "datadog"}


# -- measuring ---------------------------------------------------------------------------------------


@dataclass
class Measure:
    """One service measured in one world: a comparison per operation with recorded facts, and calls that
    failed."""

    service: str
    world: str
    data: dict[str, Any]
    comparisons: dict[str, Comparison]
    unanswered: list[str]  # operations with facts that soundstage's calls gave no body for
    failures: list[str]

    @property
    def average(self) -> float:
        shares = [c.share for c in self.comparisons.values()]
        return round(sum(shares) / len(shares), 4) if shares else 1.0

    @property
    def mismatches(self) -> int:
        return sum(len(c.mismatches) for c in self.comparisons.values())

    @property
    def floor(self) -> float:
        return float(self.data["floors"][self.world])

    @property
    def max_mismatches(self) -> int:
        return int(self.data["max_mismatches"][self.world])


def measure(stage: Any, service: str, world: str = "tailored") -> Measure:
    data = recorded(service)
    calls = ANSWERS.get(service)
    answers = calls(stage, "tailored" if service in SHIPPED else world) if calls is not None else Answers({}, [])
    exclusions = list(data["exclusions"])
    comparisons = {
        operation: compare(facts["paths"], answers.bodies[operation], exclusions)
        for operation, facts in data["operations"].items()
        if operation in answers.bodies
    }
    unanswered = [operation for operation in data["operations"] if operation not in answers.bodies]
    return Measure(service, world, data, comparisons, unanswered, answers.failures)


# -- the generated page ------------------------------------------------------------------------------


def render(measures: list[Measure]) -> str:
    """The coverage page of one service from its measures, the tailored one first."""
    m = measures[0]
    no_facts = [op for op in REGISTRY[m.service].operations() if op not in m.data["operations"]]
    lines = [f"# {m.service}: coverage of real responses", ""]
    if "origin" not in m.data:
        lines += [
            f"Generated by `{REGENERATE}`; do not edit. No real response of {m.service} is recorded (no",
            f"tests/services/recorded/{m.service}.json), so none of its operations is measured: "
            + ", ".join(f"`{op}`" for op in no_facts)
            + ".",
        ]
        return "\n".join(lines) + "\n"
    origins = " and ".join(
        f"{origin['repository']} at commit {origin['commit'][:12]}"
        for origin in m.data.get("origins", [m.data["origin"]])
    )
    lines += [
        f"Generated by `{REGENERATE}`; do not edit. It compares, per operation, the key paths of one real",
        f"response ({origins}; see",
        "tests/services/recorded/SOURCES.md) with those of soundstage's answer to the same request, made as the",
        "recorded one was. A key path is keys joined by `.`, `[]` for list elements; `{}` is a key that is data.",
        "",
        "The same calls are measured in two worlds: *tailored*, the world of the service's tests, which has",
        "something of every kind the recorded responses show, and *neutral*, the shipped world",
        "(worlds/acme.yaml) as it is; what it lacks for a call to succeed (a message to react to, an open",
        "incident to acknowledge), the calls make first, as a user or a monitor would.",
        "",
    ]
    for each in measures:
        lines.append(
            f"- **{each.world.capitalize()}: {each.average:.1%}** of real key paths present, over"
            f" {len(each.comparisons)} operations; {each.mismatches} format mismatches. The test holds this"
            f" service to at least {each.floor:.1%}."
        )
    if m.service in SHIPPED:
        lines.append("- Its test world is the shipped one, so the two measures are one.")
    lines.append("")
    if m.data["exclusions"]:
        lines += ["Left out of the comparison (soundstage cannot have them):", ""]
        lines += [f"- `{key}`: {reason}" for key, reason in m.data["exclusions"].items()]
        lines.append("")
    if no_facts:
        lines += ["No real response recorded (so not measured): " + ", ".join(f"`{op}`" for op in no_facts) + ".", ""]
    lines += [
        "Per operation: the real key paths soundstage's answer has, and of those it lacks, how many sit under a",
        "null or an empty list in its answer (the world had nothing there to show).",
        "",
        "| operation | world | covered | share | unfilled | source |",
        "|---|---|---|---|---|---|",
    ]
    for operation in sorted(m.comparisons):
        source = m.data["operations"][operation]["source"]
        for each in measures:
            c = each.comparisons[operation]
            lines.append(
                f"| `{operation}` | {each.world} | {len(c.covered)}/{len(c.real)} | {c.share:.0%}"
                f" | {len(c.unfilled)} | {source} |"
            )
    for operation in sorted(m.comparisons):
        compared = [(each, each.comparisons[operation]) for each in measures]
        shown = [(each, c) for each, c in compared if c.missing or c.mismatches]
        if shown:
            lines += ["", f"## `{operation}`"]
        for each, c in shown:
            lines += ["", f"{each.world.capitalize()}:", ""]
            absent = [path for path in c.missing if path not in c.unfilled]
            if absent:
                lines.append(f"- Missing ({len(absent)}): " + ", ".join(f"`{p}`" for p in absent))
            if c.unfilled:
                lines.append(f"- Unfilled ({len(c.unfilled)}): " + ", ".join(f"`{p}`" for p in c.unfilled))
            lines += [f"- Format mismatch: `{text}`" for text in c.mismatches]
    return "\n".join(lines) + "\n"
