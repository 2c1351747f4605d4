"""People hearing the agent's mail by the rules of Slack: what the agent tells them by mail counts as told wherever
they are asked next, and an agent with a Slack user is that user in the events of its mail."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from typing import Any

from tests.services.google_world import SCENE as GOOGLE_SCENE

from soundstage.checks import score_custom

# The agent is the bot in Slack and Maya in Google. Omar answers in 5 minutes; he shares the incident's cause only
# with someone who told him the customer's workspace, which is Laura's (she is not in the world's mail).
SCENE = (
    GOOGLE_SCENE.replace("agent: {google_user: $maya}", "agent: {slack_user: $bot, google_user: $maya}")
    + """      - {ref: laura, name: laura, real_name: Laura Diaz}
people:
  - ref: omar
    slack_user: $omar
    reply_after: 5m
    facts:
      - id: cause
        text: "A bad deploy broke checkout."
        match: ["bad deploy"]
        ask: ["cause"]
        share_if: {told: [laura.workspace]}
  - ref: laura
    slack_user: $laura
    facts:
      - {id: workspace, text: "Northwind is on W-4821.", match: ["W-4821"], ask: ["workspace"]}
"""
)


def send(live: Any, to: str, subject: str, body: str) -> dict[str, Any]:
    message = EmailMessage()
    message["To"] = to
    message["Subject"] = subject
    message.set_content(body)
    raw = base64.urlsafe_b64encode(message.as_bytes()).decode()
    response = live.http.post(
        live.env["GMAIL_API_URL"] + "gmail/v1/users/me/messages/send",
        json={"raw": raw},
        headers={"Authorization": f"Bearer {live.env['GOOGLE_OAUTH_TOKEN']}"},
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def kinds(live: Any, *wanted: str) -> list[tuple[str, ...]]:
    names = {v: "$" + k for k, v in live.world.refs.items()}
    return [
        (
            e["kind"],
            names.get(e.get("person") or e["user"], "?"),
            e.get("fact") or "",
            names.get(e.get("to", ""), "") if e["kind"] != "message" else "",
        )
        for e in live.events()
        if e["kind"] in wanted
    ]


def test_the_agent_in_its_mail_is_its_slack_user_and_mail_tells_as_slack_does(people: Any) -> None:
    live = people(SCENE)
    sent = send(live, "omar@acme.test", "Checkout", "Omar, Northwind (W-4821) is down. What is the cause?")
    live.advance("5m")
    # Told by mail: he shares the cause, by mail, with the agent as the scene names it.
    assert kinds(live, "message", "told", "revealed") == [
        ("message", "$bot", "", ""),
        ("told", "$omar", "laura.workspace", ""),
        ("revealed", "$omar", "omar.cause", "$bot"),
        ("message", "$omar", "", ""),
    ]
    said = [e for e in live.events() if e["kind"] == "message"]
    assert [(e["service"], e["from_agent"], e["facts"]) for e in said] == [
        ("gmail", True, ["laura.workspace"]),
        ("gmail", False, ["omar.cause"]),
    ]
    assert said[0]["ts"] == sent["id"]
    evaluation = score_custom(live.world, [{"id": "cause", "revealed": ["omar.cause"]}])
    assert [(c.id, c.passed) for c in evaluation.checks] == [("cause", True)]
    # Slack's messages are events of Slack, as before.
    channel = live.slack().conversations_open(users=live.world.refs["omar"])["channel"]["id"]
    live.slack().chat_postMessage(channel=channel, text="Thanks Omar!")
    assert [e["service"] for e in live.events() if e["kind"] == "message"][2:] == ["slack"]


def test_without_being_told_the_same_question_by_mail_is_refused(people: Any) -> None:
    live = people(SCENE)
    send(live, "omar@acme.test", "Checkout", "Omar, Northwind is down. What is the cause?")
    live.advance("5m")
    assert kinds(live, "told", "revealed", "withheld") == [("withheld", "$omar", "omar.cause", "$bot")]
