"""People acting on their own: `script` (at a time after the start) and `on` (a decision taken, a fault
resolved). What they say is heard by others like any message."""

from __future__ import annotations

from soundstage.clock import iso
from soundstage.events import FaultResolvedEvent

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
    script:
      - {at: 0s, say: "Good morning!", in: $general}
      - {at: 2m, say: "Ping me if you need Northwind's workspace.", to: $bot}
      - {at: 10m, say: "Reminder: Northwind is on W-4821.", in: $support}
    on:
      - {fault_resolved: bad_deploy, say: "Latency looks normal again, thanks!", in: $support}
      - decided: {person: $priya, decision: refund}
        say: "Noted Priya's call on the refund."
        to: $maya
  - ref: maya
    slack_user: $maya
    watches: [$support]
  - ref: priya
    slack_user: $priya
    reply_after: 1m
    decisions:
      - {id: refund, ask: [refund], options: ["approve the refund", "hold the refund"]}
"""
SCENE = scene(PEOPLE, name="script")  # the shared scene declares the fault `bad_deploy`


def test_scripted_messages_come_at_their_time_and_are_heard(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    assert story(live, kinds=("script",)) == []  # nothing happens before the first request
    slack.auth_test()  # @0: `at: 0s` is due
    live.advance("10m")
    assert story(live) == [
        "@0 script $laura in $general (at 0s) @0: Good morning!",
        "@0 message @0 $laura in $general to nobody: Good morning!",
        "@120 script $laura in dm:bot+laura (at 2m) @120: Ping me if you need Northwind's workspace.",
        "@120 message @120 $laura in dm:bot+laura to nobody: Ping me if you need Northwind's workspace.",
        "@600 script $laura in $support (at 10m) @600: Reminder: Northwind is on W-4821.",
        "@600 message @600 $laura in $support to $maya carries laura.workspace: Reminder: Northwind is on W-4821.",
        "@600 knows $maya laura.workspace from $laura in @600",
    ]
    # The agent reads the DM Laura opened like any other.
    dm = slack.conversations_open(users=refs["laura"])
    assert dm["already_open"] is True
    history = slack.conversations_history(channel=dm["channel"]["id"])["messages"]
    assert [(m["user"], m["text"], m["ts"]) for m in history] == [
        (refs["laura"], "Ping me if you need Northwind's workspace.", ts(120))
    ]


def test_on_a_fault_resolved_the_person_speaks_at_once(people):
    live = people(SCENE)
    world = live.world
    with world.lock:
        world.log.emit(FaultResolvedEvent, t=iso(world.now()), fault="other_fault")
        world.log.emit(FaultResolvedEvent, t=iso(world.now()), fault="bad_deploy")
        world.notify()
    assert story(live) == [
        "@0 script $laura in $support (fault_resolved bad_deploy) @0: Latency looks normal again, thanks!",
        "@0 message @0 $laura in $support to $maya: Latency looks normal again, thanks!",
    ]


def test_on_a_decision_without_an_option_fires_for_any_option(people):
    live = people(SCENE)
    slack = live.slack()
    dm = slack.conversations_open(users=live.world.refs["priya"])["channel"]["id"]
    slack.chat_postMessage(channel=dm, text="Should we refund?")  # @5
    live.advance("1m")
    assert story(live, kinds=("decided", "script"))[1:] == [
        "@65 decided $priya priya.refund = approve the refund by $bot in @65",
        "@65 script $laura in dm:laura+maya (decided priya.refund) @65/2: Noted Priya's call on the refund.",
    ]
