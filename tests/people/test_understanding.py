"""Questions understood the way a colleague would: other inflections, the synonym table, vague questions
(`general_answer`, or a question back), and only when the question was put to the person."""

from __future__ import annotations

import pytest

from soundstage.people.understanding import Asks, Reading, is_question, stem

from .conftest import scene, story

PEOPLE = """
  - ref: omar
    slack_user: $omar
    reply_after: 30s
    general_answer: incident
    facts:
      - id: incident
        text: "Checkout fails because the payments cache was keyed wrongly in the last deploy."
        match: ["keyed wrongly"]
        ask: ["root cause"]
      - id: rebase
        text: "I'll rebase it tonight."
        match: ["rebase it tonight"]
        ask: ["rebase"]
  - ref: maya
    slack_user: $maya
    reply_after: 1m
    facts:
      - id: eta
        text: "The fix ships Thursday."
        match: ["Thursday"]
        ask: ["eta"]
  - ref: priya
    slack_user: $priya
    reply_after: 2m
    decisions:
      - id: rollback
        ask: ["approve"]
        options: ["roll back", "hold"]
        default: roll back
"""
SCENE = scene(PEOPLE, name="understanding")
CAUSE = "Checkout fails because the payments cache was keyed wrongly in the last deploy."


def dm(live, *who):
    users = ",".join(live.world.refs[w] for w in who)
    return live.slack().conversations_open(users=users)["channel"]["id"]


@pytest.mark.parametrize(
    "question",
    [
        "Why is checkout failing?",
        "Can you explain the errors?",
        "What's causing the checkout errors?",
        "How come checkout is broken?",
    ],
)
def test_a_question_in_other_words_gets_the_fact_it_asks_for(people, question):
    live = people(SCENE)
    channel = dm(live, "omar")  # @0
    live.slack().chat_postMessage(channel=channel, text=question)  # @5
    live.advance("30s")
    assert story(live) == [
        f"@5 message @5 $bot (agent) in dm:bot+omar to $omar: {question}",
        "@5 asked $omar for omar.incident by $bot in @5",
        "@35 revealed $omar omar.incident to $bot in @35",
        f"@35 message @35 $omar in dm:bot+omar to nobody carries omar.incident: Sure. {CAUSE}",
    ]


def test_another_inflection_of_an_ask_word_asks_for_it(people):
    live = people(SCENE)
    channel = dm(live, "omar")
    live.slack().chat_postMessage(channel=channel, text="Are you rebasing the branch?")  # @5
    live.advance("30s")
    assert story(live)[1:] == [
        "@5 asked $omar for omar.rebase by $bot in @5",
        "@35 revealed $omar omar.rebase to $bot in @35",
        "@35 message @35 $omar in dm:bot+omar to nobody carries omar.rebase: Sure. I'll rebase it tonight.",
    ]


def test_a_decision_is_asked_for_in_other_words_too(people):
    live = people(SCENE)
    channel = dm(live, "priya")
    live.slack().chat_postMessage(channel=channel, text="Can we get your sign off on the rollback?")  # @5
    live.advance("2m")
    assert story(live)[1:] == [
        "@5 asked $priya for priya.rollback by $bot in @5",
        "@125 decided $priya priya.rollback = roll back by $bot in @125",
        "@125 message @125 $priya in dm:bot+priya to nobody: Let's go with roll back.",
    ]


def test_a_statement_in_other_words_asks_nothing(people):
    live = people(SCENE)
    channel = dm(live, "omar")
    live.slack().chat_postMessage(channel=channel, text="FYI the errors were caused by the deploy.")  # @5
    live.advance("30s")
    assert story(live) == [
        "@5 message @5 $bot (agent) in dm:bot+omar to $omar: FYI the errors were caused by the deploy.",
        "@35 message @35 $omar in dm:bot+omar to nobody: Got it, thanks!",
    ]


def test_a_vague_question_gets_the_general_answer_a_question_back_or_i_dont_know(people):
    live = people(SCENE)
    group = dm(live, "omar", "maya", "priya")  # @0
    live.slack().chat_postMessage(channel=group, text="Any idea what's going on with checkout?")  # @5
    live.advance("2m")
    assert story(live) == [
        (
            "@5 message @5 $bot (agent) in dm:bot+maya+omar+priya to $omar,$maya,$priya: "
            "Any idea what's going on with checkout?"
        ),
        # Omar's `general_answer` is the fact he gives; Maya knows something and asks what exactly is
        # wanted; Priya knows nothing.
        "@5 asked $omar for omar.incident by $bot in @5",
        "@35 revealed $omar omar.incident to $bot in @35",
        f"@35 message @35 $omar in dm:bot+maya+omar+priya to $maya,$priya carries omar.incident: Sure. {CAUSE}",
        "@35 knows $maya omar.incident from $omar in @35",
        "@35 knows $priya omar.incident from $omar in @35",
        (
            "@65 message @65 $maya in dm:bot+maya+omar+priya to $omar,$priya: "
            "Sure, what do you need to know, specifically?"
        ),
        "@125 message @125 $priya in dm:bot+maya+omar+priya to $omar,$maya: No idea, I'm afraid.",
    ]


def test_a_question_someone_else_owns_gets_i_dont_know(people):
    live = people(SCENE)
    channel = dm(live, "maya")
    live.slack().chat_postMessage(channel=channel, text="Why is checkout failing?")  # @5
    live.advance("1m")
    assert story(live)[1:] == [
        "@5 asked $maya for omar.incident by $bot in @5",
        "@65 message @65 $maya in dm:bot+maya to nobody: Hmm, I don't know that one.",
    ]


def test_a_question_not_put_to_them_is_understood_only_as_written(people):
    live = people(
        SCENE.replace("    general_answer: incident\n", "    general_answer: incident\n    watches: [$support]\n")
    )
    refs = live.world.refs
    live.slack().chat_postMessage(channel=refs["support"], text="Why is checkout failing?")  # chatter: silence
    live.slack().chat_postMessage(channel=refs["support"], text="What was the root cause?")  # as written: Omar owns it
    live.advance("1m")
    assert story(live) == [
        "@0 message @0 $bot (agent) in $support to $omar: Why is checkout failing?",
        "@5 message @5 $bot (agent) in $support to $omar: What was the root cause?",
        "@5 asked $omar for omar.incident by $bot in @5",
        "@35 revealed $omar omar.incident to $bot in @35",
        f"@35 message @35 $omar in $support thread @5 to nobody carries omar.incident: Sure. {CAUSE}",
    ]


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [
        ("cause", "caus"),
        ("caused", "caus"),
        ("causing", "caus"),
        ("causes", "caus"),
        ("failing", "fail"),
        ("errors", "error"),
        ("status", "status"),
        ("statuses", "status"),
        ("stopped", "stop"),
        ("What\u2019s", "what"),
        ("replies", "reply"),
        ("going", "going"),
    ],
)
def test_stems(word, stemmed):
    assert stem(word) == stemmed


def test_a_reading_of_a_message():
    assert Reading.of("Omar, why is checkout failing?") == Reading(
        text="Omar, why is checkout failing?",
        stems=" omar why is checkout fail ",
        question=True,
        groups=frozenset({"cause", "problem"}),
        vague=True,
    )
    assert Reading.of("The deploy is out.").question is False
    assert [is_question(t) for t in ("Need the id.", "Omar, please send it", "ok, thanks", "All good?")] == [
        True,
        True,
        False,
        True,
    ]


def test_asks_belong_to_a_group_only_as_a_whole_phrase():
    assert Asks.of(["root cause", "W-4821"]).groups == {"cause"}
    assert Asks.of(["tell customers"]).groups == frozenset()  # "tell" alone would widen it to every request
    assert Asks.of(["how much do they pay"]).understood(Reading.of("How much did they pay?")) is False
