"""When replies appear: `reply_after` simulated time after the message, before the next request is
answered, whether time moves by ticks, by `POST .../clock` or with the wall clock (realtime)."""

from __future__ import annotations

from soundstage.services.slack.store import MESSAGES

from .conftest import scene, story, ts

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
        (
            "@31 message @31 $laura in dm:bot+laura to nobody carries laura.workspace: "
            "Good question. Northwind is on workspace W-4821."
        ),
    ]
    assert [e["kind"] for e in live.events()][-4:] == ["clock", "write", "revealed", "message"]
    assert live.world[MESSAGES].get(ts(31))["text"].endswith("W-4821.")


def test_under_a_realtime_clock_the_reply_follows_the_wall_clock(people, wall):
    # 60 simulated seconds per wall second: a 2m reply comes 2 wall seconds after the question.
    live = people(
        scene(
            PEOPLE.replace("30s", "2m"),
            name="timing-realtime",
            clock='{start: "2026-03-02T14:00:00Z", realtime: true, speed: 60}',
        )
    )
    slack = live.slack()
    dm = slack.conversations_open(users=live.world.refs["laura"])["channel"]["id"]
    wall.move(0.5)
    asked = slack.chat_postMessage(channel=dm, text="Which workspace?")["ts"]  # @30: the reply is due at @150
    assert asked == ts(30)
    wall.move(1.9)
    assert len(slack.conversations_history(channel=dm)["messages"]) == 1  # @144
    wall.move(0.1)
    messages = slack.conversations_history(channel=dm)["messages"]  # @150
    assert [(m["ts"], m["text"]) for m in messages] == [
        (ts(150), "Good question. Northwind is on workspace W-4821."),
        (ts(30), "Which workspace?"),
    ]
    assert story(live, kinds=("revealed", "message")) == [
        "@30 message @30 $bot (agent) in dm:bot+laura to $laura: Which workspace?",
        "@150 revealed $laura laura.workspace to $bot in @150",
        (
            "@150 message @150 $laura in dm:bot+laura to nobody carries laura.workspace: "
            "Good question. Northwind is on workspace W-4821."
        ),
    ]
