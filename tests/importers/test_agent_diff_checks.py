"""Agent-Diff assertions as checks: each operator, table and count, and what cannot be said."""

from __future__ import annotations

import re

import pytest

from soundstage.importers.agent_diff_checks import Unexpressed, translate

SEED = [
    {"message_id": "1.1", "user_id": "U1", "reaction_type": "eyes"},
    {"message_id": "1.1", "user_id": "U2", "reaction_type": "eyes"},
]


def check(assertion, ignored=()):
    return translate(assertion, SEED, list(ignored))


def test_operators_compare_exactly_and_text_as_soundstage_keeps_it():
    where = {
        "message_text": {"contains": "Q&A (v2)"},
        "user_id": "U1",
        "channel_id": {"i_contains": "gen"},
        "message_id": {"in": ["1.1", "1.2"]},
        "type": {"ne": "x"},
    }
    t = check({"diff_type": "added", "entity": "messages", "where": where, "expected_count": {"min": 2, "max": 3}})
    assert t.caveat is None and t.only is None
    assert t.check == {
        "diff": {
            "collection": "slack.messages",
            "change": "added",
            "where": {
                "text": {"matches": r"Q&amp;A \(v2\)"},
                "user": {"equals": "U1"},
                "channel": {"matches": "(?i)gen"},
                "ts": {"in": ["1.1", "1.2"]},
                "type": {"not": {"equals": "x"}},
                "subtype": {
                    "not": {
                        "in": [
                            "channel_archive",
                            "channel_join",
                            "channel_leave",
                            "channel_name",
                            "channel_purpose",
                            "channel_topic",
                            "channel_unarchive",
                        ]
                    }
                },
            },
            "count_gte": 2,
            "count_lte": 3,
            "ignore_case": False,
        }
    }


def test_a_reply_and_private_conversations():
    t = check(
        {"diff_type": "added", "entity": "messages", "where": {"parent_id": "9.9", "message_id": {"regex": "^1"}}}
    )
    assert t.check["diff"]["where"]["thread_ts"] == {"equals": "9.9"}
    assert t.check["diff"]["where"]["ts"] == {"matches": "^1", "not": {"equals": "9.9"}}
    t = check(
        {
            "diff_type": "added",
            "entity": "channels",
            "where": {"is_private": True, "is_dm": {"eq": False}},
            "expected_count": 0,
        }
    )
    assert t.check["diff"]["where"] == {"is_channel": {"not": {"equals": True}}, "is_im": {"not": {"equals": True}}}
    assert t.check["diff"]["count"] == 0


def test_a_changed_channel_sees_agent_diffs_fields_and_is_strict():
    a = {
        "diff_type": "changed",
        "entity": "channels",
        "where": {"channel_id": "C1"},
        "expected_changes": {"is_archived": {"from": False, "to": True}},
    }
    t = check(a)
    assert t.check == {
        "diff": {
            "collection": "slack.channels",
            "change": "changed",
            "where": {"id": {"equals": "C1"}},
            "changes": {"is_archived": {"from": {"equals": False}, "to": {"equals": True}}},
            "fields": ["is_archived", "name", "purpose.value", "topic.value"],
            "strict": True,
            "count_gte": 1,
            "ignore_case": False,
        }
    }
    assert t.only is None  # one channel: strict's record is the assertion's
    t = check({**a, "where": {"channel_id": {"regex": "^C"}}}, ignored=["topic_text"])
    assert t.only == {
        "diff": {
            "collection": "slack.channels",
            "change": "changed",
            "where": {"id": {"matches": "^C"}},
            "fields": ["name", "purpose.value"],
            "count": 0,
            "ignore_case": False,
        }
    }


def test_memberships_and_reactions():
    t = check({"diff_type": "removed", "entity": "channel_members", "where": {"user_id": {"in": ["U1", "U2"]}}})
    assert t.check == {
        "diff": {
            "collection": "slack.channels",
            "each": "members",
            "change": "removed",
            "where": {"members": {"in": ["U1", "U2"]}},
            "count_gte": 1,
            "ignore_case": False,
        }
    }
    t = check(
        {
            "diff_type": "removed",
            "entity": "message_reactions",
            "where": {"message_id": "1.1", "reaction_type": "eyes"},
            "expected_count": 1,
        }
    )
    assert t.check == {
        "slack.reaction": {"message": "1.1", "name": "eyes", "new": False, "count": 1}
    }  # 2 there, 1 gone
    t = check(
        {
            "diff_type": "added",
            "entity": "message_reactions",
            "where": {"message_id": {"in": ["1.1"]}},
            "expected_count": {"min": 2},
        }
    )
    assert t.check == {"slack.reaction": {"message": ["1.1"], "new": True, "count_gte": 2}}


@pytest.mark.parametrize(
    ("assertion", "why"),
    [
        (
            {"diff_type": "added", "entity": "messages", "where": {"blocks": {"i_contains": "bold"}}},
            "blocks tested with i_contains, not contains",
        ),
        (
            {"diff_type": "added", "entity": "messages", "where": {"message_text": {"gt": "a"}}},
            "operator 'gt' has no soundstage value test",
        ),
        ({"diff_type": "added", "entity": "users", "where": {}}, "entity 'users' has no soundstage counterpart here"),
        (
            {
                "diff_type": "changed",
                "entity": "channels",
                "where": {"channel_name": "x"},
                "expected_changes": {"is_archived": {}},
            },
            "where tests channel_name, which a change can move",
        ),
        (
            {
                "diff_type": "removed",
                "entity": "message_reactions",
                "where": {"message_id": "1.1"},
                "expected_count": 3,
            },
            "3 removed, but only 2 such reactions are there at the start",
        ),
    ],
)
def test_what_cannot_be_said(assertion, why):
    with pytest.raises(Unexpressed, match=why.replace("(", r"\(")):
        check(assertion)


def test_a_regex_over_escaped_text_is_a_caveat():
    t = check({"diff_type": "added", "entity": "messages", "where": {"message_text": {"regex": "a < b"}}})
    assert t.caveat is not None and t.caveat.startswith("a regex written with &, < or >")


EXACT = None
TYPED = "the blocks the agent sent have {!r} in a text rather than as a type"


@pytest.mark.parametrize(
    ("needle", "path", "value", "caveat"),
    [  # the blocks assertions of Agent-Diff's Slack bench v2 (tests 23 to 29) that soundstage can say
        ('"bold":true', "blocks.**.bold", True, EXACT),
        ('"italic":true', "blocks.**.italic", True, EXACT),
        ('"style":"bullet"', "blocks.**.style", "bullet", EXACT),
        ('"type":"table"', "blocks.**.type", "table", EXACT),
        ('"type":"mrkdwn"', "blocks.**.type", "mrkdwn", EXACT),
        ("rich_text_list", "blocks.**.type", "rich_text_list", TYPED),
        ("rich_text_preformatted", "blocks.**.type", "rich_text_preformatted", TYPED),
        ("rich_text_quote", "blocks.**.type", "rich_text_quote", TYPED),
    ],
)
def test_blocks_are_tested_where_soundstages_own_rich_text_block_never_holds_the_text(needle, path, value, caveat):
    where = {"channel_id": {"eq": "C1"}, "blocks": {"contains": needle}}
    t = check({"diff_type": "added", "entity": "messages", "where": where, "expected_count": 1})
    assert t.check["diff"]["where"][path] == {"equals": value}
    assert t.check["diff"]["ignore_case"] is False
    if caveat is None:
        assert t.caveat is None
    else:
        assert t.caveat is not None and t.caveat.startswith(caveat.format(value))


@pytest.mark.parametrize(
    ("needle", "why"),
    [  # the other four: a message sent as text has them too
        ("rich_text_section", "rich_text_section is in every one of the rich_text blocks soundstage makes"),
        ('"type":"user"', '"type":"user" can be in the rich_text blocks soundstage makes'),
        ("DAU", "'DAU' can be in the text of a message, and so in the rich_text blocks soundstage makes"),
        ("U02ARTEM23", "'U02ARTEM23' can be in the text of a message"),
        ('"text":"x"', '"text":"x" can be in the rich_text blocks'),
    ],
)
def test_blocks_tests_a_message_sent_as_text_could_meet_are_not_said(needle, why):
    where = {"blocks": {"contains": needle}}
    with pytest.raises(Unexpressed, match="^" + re.escape(why)):
        check({"diff_type": "added", "entity": "messages", "where": where})


def test_a_changed_membership_is_a_member_who_joined_again():
    a = {
        "diff_type": "changed",
        "entity": "channel_members",
        "where": {"channel_id": {"eq": "C1"}, "user_id": {"eq": "U1"}},
        "expected_count": 0,
    }
    t = translate(a, SEED, [], frozenset({("C1", "U1")}))
    assert t.caveat is None
    assert t.check == {
        "diff": {
            "collection": "slack.channels",
            "change": "changed",
            "where": {"id": {"equals": "C1"}, "members": {"has": ["U1"]}},
            "fields": ["joined.U1"],
            "count": 0,
            "ignore_case": False,
        }
    }
    with pytest.raises(Unexpressed, match="U1 is not a member of C1 at the start"):
        translate(a, SEED, [], frozenset())
    with pytest.raises(Unexpressed, match="one channel_id and one user_id, each by eq"):
        translate({**a, "where": {"channel_id": "C1"}}, SEED, [], frozenset({("C1", "U1")}))
