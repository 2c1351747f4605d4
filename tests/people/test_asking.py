"""Asking and telling: `ask` and `match` phrases, refusals, `share_if`, referrals and "I don't know"."""

from __future__ import annotations

import re

from .conftest import scene, story

PEOPLE = """
  - ref: laura
    slack_user: $laura
    persona: Customer Success Lead.
    reply_after: 30s
    watches: [$support]
    facts:
      - id: workspace
        text: "Northwind is on workspace W-4821, on the EU cluster."
        match: ["W-4821"]
        ask: ["workspace", "which account", "customer id"]
        referred_by: [$maya]
      - id: contract_value
        text: "Northwind pays 180k a year."
        match: ["180k", "180,000"]
        ask: ["contract", "how much do they pay"]
        confidential: true
      - id: renewal
        text: "They renew on June 30."
        match: ["June 30"]
        ask: ["renewal", "renew"]
        share_if: {told: [omar.incident]}
  - ref: maya
    slack_user: $maya
    reply_after: 1m
  - ref: omar
    slack_user: $omar
    reply_after: 30s
    facts:
      - id: incident
        text: "The outage was caused by a full disk on db-3."
        match: ["db-3"]
        ask: ["root cause"]
"""
SCENE = scene(PEOPLE, name="asking")


def dm(live, who):
    return live.slack().conversations_open(users=live.world.refs[who])["channel"]["id"]


def test_an_ask_phrase_in_any_case_gets_the_fact_verbatim(people):
    live = people(SCENE)
    slack = live.slack()
    channel = dm(live, "laura")  # @0
    slack.chat_postMessage(channel=channel, text="Hi! WHICH ACCOUNT is Northwind on?")  # @5
    live.advance("30s")
    reply = "Good question. Northwind is on workspace W-4821, on the EU cluster."
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+laura to $laura: Hi! WHICH ACCOUNT is Northwind on?",
        "@5 asked $laura for laura.workspace by $bot in @5",
        "@35 revealed $laura laura.workspace to $bot in @35",
        f"@35 message @35 $laura in dm:bot+laura to nobody carries laura.workspace: {reply}",
    ]
    assert slack.conversations_history(channel=channel, limit=1)["messages"][0]["text"] == reply


def test_phrases_match_only_at_word_boundaries(people):
    live = people(SCENE)
    slack = live.slack()
    channel = dm(live, "laura")
    # Not a question, so only the phrases as written count (in a question, "workspaces" is understood).
    slack.chat_postMessage(channel=channel, text="No workspaces missing. Customer identity check for W-48210 done.")
    slack.chat_postMessage(channel=channel, text="Noted w-4821.")  # carries the fact, in any case
    live.advance("1m")
    assert story(live) == [
        (
            "@5 message @5 $bot (agent) in dm:bot+laura to $laura: "
            "No workspaces missing. Customer identity check for W-48210 done."
        ),
        "@10 message @10 $bot (agent) in dm:bot+laura to $laura carries laura.workspace: Noted w-4821.",
        "@10 told $laura laura.workspace in @10",
        "@35 message @35 $laura in dm:bot+laura to nobody: Thanks, noted.",
        "@40 message @40 $laura in dm:bot+laura to nobody: Got it, thanks!",
    ]


def test_a_confidential_fact_is_refused_without_any_part_of_it(people):
    live = people(SCENE)
    slack = live.slack()
    channel = dm(live, "laura")
    slack.chat_postMessage(channel=channel, text="How much do they pay? I need the contract details.")
    live.advance("30s")
    refusal = "Sorry, I can't share that."
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+laura to $laura: How much do they pay? I need the contract details.",
        "@5 asked $laura for laura.contract_value by $bot in @5",
        "@35 withheld $laura laura.contract_value to $bot (confidential) in @35",
        f"@35 message @35 $laura in dm:bot+laura to nobody: {refusal}",
    ]
    text = slack.conversations_history(channel=channel, limit=1)["messages"][0]["text"]
    assert text == refusal
    for word in ("Northwind", "pays", "180k", "180,000", "year"):
        assert word.lower() not in text.lower()


def test_every_refusal_template_carries_nothing_of_a_fact():
    from soundstage.people.replies import TEMPLATES

    for template in TEMPLATES["refuse"] + TEMPLATES["unknown"] + TEMPLATES["ack"]:
        assert "{" not in template


def test_share_if_withholds_until_it_holds(people):
    live = people(SCENE)
    slack = live.slack()
    channel = dm(live, "laura")
    slack.chat_postMessage(channel=channel, text="When do they renew?")  # @5: refused
    live.advance("30s")
    slack.chat_postMessage(channel=channel, text="FYI the root cause was db-3. So, when is the renewal?")  # @40
    live.advance("30s")
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+laura to $laura: When do they renew?",
        "@5 asked $laura for laura.renewal by $bot in @5",
        "@35 withheld $laura laura.renewal to $bot (share_if) in @35",
        "@35 message @35 $laura in dm:bot+laura to nobody: That's not something I can share, I'm afraid.",
        # One message both tells and asks: the fact reaches Laura before she answers. "root cause" asks
        # for Omar's fact too, which Laura now knows and may repeat (she does not own it: no `revealed`).
        (
            "@40 message @40 $bot (agent) in dm:bot+laura to $laura carries omar.incident: "
            "FYI the root cause was db-3. So, when is the renewal?"
        ),
        "@40 knows $laura omar.incident from agent in @40",
        "@40 told $laura omar.incident in @40",
        "@40 asked $laura for laura.renewal by $bot in @40",
        "@40 asked $laura for omar.incident by $bot in @40",
        "@70 revealed $laura laura.renewal to $bot in @70",
        (
            "@70 message @70 $laura in dm:bot+laura to nobody carries laura.renewal,omar.incident: "
            "They renew on June 30. I'm not the owner, but as I understand it: "
            "The outage was caused by a full disk on db-3."
        ),
    ]


def test_a_referral_names_the_owner_and_the_asker_can_follow_it(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    to_maya = dm(live, "maya")  # @0
    slack.chat_postMessage(channel=to_maya, text="Which workspace is Northwind on?")  # @5
    live.advance("1m")
    answer = slack.conversations_history(channel=to_maya, limit=1)["messages"][0]  # @70
    assert answer["text"] == f"I don't know, ask <@{refs['laura']}>."
    owner = re.search(r"<@(\w+)>", answer["text"])[1]
    to_laura = slack.conversations_open(users=owner)["channel"]["id"]  # @75
    slack.chat_postMessage(channel=to_laura, text="Maya sent me: which workspace is Northwind on?")  # @80
    live.advance("30s")
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+maya to $maya: Which workspace is Northwind on?",
        "@5 asked $maya for laura.workspace by $bot in @5",
        "@65 referred $maya laura.workspace to $bot: ask $laura in @65",
        f"@65 message @65 $maya in dm:bot+maya to nobody: I don't know, ask <@{refs['laura']}>.",
        "@80 message @80 $bot (agent) in dm:bot+laura to $laura: Maya sent me: which workspace is Northwind on?",
        "@80 asked $laura for laura.workspace by $bot in @80",
        "@110 revealed $laura laura.workspace to $bot in @110",
        (
            "@110 message @110 $laura in dm:bot+laura to nobody carries laura.workspace: "
            "Good question. Northwind is on workspace W-4821, on the EU cluster."
        ),
    ]


def test_anyone_else_asked_says_they_do_not_know_only_when_addressed(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    to_omar = dm(live, "omar")
    slack.chat_postMessage(channel=to_omar, text="Which workspace is Northwind on?")  # @5, a DM: answered
    slack.chat_postMessage(channel=refs["support"], text="What was the root cause?")  # @10: Laura watches, stays silent
    live.advance("1m")
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+omar to $omar: Which workspace is Northwind on?",
        "@5 asked $omar for laura.workspace by $bot in @5",
        "@10 message @10 $bot (agent) in $support to $laura: What was the root cause?",
        "@10 asked $laura for omar.incident by $bot in @10",
        "@35 message @35 $omar in dm:bot+omar to nobody: No idea, I'm afraid.",
    ]


def test_an_owner_answers_in_the_thread_of_a_watched_channel_message(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    posted = slack.chat_postMessage(channel=refs["support"], text="Does anyone know which workspace Northwind uses?")
    live.advance("30s")
    replies = slack.conversations_replies(channel=refs["support"], ts=posted["ts"])["messages"]
    assert [(m["user"], m["text"]) for m in replies] == [
        (refs["bot"], "Does anyone know which workspace Northwind uses?"),
        (refs["laura"], "Good question. Northwind is on workspace W-4821, on the EU cluster."),
    ]


def test_one_reply_answers_every_question_of_a_message(people):
    live = people(SCENE)
    slack = live.slack()
    channel = dm(live, "laura")
    slack.chat_postMessage(
        channel=channel,
        text="Which workspace are they on, how much do they pay, what's the contract, and the root cause?",
    )
    live.advance("30s")
    assert story(live)[-4:] == [
        "@5 asked $laura for omar.incident by $bot in @5",
        "@35 revealed $laura laura.workspace to $bot in @35",
        "@35 withheld $laura laura.contract_value to $bot (confidential) in @35",
        (
            "@35 message @35 $laura in dm:bot+laura to nobody carries laura.workspace: "
            "Good question. Northwind is on workspace W-4821, on the EU cluster. Sorry, I can't share that. "
            "Hmm, I don't know that one."
        ),
    ]
