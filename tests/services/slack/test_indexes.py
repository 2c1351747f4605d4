"""History, replies and search read indexes of the messages (`timeline`, `words`): they must answer
exactly what reading every message answers, in a generated world after posts, replies, broadcasts, edits,
deletes and an undone call, and in another world copied from the same image that wrote nothing."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest

from soundstage.server import Hub
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.services.slack import matching, messages, store, words
from soundstage.services.slack.store import MESSAGES
from soundstage.services.slack.timeline import in_history
from soundstage.services.slack.timestamps import ts_us
from soundstage.world import World

SCENE = """
name: slack-indexes
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $maya}
seed:
  slack:
    team: {name: Acme, domain: acme}
    users:
      - {ref: maya, name: maya, email: maya@acme.test}
      - {ref: omar, name: omar, email: omar@acme.test}
      - {ref: laura, name: laura, email: laura@acme.test}
    channels:
      - {ref: support, name: support, members: [$maya, $omar, $laura]}
      - {ref: ops, name: ops, members: [$maya, $omar]}
      - {ref: secret, name: secret, members: [$omar, $laura], is_private: true}
    messages:
      - {ref: amp, channel: $support, user: $omar, text: "Deploy & rollback <https://x.test|docs>", ago: 9h}
      - {channel: $support, user: $laura, text: "Naïve café über-cool x_y z-w #tag", ago: 8h}
      - {channel: $secret, user: $laura, text: "deploy the secret cache", ago: 7h}
      - {channel: $ops, user: $omar, text: "İstanbul ŞEHİR deploys", ago: 6h}
  generate:
    slack.messages: {channel: $support, count: 300, threads: 0.3, reactions: 0.2, span: 5h}
"""

QUERIES = [
    "deploy",
    "dep",
    "DEPLOY",
    "d",
    "cache",
    '"cache latency"',
    "in:#support deploy",
    "-deploy the",
    "from:@omar",
    "x_y",
    "in:#secret deploy",
    '"review"',
    "in:#support in:<#{support}> review",
    "again",
    "latency",
    "über",
    "naï",
    "&",
    "rollback docs",
    "has:link",
    "the a",
    "#tag",
    "zzz",
    "stanbul",
    "i",
    "şeh",
    "in:#ops",
    "is:thread",
    "in:#nowhere the",
    "-in:#ops the",
    "in:#support in:#ops",
    '"deploy review" -rollout',
    "-the",
    "z-w",
    "review",
    "before:2026-03-03 the",
]


def _call(world: World, method: str, **args: str) -> dict[str, Any]:
    principal = next(p for p in world.tokens.values() if p.service == "slack" and p.token_type == "user")
    request = ServiceRequest(
        "POST",
        f"/api/{method}",
        {},
        {"content-type": "application/x-www-form-urlencoded"},
        urlencode(args).encode(),
        "http://127.0.0.1:8750/w/x/slack",
    )
    body: dict[str, Any] = json.loads(record(world, SERVICES["slack"], principal, request)[1])
    assert body["ok"], body
    return body


def _worlds() -> tuple[World, World]:
    hub = Hub()
    image = hub.images.load(scene_yaml=SCENE)
    return hub.add(image), hub.add(image)


def _write(world: World) -> None:
    """Posts, replies, broadcasts, edits and deletes through the API, and a call undone half-way."""
    support, ops = world.refs["support"], world.refs["ops"]
    history = messages.history(world, support)
    parent = next(m for m in history if m.get("reply_count"))
    for i in range(12):
        _call(world, "chat.postMessage", channel=support if i % 2 else ops, text=f"deploy review {i} cache latency")
    for times in range(1, 5):  # scores above 2, and ties among them
        _call(world, "chat.postMessage", channel=support, text=" ".join(["latency"] * (times // 2 + 1)) + " review")
    _call(world, "chat.postMessage", channel=support, text="a reply about the deploy", thread_ts=parent["ts"])
    _call(
        world,
        "chat.postMessage",
        channel=support,
        text="broadcast deploy",
        thread_ts=parent["ts"],
        reply_broadcast="true",
    )
    mine = [m for m in messages.history(world, support) if m["user"] == world.agent["slack_user"]]
    _call(world, "chat.update", channel=support, ts=mine[0]["ts"], text="now about the rollout only")
    _call(world, "chat.update", channel=support, ts=mine[1]["ts"], text="Deploy & cache &lt;again&gt;")
    _call(world, "chat.delete", channel=support, ts=mine[2]["ts"])
    _call(world, "chat.delete", channel=support, ts=store.replies(world, parent["ts"])[-1]["ts"])
    own_parent = _call(world, "chat.postMessage", channel=support, text="a thread of mine")["ts"]
    _call(world, "chat.postMessage", channel=support, text="its reply", thread_ts=own_parent)
    _call(world, "chat.delete", channel=support, ts=own_parent)  # a tombstone: its reply remains
    at = world.begin_call()
    messages.post(world, support, world.agent["slack_user"], "undone deploy")
    messages.update(world, mine[3], world.agent["slack_user"], {"text": "undone edit"})
    messages.delete(world, mine[4])
    world.rollback()
    world.end_call(at, service="slack", method="POST", path="/api/x", status=500)


def _scanned_history(world: World, channel: str) -> list[str]:
    found = [m for m in world[MESSAGES] if m["channel"] == channel and in_history(m)]
    return [m["ts"] for m in sorted(found, key=lambda m: ts_us(m["ts"]))]


def _scanned_replies(world: World, parent_ts: str) -> list[str]:
    found = [m for m in world[MESSAGES] if m.get("thread_ts") == parent_ts and m["ts"] != parent_ts]
    return [m["ts"] for m in sorted(found, key=lambda m: ts_us(m["ts"]))]


@pytest.fixture(scope="module")
def worlds() -> tuple[World, World]:
    written, untouched = _worlds()
    _write(written)
    return written, untouched


def test_history_and_replies_are_those_of_a_scan(worlds: tuple[World, World]) -> None:
    for world in worlds:
        for channel in ("support", "ops", "secret"):
            channel_id = world.refs[channel]
            assert [m["ts"] for m in messages.history(world, channel_id)] == _scanned_history(world, channel_id)
        for parent in world[MESSAGES]:
            assert [m["ts"] for m in store.replies(world, parent["ts"])] == _scanned_replies(world, parent["ts"])


def test_history_pages_through_oldest_latest_and_cursors_as_a_scan_does(worlds: tuple[World, World]) -> None:
    world = worlds[0]
    support = world.refs["support"]
    ordered = _scanned_history(world, support)
    oldest, latest = ordered[40], ordered[-30]
    for bounds in ({}, {"oldest": oldest}, {"latest": latest}, {"oldest": oldest, "latest": latest}):
        for inclusive in ("true", "false"):
            args = {"channel": support, "limit": "7", "inclusive": inclusive, **bounds}
            low, high = ts_us(bounds.get("oldest", "0")), ts_us(bounds.get("latest", "9999999999"))
            inside = inclusive == "true"
            expected = [
                t
                for t in reversed(ordered)
                if (low < ts_us(t) or inside and low == ts_us(t)) and (ts_us(t) < high or inside and ts_us(t) == high)
            ]
            seen: list[str] = []
            body = _call(world, "conversations.history", **args)
            while True:
                seen += [m["ts"] for m in body["messages"]]
                if not body["has_more"]:
                    break
                body = _call(world, "conversations.history", cursor=body["response_metadata"]["next_cursor"], **args)
            assert seen == expected


@pytest.mark.parametrize("query", QUERIES)
def test_search_finds_what_reading_every_message_finds(
    worlds: tuple[World, World], query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = query.format(support=worlds[0].refs["support"])
    asks = [
        {"query": query, "count": "7", "page": page, "sort": sort, "sort_dir": way}
        for page in ("1", "2", "3")
        for sort in ("score", "timestamp")
        for way in ("desc", "asc")
    ]
    totals = []
    for world in worlds:
        indexed = [_call(world, "search.messages", **ask) for ask in asks]
        kept = world[MESSAGES].derived(words.Postings)
        built = words.Postings.build({m["ts"]: m for m in world[MESSAGES]})
        assert kept.lists == built.lists
        assert kept.vocabulary == built.vocabulary  # a word that lost its last message is gone, a new one is in
        with monkeypatch.context() as scan:
            scan.setattr(words, "candidates", lambda *args: None)
            scan.setattr(words, "one_word", lambda *args: None)
            scan.setattr(matching, "several", lambda *args: None)
            scanned = [_call(world, "search.messages", **ask) for ask in asks]
        assert indexed == scanned
        totals.append(indexed[0]["messages"]["total"])
    assert any(totals) or query in ("zzz", "-the", "in:#nowhere the", "in:#support in:#ops", "in:#secret deploy"), (
        "found nothing"
    )
