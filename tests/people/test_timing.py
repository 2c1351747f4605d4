"""When replies appear: `reply_after` simulated time after the message, before the next request is
answered, whether time moves by ticks, by `POST .../clock` or with the wall clock (realtime)."""

from __future__ import annotations

import time

from soundstage.clock import US, parse_time
from soundstage.services.slack.store import MESSAGES
from soundstage.services.slack.timestamps import ts_us

from .conftest import START, scene, story, ts

PEOPLE = """
  - ref: laura
    slack_user: $laura
    reply_after: 30s
    facts:
      - id: workspace
        text: "Northwind is on workspace W-4821."
        match: ["W-4821"]
        ask: ["workspace"]
"""


def test_under_tick_the_reply_appears_once_enough_calls_have_passed(people):
    live = people(scene(PEOPLE, name="timing-tick"))  # tick 5s
    slack = live.slack()
    dm = slack.conversations_open(users=live.world.refs["laura"])["channel"]["id"]  # @0
    asked = slack.chat_postMessage(channel=dm, text="Which workspace?")["ts"]  # @5: the reply is due at @35
    assert asked == ts(5)
    seen = [len(slack.conversations_history(channel=dm)["messages"]) for _ in range(8)]  # @10 ... @45
    assert seen == [1, 1, 1, 1, 1, 2, 2, 2]  # the call at @35 runs the reply first, then answers
    reply = slack.conversations_history(channel=dm, limit=1)["messages"][0]
    assert (reply["ts"], reply["text"]) == (ts(35), "Good question. Northwind is on workspace W-4821.")
    # In the log, the reply and its events come before the call at @35 that saw it.
    kinds = [(e["kind"], e["t"][11:19]) for e in live.events() if e["kind"] in ("call", "revealed", "message")]
    assert kinds[-7:] == [
        ("call", "14:00:30"),
        ("revealed", "14:00:35"),
        ("message", "14:00:35"),
        ("call", "14:00:35"),
        ("call", "14:00:40"),
        ("call", "14:00:45"),
        ("call", "14:00:50"),
    ]


def test_under_the_clock_endpoint_the_reply_comes_at_its_own_time(people):
    live = people(scene(PEOPLE, name="timing-clock", clock='{start: "2026-03-02T14:00:00Z", tick: 1s}'))
    slack = live.slack()
    dm = slack.conversations_open(users=live.world.refs["laura"])["channel"]["id"]  # @0
    slack.chat_postMessage(channel=dm, text="Which workspace?")  # @1: due at @31
    assert live.advance("28s")["now"] == "2026-03-02T14:00:30Z"
    assert story(live, kinds=("revealed",)) == []
    assert live.advance("5m")["now"] == "2026-03-02T14:05:30Z"
    assert story(live, kinds=("revealed", "message")) == [
        "@1 message @1 $bot (agent) in dm:bot+laura to $laura: Which workspace?",
        "@31 revealed $laura laura.workspace to $bot in @31",
        "@31 message @31 $laura in dm:bot+laura to nobody carries laura.workspace: "
        "Good question. Northwind is on workspace W-4821.",
    ]
    assert [e["kind"] for e in live.events()][-4:] == ["clock", "write", "revealed", "message"]
    assert live.world[MESSAGES].get(ts(31))["text"].endswith("W-4821.")


def test_under_a_realtime_clock_the_reply_follows_the_wall_clock(people):
    # 60 simulated seconds per wall second: a 2m reply comes about 2 wall seconds after the question.
    live = people(
        scene(
            PEOPLE.replace("30s", "2m"),
            name="timing-realtime",
            clock='{start: "2026-03-02T14:00:00Z", realtime: true, speed: 60}',
        )
    )
    slack = live.slack()
    dm = slack.conversations_open(users=live.world.refs["laura"])["channel"]["id"]
    asked = slack.chat_postMessage(channel=dm, text="Which workspace?")["ts"]
    wall = time.monotonic()
    assert len(slack.conversations_history(channel=dm)["messages"]) == 1
    time.sleep(max(0.0, 2.3 - (time.monotonic() - wall)))
    messages = slack.conversations_history(channel=dm)["messages"]
    assert [m["text"] for m in messages] == ["Good question. Northwind is on workspace W-4821.", "Which workspace?"]
    waited = ts_us(messages[0]["ts"]) - ts_us(asked)
    assert 120 * US <= waited < 200 * US
    revealed = story(live, kinds=("revealed",))
    assert len(revealed) == 1 and parse_time(live.events()[-1]["t"]) >= START * US + 120 * US
