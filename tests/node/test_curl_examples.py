"""The vendors' documented curl examples of a few key operations, sent by curl itself to a live world: the
headers and bodies exactly as the examples give them (a form content type on a JSON body for GitHub's, since
its example sets none), only the host and the credentials taken from the agent's environment."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from string import Template
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not on PATH")

SCENE = """
name: curl-examples
world: acme
task: Try the vendors' curl examples.
agent: {slack_user: $bot, github_user: $bot_gh, datadog_user: $bot_dd, pagerduty_user: $bot_pd}
"""


@pytest.fixture
def world(stage: Any) -> Any:
    return stage.world(SCENE)


def curl(world: Any, example: str, **values: str) -> tuple[int, Any]:
    """Runs the curl command line `example`, its `$NAME`s those of the agent's environment or of `values`,
    and answers the status and the JSON body."""
    argv = shlex.split(Template(example).substitute(world.env, **values))
    assert argv[0] == "curl"
    argv[1:1] = ["--silent", "--show-error", "--write-out", "\\n%{http_code}"]
    done = subprocess.run(
        argv, env={"PATH": os.environ["PATH"]}, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    body, status = done.stdout.rsplit("\n", 1)
    return int(status), json.loads(body)


def only_call(world: Any) -> tuple[str, str, str, int, bool]:
    [call] = world.world.log.calls()
    return (call.service, call.method, call.path, call.status, call.error)


def test_slack_chat_post_message(world):
    general = next(c["id"] for c in world.state()["slack.channels"] if c["name"] == "general")
    status, body = curl(
        world,
        """curl -X POST -H 'Authorization: Bearer $SLACK_BOT_TOKEN' -H 'Content-type: application/json'
        --data '{"channel":"$channel","text":"I hope the tour went well, Mr. Wonka."}'
        ${SLACK_API_URL}chat.postMessage""",
        channel=general,
    )
    assert status == 200
    assert (body["ok"], body["channel"], body["message"]["text"]) == (
        True,
        general,
        "I hope the tour went well, Mr. Wonka.",
    )
    assert only_call(world) == ("slack", "POST", "/api/chat.postMessage", 200, False)


def test_github_create_an_issue_comment_without_a_content_type(world):
    status, body = curl(
        world,
        """curl -L -X POST -H "Accept: application/vnd.github+json" -H "Authorization: Bearer $GITHUB_TOKEN"
        -H "X-GitHub-Api-Version: 2022-11-28" $GITHUB_API_URL/repos/acme/orders/issues/1/comments
        -d '{"body":"Me too"}'""",
    )
    assert status == 201
    assert (body["body"], body["user"]["login"], body["author_association"]) == ("Me too", "stagebot", "MEMBER")
    assert only_call(world) == ("github", "POST", "/repos/acme/orders/issues/1/comments", 201, False)


def test_datadog_validate_api_key(world):
    status, body = curl(
        world,
        '''curl -X GET "${DATADOG_API_URL}/api/v1/validate" -H "Accept: application/json"
        -H "DD-API-KEY: ${DD_API_KEY}"''',
    )
    assert (status, body) == (200, {"valid": True})
    assert only_call(world) == ("datadog", "GET", "/api/v1/validate", 200, False)


def test_pagerduty_list_incidents(world):
    """curl trusts soundstage's CA only when told: it reads neither SSL_CERT_FILE nor REQUESTS_CA_BUNDLE."""
    status, body = curl(
        world,
        """curl --cacert $SSL_CERT_FILE --request GET --url $PAGERDUTY_API_URL/incidents
        --header 'Accept: application/vnd.pagerduty+json;version=2'
        --header 'Authorization: Token token=$PAGERDUTY_TOKEN' --header 'Content-Type: application/json'""",
    )
    assert status == 200
    assert [(i["incident_number"], i["title"], i["status"]) for i in body["incidents"]] == [
        (1, "Orders p99 latency above 800ms", "resolved")
    ]
    assert (body["limit"], body["offset"], body["more"]) == (25, 0, False)
    assert only_call(world) == ("pagerduty", "GET", "/incidents", 200, False)
