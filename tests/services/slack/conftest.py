"""Slack test scenes and helpers: live worlds on the shared test server, driven by slack_sdk and raw httpx."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from soundstage.services.slack.store import CHANNELS, MESSAGES

START = 1772460000  # 2026-03-02T14:00:00Z, the scenes' clock start

SCENE = """
name: slack-test
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $bot}
seed:
  slack:
    team:
      ref: acme
      name: Acme
      domain: acme
      plan: business_plus
      custom_icon: true
      sso: {name: okta, label: Okta}
    users:
      - {ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}
      - ref: maya
        name: maya
        real_name: Maya Chen
        title: SRE
        email: maya@acme.test
        pronouns: she/her
        custom_image: true
        status: {text: In a meeting, emoji: ":calendar:", expires_in: 1h}
        start_date: "2021-03-15"
      - ref: laura
        name: laura
        real_name: Laura Diaz
        title: Customer Success
        pronouns: they/them
        email: Laura@acme.test
        tz: Europe/Berlin
        custom_image: true
        start_date: "2020-09-01"
        status: {text: On holiday, emoji: ":palm_tree:"}
      - {ref: omar, name: omar, real_name: Omar Haddad, email: omar@acme.test, is_admin: true}
      - {ref: gone, name: gone, real_name: Former Person, email: gone@acme.test, deleted: true}
    channels:
      - ref: general
        name: general
        members: [$bot, $maya, $laura, $omar]
        posting_restricted_to: {type: [admin], user: [$bot]}
        threads_restricted_to: {type: [admin], user: [$bot, $maya]}
      - ref: support
        name: support
        members: [$bot, $maya, $laura]
        topic: Customer questions
        purpose: Help customers
        previous_names: [helpdesk]
      - {ref: random, name: random, members: [$maya]}
      - {ref: secret, name: secret, members: [$maya, $laura], is_private: true}
      - {ref: ops, name: ops, members: [$bot, $maya], is_private: true}
      - {ref: old, name: old-project, members: [$bot, $maya], is_archived: true}
    messages:
      - {ref: welcome, channel: $general, user: $maya, text: "Welcome everyone", ago: 3h}
      - ref: question
        channel: $support
        user: $laura
        text: "Where is the CSV export? A customer asked."
        pinned: true
      - {ref: reply, channel: $support, user: $maya, text: "Under Reports, I think", thread_ts: $question}
      - ref: bot_note
        channel: $support
        user: $bot
        text: "I am looking into the export"
        reactions: {eyes: [$maya, $laura]}
      - {ref: secret_note, channel: $secret, user: $laura, text: "Contract renewal is at risk"}
      - {ref: dm, channel: $bot, user: $maya, text: "Can you check the export job?", ago: 2h}
      - {ref: lunch, channel: $random, user: $maya, text: "Lunch at noon? https://lunch.acme.test", ago: 1h}
      - {ref: old_note, channel: $old, user: $maya, text: "Project wrapped up", ago: 20d}
    usergroups:
      - ref: sre
        name: SRE team
        handle: sre
        description: Site reliability
        users: [$maya, $omar]
        channels: [$support]
      - {ref: old_group, name: Old team, handle: old, users: [$laura], disabled: true}
    bookmarks:
      - {ref: runbook, channel: $support, title: Runbook, link: "https://wiki.acme.test/runbook", emoji: ":book:"}
"""


def ts(seconds_after_start: int, n: int = 1) -> str:
    """The `ts` of the n-th message posted in a given second after the clock start."""
    return f"{START + seconds_after_start}.{n * 100:06d}"


class Slack:
    """A live Slack world: refs, an SDK client, raw HTTP calls and the in-process records."""

    def __init__(self, live: Any) -> None:
        self.live = live
        self.world = live.world
        self.refs: dict[str, str] = live.world.refs
        self.client = live.slack()
        self.user_client = live.slack(live.user_token)
        self.base = live.env["SLACK_API_URL"]

    def __getitem__(self, ref: str) -> str:
        return self.refs[ref]

    def raw(self, method: str, *, token: str | None = "bot", http: str = "POST", **kwargs: Any) -> httpx.Response:
        """One raw HTTP call; `token` is "bot", "user", None (no token) or a literal token."""
        headers = dict(kwargs.pop("headers", {}))
        literal = {"bot": self.live.token, "user": self.live.user_token}.get(token or "", token)
        if literal:
            headers.setdefault("Authorization", f"Bearer {literal}")
        return self.live.http.request(http, self.base + method, headers=headers, **kwargs)

    def call(self, method: str, *, token: str | None = "bot", **args: Any) -> dict[str, Any]:
        """A form-encoded call (the way slack_sdk sends most methods); answers the JSON body."""
        response = self.raw(method, token=token, data=args)
        assert response.status_code == 200, response.text
        return response.json()

    def error(self, method: str, *, token: str | None = "bot", **args: Any) -> str:
        """Calls a method expected to fail and answers its Slack error code."""
        body = self.call(method, token=token, **args)
        assert body["ok"] is False, json.dumps(body)
        return body["error"]

    def messages(self) -> dict[str, dict[str, Any]]:
        return {m["ts"]: dict(m) for m in self.world[MESSAGES]}

    def message(self, ts_: str) -> dict[str, Any]:
        return dict(self.world[MESSAGES].get(ts_))

    def channel(self, ref_or_id: str) -> dict[str, Any]:
        return dict(self.world[CHANNELS].get(self.refs.get(ref_or_id, ref_or_id)))

    def writes(self) -> int:
        return sum(1 for e in self.live.events() if e["kind"] == "write")


def valid_calls(s: Slack) -> list[tuple[str, dict[str, Any]]]:
    """One successful call of each method (some twice), in an order that works on the SCENE world."""
    support, question = s["support"], s["question"]
    return [
        ("auth.test", {}),
        ("team.info", {}),
        ("users.list", {"include_locale": "1"}),
        ("users.info", {"user": s["maya"], "include_locale": "1"}),
        ("users.info", {"user": s["bot"], "include_locale": "1"}),
        ("users.info", {"user": s["gone"]}),
        ("users.lookupByEmail", {"email": "maya@acme.test"}),
        ("users.conversations", {"types": "public_channel,private_channel,mpim,im"}),
        ("users.profile.get", {"user": s["laura"]}),
        ("conversations.list", {"types": "public_channel,private_channel,mpim,im"}),
        ("conversations.info", {"channel": support, "include_num_members": "1", "include_locale": "1"}),
        ("conversations.history", {"channel": support}),
        ("conversations.replies", {"channel": support, "ts": question}),
        ("conversations.members", {"channel": support}),
        ("conversations.open", {"users": s["laura"]}),
        ("conversations.open", {"users": f"{s['laura']},{s['maya']}", "return_im": "1"}),
        ("conversations.join", {"channel": s["random"]}),
        ("conversations.join", {"channel": support}),  # already a member: a warning
        ("conversations.create", {"name": "schema-check"}),
        ("conversations.invite", {"channel": support, "users": s["omar"]}),
        ("conversations.kick", {"channel": support, "user": s["omar"]}),
        ("conversations.setTopic", {"channel": support, "topic": "t"}),
        ("conversations.setPurpose", {"channel": support, "purpose": "p"}),
        ("conversations.rename", {"channel": s["random"], "name": "fun"}),
        ("conversations.leave", {"channel": s["random"]}),
        ("conversations.archive", {"channel": s["ops"]}),
        ("conversations.unarchive", {"channel": s["ops"], "token": "user"}),  # bots cannot unarchive
        (
            "chat.postMessage",
            {
                "channel": support,
                "text": "hi all",
                "thread_ts": question,
                "reply_broadcast": "1",
                "username": "Stage",
                "icon_emoji": ":robot_face:",
                "metadata": json.dumps({"event_type": "export_checked", "event_payload": {"job": "csv"}}),
                "attachments": json.dumps([{"text": "Export job: done", "color": "good"}]),
            },
        ),
        ("chat.postMessage", {"channel": support, "text": "hi", "thread_ts": question}),
        ("chat.postMessage", {"channel": s["laura"], "text": "hi"}),
        ("search.messages", {"query": "hi", "token": "user"}),  # matches with messages before them
        ("conversations.open", {"users": s["laura"], "return_im": "1"}),  # the DM has the bot's message
        (
            "chat.update",
            {
                "channel": support,
                "ts": s["bot_note"],
                "text": "edited",
                "metadata": json.dumps({"event_type": "export_checked", "event_payload": {"job": "csv"}}),
            },
        ),
        ("chat.postEphemeral", {"channel": support, "user": s["maya"], "text": "psst"}),
        ("chat.getPermalink", {"channel": support, "message_ts": question}),
        ("chat.scheduleMessage", {"channel": support, "text": "later", "post_at": str(START + 3600)}),
        ("chat.scheduledMessages.list", {}),
        ("conversations.mark", {"channel": support, "ts": question, "token": "user"}),
        ("reactions.add", {"channel": support, "timestamp": question, "name": "tada"}),
        ("reactions.get", {"channel": support, "timestamp": question}),
        ("reactions.get", {"channel": support, "timestamp": s["bot_note"]}),
        # The thread again, with the bot's replies, a reaction and metadata, a page at a time.
        ("conversations.replies", {"channel": support, "ts": question, "include_all_metadata": "1", "limit": "4"}),
        ("reactions.list", {}),
        ("reactions.remove", {"channel": support, "timestamp": question, "name": "tada"}),
        ("users.getPresence", {"user": s["bot"]}),
        ("emoji.list", {}),
        ("pins.add", {"channel": support, "timestamp": s["bot_note"]}),
        ("pins.list", {"channel": support}),
        ("usergroups.list", {"include_users": "1", "include_count": "1", "include_disabled": "1"}),
        (
            "conversations.history",
            {"channel": support, "include_all_metadata": "1", "oldest": "1767225600.000000", "latest": ts(86400)},
        ),
        ("chat.delete", {"channel": support, "ts": s["bot_note"]}),
    ]


def file_shares(s: Slack) -> list[tuple[str, dict[str, Any]]]:
    """Shares two files in #support through slack_sdk (their bytes go to an upload URL, outside the Web API
    calls), one in the channel and one in the question's thread, and answers the call that then edits the
    latter's comment: messages with files for the reads of `valid_calls` to show."""
    support = s["support"]
    s.client.files_upload_v2(
        channel=support, content="id,total\n1,10\n", filename="export.csv", initial_comment="Export"
    )
    reply = s.client.files_upload_v2(
        channel=support, thread_ts=s["question"], content="total\n10\n", filename="totals.csv", initial_comment="Totals"
    )
    shared = s.call("files.info", file=reply["file"]["id"])["file"]["shares"]
    ts_ = shared["public"][support][0]["ts"]
    metadata = json.dumps({"event_type": "totals_checked", "event_payload": {"file": "totals.csv"}})
    return [("chat.update", {"channel": support, "ts": ts_, "text": "Totals, checked", "metadata": metadata})]


@pytest.fixture
def slack(stage: Any) -> Slack:
    return Slack(stage.world(SCENE))


@pytest.fixture
def scene_world(stage: Any):
    """Builds a live world from other scene text (`scene_world(yaml)`)."""

    def make(text: str) -> Slack:
        return Slack(stage.world(text))

    return make
