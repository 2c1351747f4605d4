"""Identical runs give identical words and events; within a run, replies vary among the templates."""

from __future__ import annotations

import re

from soundstage.people.replies import TEMPLATES, Part, compose, pick

from .conftest import scene

PEOPLE = """
  - ref: laura
    slack_user: $laura
    reply_after: 30s
    watches: [$support]
    facts:
      - id: workspace
        text: "Northwind is on workspace W-4821."
        match: ["W-4821"]
        ask: ["workspace"]
        referred_by: [$maya]
      - id: contract_value
        text: "Northwind pays 180k a year."
        match: ["180k"]
        ask: ["contract"]
        confidential: true
    script:
      - {at: 3m, say: "Anything else on Northwind?", in: $support}
  - ref: maya
    slack_user: $maya
    reply_after: 45s
  - ref: priya
    slack_user: $priya
    reply_after: 1m
    decisions:
      - id: refund
        ask: [refund]
        options: ["approve the refund", "hold the refund"]
        choose: [{option: approve the refund, if: {told: [laura.workspace]}}]
        default: hold the refund
"""
SCENE = scene(PEOPLE, name="determinism")


def drive(live):
    """The same calls, whatever the world."""
    slack = live.slack()
    refs = live.world.refs
    to_maya = slack.conversations_open(users=refs["maya"])["channel"]["id"]
    slack.chat_postMessage(channel=to_maya, text="Which workspace is Northwind on?")
    live.advance("1m")
    owner = re.search(r"<@(\w+)>", slack.conversations_history(channel=to_maya, limit=1)["messages"][0]["text"])[1]
    to_laura = slack.conversations_open(users=owner)["channel"]["id"]
    slack.chat_postMessage(channel=to_laura, text="Which workspace? And the contract?")
    slack.chat_postMessage(channel=refs["support"], text="Thanks all, looking into the workspace now.")
    for _ in range(8):
        slack.conversations_history(channel=to_laura)
    to_priya = slack.conversations_open(users=refs["priya"])["channel"]["id"]
    slack.chat_postMessage(channel=to_priya, text="They are on W-4821. Refund?")
    live.advance("5m")
    slack.chat_postMessage(channel=to_laura, text="Thanks!")
    live.advance("1m")
    return live.events()


def test_two_worlds_of_one_scene_driven_alike_give_identical_events_and_words(people):
    first, second = people(SCENE), people(SCENE)
    assert first.id != second.id
    events = drive(first)
    assert drive(second) == events
    kinds = {e["kind"] for e in events}
    assert {"message", "asked", "revealed", "withheld", "referred", "told", "knows", "decided", "script"} <= kinds


def test_templates_are_picked_by_person_part_and_reply_count():
    assert pick("ack", "laura", "", 0) == pick("ack", "laura", "", 0)
    acks = {pick("ack", "laura", "", n) for n in range(12)}
    assert acks == set(TEMPLATES["ack"])  # every template gets used
    assert {pick("ack", who, "", 0) for who in ("laura", "maya", "omar", "priya", "sam", "jonas")} != {
        pick("ack", "laura", "", 0)
    }


def test_every_template_of_a_kind_says_what_it_must():
    for template in TEMPLATES["reveal"] + TEMPLATES["pass"]:
        assert template.format(text="T-1.").endswith("T-1.")
    for template in TEMPLATES["decide"]:
        assert "OPTION X" in template.format(option="OPTION X")
    for template in TEMPLATES["refer"]:
        assert "ask <@U1>" in template.format(owner="U1").replace("Ask", "ask")
    for kind in ("refuse", "unknown", "ack"):
        assert all("{" not in t for t in TEMPLATES[kind])


def test_a_reply_says_refusals_and_unknowns_once_and_each_referral_once_per_owner():
    parts = [
        Part("reveal", "a.x", text="X is 1."),
        Part("refuse", "a.y"),
        Part("refuse", "a.z"),
        Part("unknown", "b.q"),
        Part("refer", "b.r", owner="U9"),
        Part("refer", "b.s", owner="U9"),
        Part("unknown", "b.t"),
    ]
    text = compose(parts, "laura", 0)
    assert text.startswith(("X is 1.", "Sure. X is 1.", "Yes, I can help with that. X is 1.", "Good question. X is 1."))
    assert text.count("<@U9>") == 1
    assert sum(text.count(t) for t in TEMPLATES["refuse"]) == 1
    assert sum(text.count(t) for t in TEMPLATES["unknown"]) == 1
