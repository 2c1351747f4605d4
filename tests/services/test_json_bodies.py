"""JSON bodies with values no reply could carry back, which used to be stored as they came: the reply (or a
later one showing the record) could not be encoded, and the call was a 500.

- Strings that are no Unicode text (a lone UTF-16 surrogate, escaped or as raw bytes) get each vendor's
  answer to JSON it cannot parse, change nothing, and are in the trace.
- Integers past int64 are read as floats, as Slack's PHP and Datadog's Go read them (Datadog then refuses
  one where it stores an integer)."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.pagerduty.store import INCIDENTS
from soundstage.services.slack.store import CHANNELS

SCENE = """
name: json-text
world: acme
task: Nothing; the test makes the calls.
agent: {slack_user: $bot, github_user: $bot_gh, datadog_user: $bot_dd, pagerduty_user: $bot_pd}
"""
# A body template per service: `{text}` is where the string goes, raw JSON.
CALLS = {
    "slack": ("POST", "chat.postMessage", '{{"channel": "{general}", "text": {text}}}'),
    "github": ("POST", "/repos/acme/orders/issues", '{{"title": {text}}}'),
    "datadog": ("POST", "/api/v1/events", '{{"title": {text}, "text": "x"}}'),
    "pagerduty": ("POST", "/incidents/x/notes", '{{"note": {{"content": {text}}}}}'),
}
NOT_JSON = "body is not valid JSON: a string holds a lone UTF-16 surrogate"
REFUSED = {
    "slack": (200, {"ok": False, "error": "invalid_json"}),
    "github": (
        400,
        {"message": "Problems parsing JSON", "documentation_url": "https://docs.github.com/rest", "status": "400"},
    ),
    "datadog": (400, {"errors": [f"Invalid JSON: {NOT_JSON}"]}),
    "pagerduty": (
        400,
        {
            "error": {
                "message": "Invalid Input Provided",
                "code": 2001,
                "errors": [f"The request body could not be parsed: {NOT_JSON}"],
            }
        },
    ),
}


@pytest.fixture(scope="module")
def live(stage: Any) -> Any:
    return stage.world(SCENE)


def send(live: Any, service: str, text: bytes) -> Any:
    method, path, template = CALLS[service]
    general = next(c["id"] for c in live.world[CHANNELS] if c["name"] == "general")
    body = template.replace("{general}", general).format(text="\x00").encode().replace(b"\x00", text)
    headers = {"Content-Type": "application/json; charset=utf-8", "User-Agent": "test"}
    env = live.env
    headers.update(
        {
            "slack": {"Authorization": f"Bearer {env['SLACK_BOT_TOKEN']}"},
            "github": {"Authorization": f"token {env['GITHUB_TOKEN']}"},
            "datadog": {"DD-API-KEY": env["DD_API_KEY"], "DD-APPLICATION-KEY": env["DD_APP_KEY"]},
            "pagerduty": {"Authorization": f"Token token={env['PAGERDUTY_TOKEN']}", "From": env["PAGERDUTY_FROM"]},
        }[service]
    )
    base = env["SLACK_API_URL"] if service == "slack" else live.urls[service]
    incident = live.world[INCIDENTS].ids()[0]
    http = live.stage.https if base.startswith("https:") else live.http
    return http.request(method, base + path.replace("/x/", f"/{incident}/"), content=body, headers=headers)


@pytest.mark.parametrize("service", sorted(CALLS))
@pytest.mark.parametrize(
    "text",
    [rb'"\ud800"', rb'"a\udfff b"', rb'"\uDBFF"', b'"\xed\xa0\x80"', rb'"\ud800\ud800"', rb'"x", "\udc00": "y"'],
    ids=["high", "low-inside", "upper-case", "raw-bytes", "two-highs", "in-a-key"],
)
def test_a_lone_surrogate_is_json_the_vendor_cannot_parse(live: Any, service: str, text: bytes) -> None:
    before = live.world.log.last_seq
    response = send(live, service, text)
    status, body = REFUSED[service]
    assert response.status_code == status, response.text
    got = response.json()
    if service == "slack":  # Slack adds what the parser said, in `response_metadata`
        got = {key: got[key] for key in body}
    assert got == body
    events = live.world.log.after(before)
    assert [e.kind for e in events] == ["call"]


@pytest.mark.parametrize("service", sorted(CALLS))
def test_a_surrogate_pair_is_a_character(live: Any, service: str) -> None:
    response = send(live, service, rb'"\ud83d\ude00 ok"')
    assert response.status_code in (200, 201, 202), response.text
    assert response.json().get("ok", True) is True


def test_an_integer_past_int64_is_read_as_a_float(live: Any) -> None:
    general = next(c["id"] for c in live.world[CHANNELS] if c["name"] == "general")
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "x"}, "n": 10**30}]
    response = live.http.post(
        live.env["SLACK_API_URL"] + "chat.postMessage",
        json={"channel": general, "text": "x", "blocks": blocks},
        headers={"Authorization": f"Bearer {live.env['SLACK_BOT_TOKEN']}"},
    )
    assert response.json()["message"]["blocks"][0]["n"] == 1e30
    response = live.http.post(
        live.urls["github"] + "/repos/acme/orders/deployments",
        json={"ref": "main", "environment": "staging", "payload": {"n": 10**30, "m": -(2**63)}},
        headers={"Authorization": f"token {live.env['GITHUB_TOKEN']}", "User-Agent": "test"},
    )
    assert (response.status_code, response.json()["payload"]) == (201, {"n": 1e30, "m": -(2**63)})
