"""Decisions: the first `choose` option whose condition holds, else `default`, else the first option.

Conditions: `knows` (the person knows each fact, by any path), `told` (the agent itself told them),
`decided` (a decision was taken, with that option if given), `state` (a state predicate holds now).
The option is decided when the question is heard, after the message's facts reach the person, and said
verbatim in the reply; `decided` is logged when the reply is posted, and `on: {decided: ...}` fires then.
"""

from __future__ import annotations

from soundstage.services.slack import messages

from .conftest import scene, story

PEOPLE = """
  - ref: laura
    slack_user: $laura
    reply_after: 30s
    facts:
      - id: impact
        text: "The double charge bounced Northwind's payroll run."
        match: ["payroll"]
        ask: ["impact"]
      - id: angry
        text: "Northwind's CFO is furious."
        match: ["furious"]
        ask: ["mood"]
    script:
      - {at: 10m, say: "Heads-up: Northwind's CFO is furious about the charge.", in: $general}
    on:
      - decided: {person: $priya, decision: refund, option: approve the refund}
        say: "Great, I'll tell Northwind the refund is approved."
        in: $general
  - ref: priya
    slack_user: $priya
    reply_after: 1m
    watches: [$general]
    decisions:
      - id: refund
        ask: ["refund", "approve"]
        options: ["approve the refund", "hold the refund"]
        choose:
          - option: approve the refund
            if: {told: [laura.impact]}
        default: hold the refund
      - id: escalate
        ask: ["escalate"]
        options: ["handle it ourselves", "escalate to legal"]
        choose:
          - option: escalate to legal
            if: {knows: [laura.angry]}
      - id: announce
        ask: ["announce"]
        options: ["announce it now", "wait"]
        choose:
          - option: announce it now
            if: {decided: {person: $priya, decision: refund, option: approve the refund}}
        default: wait
      - id: credit
        ask: ["credit"]
        options: ["give a credit", "no credit"]
        choose:
          - option: give a credit
            if: {state: {slack.message: {channel: $ext, from: $bot, text_contains: "sorry"}}}
        default: no credit
"""
SCENE = scene(PEOPLE, name="decisions")


def ask_priya(live, text):
    slack = live.slack()
    channel = slack.conversations_open(users=live.world.refs["priya"])["channel"]["id"]
    slack.chat_postMessage(channel=channel, text=text)
    live.advance("1m")
    return slack.conversations_history(channel=channel, limit=1)["messages"][0]["text"]


def test_told_chooses_the_option_and_the_default_otherwise(people):
    live = people(SCENE)
    assert ask_priya(live, "Can you approve the refund for Northwind?") == "Go with hold the refund."
    after = live.world.log.last_seq
    reply = ask_priya(live, "Their payroll bounced because of it. Approve the refund?")
    assert reply == "Go with approve the refund."
    assert story(live, after=after) == [
        (
            "@80 message @80 $bot (agent) in dm:bot+priya to $priya carries laura.impact: "
            "Their payroll bounced because of it. Approve the refund?"
        ),
        "@80 knows $priya laura.impact from agent in @80",
        "@80 told $priya laura.impact in @80",
        "@80 asked $priya for priya.refund by $bot in @80",
        "@140 decided $priya priya.refund = approve the refund by $bot in @140",
        "@140 message @140 $priya in dm:bot+priya to nobody: Go with approve the refund.",
        # `on: {decided: ...}`: Laura speaks at once; Priya watches #general and hears her.
        (
            "@140 script $laura in $general (decided priya.refund) @140/2: "
            "Great, I'll tell Northwind the refund is approved."
        ),
        "@140 message @140/2 $laura in $general to $priya: Great, I'll tell Northwind the refund is approved.",
    ]


def test_told_needs_the_agent_itself(people):
    live = people(SCENE)
    world = live.world
    refs = world.refs

    with world.lock:  # Laura, not the agent, tells Priya about the payroll in #general
        messages.post(world, refs["general"], refs["laura"], "Their payroll bounced, by the way.")
        world.notify()
    assert ask_priya(live, "Can you approve the refund?") == "Go with hold the refund."
    assert story(live)[:2] == [
        "@0 message @0 $laura in $general to $priya carries laura.impact: Their payroll bounced, by the way.",
        "@0 knows $priya laura.impact from $laura in @0",
    ]


def test_knows_holds_whoever_told_them_and_without_a_default_the_first_option_is_taken(people):
    live = people(SCENE)
    assert ask_priya(live, "Should we escalate?") == "My call: handle it ourselves."
    live.advance("10m")  # Laura's scripted message in #general reaches Priya
    assert ask_priya(live, "Should we escalate now?") == "I've decided: escalate to legal."
    assert story(live, kinds=("knows", "script", "decided")) == [
        "@65 decided $priya priya.escalate = handle it ourselves by $bot in @65",
        "@600 script $laura in $general (at 10m) @600: Heads-up: Northwind's CFO is furious about the charge.",
        "@600 knows $priya laura.angry from $laura in @600",
        "@740 decided $priya priya.escalate = escalate to legal by $bot in @740",
    ]


def test_decided_holds_once_that_option_was_taken(people):
    live = people(SCENE)
    assert ask_priya(live, "Shall we announce the fix?") == "My call: wait."
    ask_priya(live, "Their payroll bounced. Please approve the refund.")
    assert ask_priya(live, "Shall we announce the fix?") == "I've decided: announce it now."
    assert story(live, kinds=("decided",)) == [
        "@65 decided $priya priya.announce = wait by $bot in @65",
        "@140 decided $priya priya.refund = approve the refund by $bot in @140",
        "@215 decided $priya priya.announce = announce it now by $bot in @215",
    ]


def test_state_holds_on_the_live_world_when_asked(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    assert ask_priya(live, "Do we give them a credit?") == "My call: no credit."
    slack.chat_postMessage(channel=refs["ext"], text="We are sorry about the double charge.")
    assert ask_priya(live, "Do we give them a credit now?") == "Go with give a credit."


def test_someone_else_asked_for_a_decision_does_not_know(people):
    live = people(SCENE)
    slack = live.slack()
    channel = slack.conversations_open(users=live.world.refs["laura"])["channel"]["id"]
    slack.chat_postMessage(channel=channel, text="Can you approve the refund?")
    live.advance("30s")
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+laura to $laura: Can you approve the refund?",
        "@5 asked $laura for priya.refund by $bot in @5",
        "@35 message @35 $laura in dm:bot+laura to nobody: Sorry, I don't know.",
    ]
