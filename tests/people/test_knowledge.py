"""What people know: their own facts and `knows` from the start, and any fact a message they hear
carries, from the agent or from anyone else. Someone who knows a fact they do not own may repeat it when
asked directly, under the owner's rules (never a confidential one); only owners `reveal`."""

from __future__ import annotations

from .conftest import scene, story

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
  - ref: omar
    slack_user: $omar
    reply_after: 30s
    watches: [$support]
  - ref: maya
    slack_user: $maya
    reply_after: 30s
    knows: [laura.workspace]
  - ref: priya
    slack_user: $priya
    reply_after: 30s
    knows: [laura.contract_value, laura.workspace]
"""
SCENE = scene(PEOPLE, name="knowledge")


def ask(live, who, text):
    slack = live.slack()
    channel = slack.conversations_open(users=live.world.refs[who])["channel"]["id"]
    slack.chat_postMessage(channel=channel, text=text)
    live.advance("30s")
    return slack.conversations_history(channel=channel, limit=1)["messages"][0]["text"]


def test_what_people_know_from_the_start(people):
    live = people(SCENE)
    assert story(live, start=True) == [
        "@0 knows $laura laura.workspace from start in -",
        "@0 knows $laura laura.contract_value from start in -",
        "@0 knows $maya laura.workspace from start in -",
        "@0 knows $priya laura.contract_value from start in -",
        "@0 knows $priya laura.workspace from start in -",
    ]


def test_a_fact_passes_from_its_owner_to_whoever_hears_it_and_on_to_the_agent(people):
    live = people(SCENE)
    slack = live.slack()
    refs = live.world.refs
    asked = slack.chat_postMessage(channel=refs["support"], text="Which workspace is Northwind on?")["ts"]  # @0
    live.advance("30s")
    assert story(live) == [
        "@0 message @0 $bot (agent) in $support to $laura,$omar: Which workspace is Northwind on?",
        "@0 asked $laura for laura.workspace by $bot in @0",
        "@0 asked $omar for laura.workspace by $bot in @0",  # Omar does not know and was not asked directly
        "@30 revealed $laura laura.workspace to $bot in @30",
        (
            "@30 message @30 $laura in $support thread @0 to $omar carries laura.workspace: "
            "Good question. Northwind is on workspace W-4821."
        ),
        "@30 knows $omar laura.workspace from $laura in @30",
    ]
    assert [m["user"] for m in slack.conversations_replies(channel=refs["support"], ts=asked)["messages"]] == [
        refs["bot"],
        refs["laura"],
    ]
    after = live.world.log.last_seq
    assert (
        ask(live, "omar", "Which workspace is Northwind on?") == "From what I heard: Northwind is on workspace W-4821."
    )
    assert story(live, after=after) == [
        "@45 message @45 $bot (agent) in dm:bot+omar to $omar: Which workspace is Northwind on?",
        "@45 asked $omar for laura.workspace by $bot in @45",
        (
            "@75 message @75 $omar in dm:bot+omar to nobody carries laura.workspace: "
            "From what I heard: Northwind is on workspace W-4821."
        ),
    ]


def test_a_confidential_fact_is_not_repeated_by_those_who_know_it(people):
    live = people(SCENE)
    assert ask(live, "priya", "What is the contract worth?") == "That's not something I can share, I'm afraid."
    assert story(live)[-2:] == [
        "@35 withheld $priya laura.contract_value to $bot (confidential) in @35",
        "@35 message @35 $priya in dm:bot+priya to nobody: That's not something I can share, I'm afraid.",
    ]


def test_a_referrer_refers_even_when_they_know(people):
    live = people(SCENE)
    refs = live.world.refs
    assert ask(live, "maya", "Which workspace?") == f"I don't know, ask <@{refs['laura']}>."
    assert story(live, kinds=("referred",)) == ["@35 referred $maya laura.workspace to $bot: ask $laura in @35"]
