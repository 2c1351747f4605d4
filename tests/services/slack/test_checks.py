"""`state: {slack.message: ...}`: every condition passing and failing, evidence from the writes."""

from __future__ import annotations

from soundstage.services.slack.store import MESSAGES


def message(result, office, **args):
    return result({"state": {"slack.message": args}}, office.attempt())


def test_a_reply_in_the_thread_passes_with_its_write_and_call(result, office):
    r = message(
        result,
        office,
        channel="$support",
        **{"from": "$bot"},
        in_thread_of="$question",
        text_contains="reports > EXPORT",
    )
    assert (r.passed, r.kind, r.evidence) == (True, "state:slack.message", [2, 3])
    assert r.expected == (
        "at least one Slack message in C0SUPPORT01 ($support) from U0STAGEBOT1 ($bot) in the thread of "
        '1772459000.000100 ($question) whose text contains "reports > EXPORT"'
    )
    assert (
        r.actual == '1 message matched: message 1772460010.000100 ("It is under Reports > Export; it takes a minute.")'
    )
    assert r.args == {
        "channel": "C0SUPPORT01",
        "from": "U0STAGEBOT1",
        "in_thread_of": "1772459000.000100",
        "text_contains": "reports > EXPORT",
    }


def test_starter_messages_count_but_have_no_evidence(result, office):
    r = message(result, office, channel="$general", text_contains="hello")
    assert (r.passed, r.evidence) == (True, [])


def test_a_changed_starter_message_has_the_change_as_evidence(result, office):
    r = message(result, office, **{"from": "$laura"}, text_matches=r"CSV export\?$")
    assert (r.passed, r.evidence) == (True, [5, 6])


def test_the_first_message_of_a_thread_is_not_in_it(result, office):
    r = message(result, office, **{"from": "$laura"}, in_thread_of="$question")
    assert (r.passed, r.evidence) == (True, [4])  # Laura's reply, not her question


def test_wrong_author_fails_naming_the_closest_message(result, office):
    r = message(result, office, **{"from": "$laura"}, text_contains="Reports", text_matches=r"minute\.$")
    assert (r.passed, r.evidence) == (False, [2, 3])
    assert r.actual == (
        'none of 4 messages matched; closest: message 1772460010.000100 ("It is under Reports > '
        'Export; it takes a minute."), '
        "but it is from U0STAGEBOT1 ($bot)"
    )


def test_the_closest_message_meets_the_most_conditions(result, office):
    r = message(result, office, channel="$general", in_thread_of="$question", text_contains="export")
    assert (r.passed, r.evidence) == (False, [2, 3])
    assert r.actual == (
        'none of 4 messages matched; closest: message 1772460010.000100 ("It is under Reports > '
        'Export; it takes a minute."), '
        "but it is in C0SUPPORT01 ($support)"
    )


def test_among_equally_close_messages_the_latest_is_named(result, office):
    r = message(result, office, channel="$support", **{"from": "$laura"}, text_contains="Reports")
    assert (r.passed, r.evidence) == (False, [4])
    assert r.actual == 'none of 4 messages matched; closest: message 1772460030.000200, but its text is "Thanks!"'


def test_every_unmet_condition_is_named(result, office):
    r = message(result, office, channel="$general", **{"from": "$laura"}, in_thread_of="$question", text_contains="CSV")
    assert (r.passed, r.evidence) == (False, [4])
    assert r.actual == (
        "none of 4 messages matched; closest: message 1772460030.000200, but it is in C0SUPPORT01 ($support) "
        'and its text is "Thanks!"'
    )


def test_a_message_that_starts_its_own_thread_says_so(result, office):
    r = message(result, office, channel="$support", in_thread_of="1772460010.000100", text_contains="CSV")
    assert r.actual == (
        'none of 4 messages matched; closest: message 1772459000.000100 ("Where do I find the CSV export?"), '
        "but it starts its own thread"
    )


def test_text_matches_is_a_regex(result, office):
    assert message(result, office, text_matches=r"takes a \w+\.$").evidence == [2, 3]
    r = message(result, office, text_matches=r"^Reports")
    assert r.passed is False
    assert r.expected == "at least one Slack message whose text matches /^Reports/"


def test_count_gte(result, office):
    r = message(result, office, channel="$support", in_thread_of="$question", count_gte=2)
    assert (r.passed, r.evidence) == (True, [2, 3, 4])
    r = message(result, office, channel="$support", **{"from": "$bot"}, count_gte=2)
    assert (r.passed, r.evidence) == (False, [2, 3])
    assert r.expected == "at least 2 Slack messages in C0SUPPORT01 ($support) from U0STAGEBOT1 ($bot)"
    assert (
        r.actual
        == 'only 1 message matched: message 1772460010.000100 ("It is under Reports > Export; it takes a minute.")'
    )


def test_no_messages_at_all(result, log):
    from soundstage.checks import Attempt

    r = result({"state": {"slack.message": {"text_contains": "x"}}}, Attempt(log.events, {}))
    assert (r.passed, r.actual) == (False, "there are no Slack messages")


def test_channel_notices_are_not_messages_someone_wrote():
    from soundstage.checks import Attempt, evaluate, parse_checks

    state = {
        MESSAGES: [
            {
                "type": "message",
                "subtype": "channel_join",
                "channel": "C1",
                "user": "U1",
                "text": "<@U1> has joined the channel",
                "ts": "1.000100",
            },
        ]
    }
    attempt = Attempt(events=[], state=state, diff={}, output=None, refs={}, task="")
    checks = parse_checks([{"id": "m", "state": {"slack.message": {"channel": "C1", "from": "U1"}}}], {})
    result = evaluate(checks, attempt).checks[0]
    assert result.passed is False
    state[MESSAGES].append(
        {
            "type": "message",
            "subtype": "thread_broadcast",
            "channel": "C1",
            "user": "U1",
            "text": "hi",
            "ts": "2.000100",
        }
    )
    attempt = Attempt(events=[], state=state, diff={}, output=None, refs={}, task="")
    assert evaluate(checks, attempt).checks[0].passed is True


def test_ignore_case(result, office):
    assert message(result, office, text_contains="reports > EXPORT").passed is True
    r = message(result, office, text_contains="reports > EXPORT", ignore_case=False)
    assert (r.passed, r.expected) == (
        False,
        'at least one Slack message whose text contains "reports > EXPORT", case-sensitive',
    )
    assert message(result, office, text_contains="Reports > Export", ignore_case=False).passed is True
    assert message(result, office, text_matches="under reports").passed is False
    r = message(result, office, text_matches="under reports", ignore_case=True)
    assert (r.passed, r.evidence) == (True, [2, 3])
    assert r.expected == "at least one Slack message whose text matches /under reports/, ignoring case"


# -- slack.reaction -----------------------------------------------------------------------------------


def reaction(result, office, **args):
    return result({"state": {"slack.reaction": args}}, office.attempt())


def test_a_reaction_by_whom_with_what_on_which_message(result, office):
    r = reaction(result, office, name=":eyes:", by="$bot", message="$question", channel="$support")
    assert (r.passed, r.kind, r.evidence) == (True, "state:slack.reaction", [5, 6])
    assert r.expected == (
        "at least one Slack reaction :eyes: by U0STAGEBOT1 ($bot) on message 1772459000.000100 ($question) "
        "in C0SUPPORT01 ($support)"
    )
    assert r.actual == "1 reaction matched: :eyes: by U0STAGEBOT1 ($bot) on message 1772459000.000100 ($question)"
    assert r.args["name"] == ":eyes:"  # as written


def test_a_reaction_on_any_of_several_messages(result, office):
    r = reaction(result, office, name="eyes", message=["1772458000.000100", "$question"], count=1)
    assert (r.passed, r.evidence) == (True, [5, 6])
    assert r.expected == (
        "exactly 1 Slack reaction :eyes: on message 1772458000.000100 or 1772459000.000100 ($question)"
    )
    r = reaction(result, office, name="eyes", message=["1772458000.000100", "1772460010.000100"])
    assert (r.passed, r.actual) == (
        False,
        (
            "none of 1 reaction matched; closest: :eyes: by U0STAGEBOT1 ($bot) on message 1772459000.000100 "
            "($question), but it is on message 1772459000.000100 ($question)"
        ),
    )


def test_a_missing_reaction_names_the_closest(result, office):
    r = reaction(result, office, name="thumbsup", by="$bot")
    assert (r.passed, r.evidence) == (False, [5, 6])
    assert r.actual == (
        "none of 1 reaction matched; closest: :eyes: by U0STAGEBOT1 ($bot) on message 1772459000.000100 "
        "($question), but it is :eyes:"
    )
    r = reaction(result, office, name="eyes", by="$laura")
    assert r.actual.endswith("but it is by U0STAGEBOT1 ($bot)")
    r = reaction(result, office, name="eyes", channel="$general")
    assert (r.passed, r.actual) == (
        False,
        (
            "none of 1 reaction matched; closest: :eyes: by U0STAGEBOT1 ($bot) on message 1772459000.000100 "
            "($question), but it is in C0SUPPORT01 ($support)"
        ),
    )


def test_no_reactions_at_all(result, log):
    from soundstage.checks import Attempt

    r = result({"state": {"slack.reaction": {"name": "eyes"}}}, Attempt(log.events, {MESSAGES: [{"ts": "1.1"}]}))
    assert (r.passed, r.actual) == (False, "no message has a reaction")


def test_reaction_counts_and_none(result, office):
    r = reaction(result, office, name="thumbsup", count=0)
    assert (r.passed, r.expected, r.actual, r.evidence) == (
        True,
        "no Slack reactions :thumbsup:",
        "no reactions matched",
        [],
    )
    r = reaction(result, office, by="$bot", count=0)
    assert (r.passed, r.actual, r.evidence) == (
        False,
        "1 reaction matched: :eyes: by U0STAGEBOT1 ($bot) on message 1772459000.000100 ($question)",
        [5, 6],
    )
    assert reaction(result, office, count_gte=2).passed is False


def test_new_reactions_are_those_the_message_did_not_have_at_the_start(result, office):
    r = reaction(result, office, name="eyes", new=True)
    assert (r.passed, r.expected) == (True, "at least one Slack reaction :eyes: added during the attempt")
    r = reaction(result, office, name="eyes", new=False)
    assert (r.passed, r.actual) == (
        False,
        (
            "none of 1 reaction matched; closest: :eyes: by U0STAGEBOT1 ($bot) on message 1772459000.000100 "
            "($question), but it was added during the attempt"
        ),
    )


# -- on a live world: the records the Slack service builds --------------------------------------------

LIVE = """
name: language
task: Add Maya to #growth, say hello there, and react to the question.
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $bot}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: maya, name: maya}
      - {ref: omar, name: omar}
    channels:
      - {ref: growth, name: growth, members: [$bot, $omar]}
      - {ref: support, name: support, members: [$bot, $maya, $omar]}
    messages:
      - {ref: question, channel: $support, user: $maya, text: "Lunch at noon?"}
"""


def test_the_check_language_on_a_live_slack_world(stage):
    from soundstage.checks import Attempt, evaluate, parse_checks

    live = stage.world(LIVE)
    refs = live.world.refs
    client = live.slack()
    client.conversations_invite(channel=refs["growth"], users=refs["maya"])
    client.chat_postMessage(channel=refs["growth"], text="Welcome, Maya")
    client.reactions_add(channel=refs["support"], name="thumbsup", timestamp=refs["question"])
    client.reactions_add(channel=refs["support"], name="eyes", timestamp=refs["question"])
    client.reactions_remove(channel=refs["support"], name="eyes", timestamp=refs["question"])
    checks = [
        {
            "id": "added_maya",
            "state": {"diff": {"collection": "slack.channels", "changes": {"members": {"added": "$maya"}}}},
        },
        {
            "id": "no_one_else",
            "state": {"diff": {"collection": "slack.channels", "changes": {"members": {"added": {"only": ["$maya"]}}}}},
        },
        {
            "id": "omar_not_added",
            "state": {"diff": {"collection": "slack.channels", "changes": {"members": {"added": "$omar"}}}},
        },
        {
            "id": "three_in_growth",
            "state": {
                "record": {
                    "collection": "slack.channels",
                    "where": {"id": "$growth", "members": {"only": ["$bot", "$omar", "$maya"]}},
                }
            },
        },
        {
            "id": "one_post",
            "state": {
                "diff": {
                    "collection": "slack.messages",
                    "change": "added",
                    "where": {"subtype": {"not": {"matches": "^channel_"}}},
                    "count": 1,
                }
            },
        },
        {
            "id": "every_added_message",
            "state": {"diff": {"collection": "slack.messages", "change": "added", "count": 1}},
        },
        {
            "id": "thumbs_up",
            "state": {"slack.reaction": {"name": "thumbsup", "by": "$bot", "message": "$question", "new": True}},
        },
        {"id": "eyes_gone", "state": {"slack.reaction": {"name": "eyes", "message": "$question", "count": 0}}},
    ]
    results = evaluate(parse_checks(checks, refs), Attempt.from_world(live.world)).checks
    assert [(r.id, r.passed) for r in results] == [
        ("added_maya", True),
        ("no_one_else", True),
        ("omar_not_added", False),
        ("three_in_growth", True),
        ("one_post", True),
        ("every_added_message", False),  # Maya's join is logged as a message too
        ("thumbs_up", True),
        ("eyes_gone", True),
    ]
    assert results[0].actual == (
        f'1 record matched: id "{refs["growth"]}", name "growth" (members gained "{refs["maya"]}" and joined gained'
        f' "{refs["maya"]}")'
    )
