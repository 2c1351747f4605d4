"""The vendors' official Node SDKs (@slack/web-api, @octokit/rest, @datadog/datadog-api-client) run a workflow
each against a live world, from the agent's environment alone: whatever they cannot read fails here.

The packages are those of package-lock.json, installed once (conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

SCENE = """
name: node-sdks
world: acme
task: Answer the customer in #support, merge the totals fix and silence the batch disk monitor.
agent: {slack_user: $bot, github_user: $bot_gh, datadog_user: $bot_dd, pagerduty_user: $bot_pd}
"""

QUESTION = (
    "A customer (Northwind) asks: where do I find the CSV export of my orders? They can't see it on the dashboard."
)
ANSWER = "The CSV export is under Reports &gt; Exports; big exports arrive by email within 10 minutes."  # escaped


@pytest.fixture
def world(stage: Any) -> Any:
    return stage.world(SCENE)


def run_script(node_sdks: Path, world: Any, script: str, warns: str = "") -> Any:
    """What `script` printed; on stderr it may print only `warns` (the SDKs log there what a server's answer
    warned of)."""
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), **world.env}
    done = subprocess.run(
        ["node", script], cwd=node_sdks, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stderr) == (0, warns)
    return json.loads(done.stdout)


def calls(world: Any) -> list[tuple[str, str, str, int, bool]]:
    return [(c.service, c.method, c.path, c.status, c.error) for c in world.world.log.calls()]


def test_slack_web_api_answers_in_a_thread_and_reacts(node_sdks, world):
    seen = run_script(node_sdks, world, "slack.js")
    assert seen == {
        "channels": ["general", "support", "engineering", "incidents", "random", "ext-northwind"],
        "history": ["Also FYI: Globex reports slow order search this morning, investigating.", QUESTION],
        "posted": {"ok": True, "channel": True, "thread_ts": True},
        "replies": [["laura", QUESTION], ["stagebot", ANSWER], ["stagebot", ""]],  # the file shared in the thread
        "reply_count": 2,
        "file": ["export.csv", "Export", 14, "csv"],  # 14 bytes: the file's, not the multipart form's
        "people": [3, ["alex", "jonas", "kenji", "laura", "maya", "nina.park", "omar", "priya", "sam", "slackbot"]],
        "reactions": [["white_check_mark", ["stagebot"]]],
    }
    made = calls(world)
    uploads = [call for call in made if call[2].startswith("/upload/v1/")]
    assert [(service, method, status, error) for service, method, _, status, error in uploads] == [
        ("slack", "POST", 200, False)
    ]
    assert [call for call in made if call not in uploads] == [
        ("slack", "POST", f"/api/{method}", 200, False)
        for method in (
            "conversations.list",
            "conversations.history",
            "chat.postMessage",
            "reactions.add",
            "files.getUploadURLExternal",
            "files.completeUploadExternal",
            "files.info",
            "conversations.replies",
            "reactions.get",
            "users.list",
            "users.list",
            "users.list",
            "users.info",
            "users.info",
        )
    ]


def test_octokit_reviews_comments_labels_and_merges(node_sdks, world):
    seen = run_script(node_sdks, world, "github.js")
    assert seen == {
        "repo": ["acme/orders", "main", False],
        "issues": [
            [5, "Fix wrong totals by turning the totals cache off", [], True],
            [4, "Key the totals cache by order id", [], True],
            [3, "Document the totals cache", ["docs"], False],
            [2, "Order search is case-sensitive", ["bug"], False],
            [1, "Wrong order totals for customers with several orders", ["bug", "p1"], False],
        ],
        "pulls": [
            [5, "Fix wrong totals by turning the totals cache off", "cache-off", "main", "omar"],
            [4, "Key the totals cache by order id", "fix-totals-cache", "main", "maya"],
        ],
        "diff_files": ["src/app.py", "tests/test_app.py"],
        "diff_starts": "diff --git a/src/app.py b/src/app.py",
        "comment": ["stagebot", "The fix is in #4: the totals cache is keyed by order id.", True],
        "labels": ["bug"],
        "merged": [True, "Pull Request successfully merged", True],
        "after": ["closed", True, "stagebot"],
        "everything": [[5, "open"], [4, "closed"], [3, "open"], [2, "open"], [1, "closed"]],  # 4 fixes 1
        "comments": [["stagebot", "The fix is in #4: the totals cache is keyed by order id."]],
    }
    assert calls(world) == [
        ("github", "GET", "/repos/acme/orders", 200, False),
        ("github", "GET", "/repos/acme/orders/issues", 200, False),
        ("github", "GET", "/repos/acme/orders/pulls", 200, False),
        ("github", "GET", "/repos/acme/orders/pulls/4", 200, False),
        ("github", "POST", "/repos/acme/orders/issues/1/comments", 201, False),
        ("github", "POST", "/repos/acme/orders/issues/4/labels", 200, False),
        ("github", "PUT", "/repos/acme/orders/pulls/4/merge", 200, False),
        ("github", "GET", "/repos/acme/orders/pulls/4", 200, False),
        ("github", "GET", "/repos/acme/orders/issues", 200, False),
        ("github", "GET", "/repos/acme/orders/issues", 200, False),
        ("github", "GET", "/repos/acme/orders/issues", 200, False),
        ("github", "GET", "/repos/acme/orders/issues/1/comments", 200, False),
    ]


def test_datadog_api_client_reads_monitors_and_metrics_and_makes_a_downtime_and_an_incident(node_sdks, world):
    seen = run_script(node_sdks, world, "datadog.js", warns="Using unstable operation 'createIncident'\n")
    assert seen == {
        "unparsed": [],
        "valid": True,
        "monitors": [
            ["Orders p99 latency", "query alert", "OK"],
            ["Orders error count", "query alert", "OK"],
            ["Disk usage high on batch hosts", "query alert", "OK"],
        ],
        "groups": [["host:batch-1", "OK"], ["host:batch-2", "OK"]],
        "series": [
            ["host:batch-1,role:batch", 60, 61, "fraction"],
            ["host:batch-2,role:batch", 60, 61, "fraction"],
        ],
        "downtime": ["host:batch-1", "Planned reindex on batch-1", True, "active", 7200],
        "incident": ["incidents", "Batch disks filling during the reindex", False],
    }
    assert calls(world) == [
        ("datadog", "GET", "/api/v1/validate", 200, False),
        ("datadog", "GET", "/api/v1/monitor", 200, False),
        ("datadog", "GET", "/api/v1/monitor/groups/search", 200, False),
        ("datadog", "GET", "/api/v1/query", 200, False),
        ("datadog", "POST", "/api/v2/downtime", 200, False),
        ("datadog", "POST", "/api/v2/incidents", 201, False),
    ]
    [downtime] = world.state()["datadog.downtimes"]
    assert (downtime["scope"], downtime["message"]) == ("host:batch-1", "Planned reindex on batch-1")
