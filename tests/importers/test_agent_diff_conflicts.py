"""Assertions of one Agent-Diff test that no attempt can meet together, found and said."""

from __future__ import annotations

from soundstage.importers.agent_diff_conflicts import conflicts, demand

IGNORED = ["created_at", "updated_at"]
OLD = {"channel_id": {"eq": "C_OLD_PROJECT"}}


def changed(where, changes, **more):
    return {"diff_type": "changed", "entity": "channels", "where": where, "expected_changes": changes, **more}


def found(*assertions, ignored=IGNORED):
    demands = [demand(f"a{n + 1}", a, ignored) for n, a in enumerate(assertions)]
    return conflicts([d for d in demands if d is not None])


def test_two_strict_assertions_on_one_row_that_forbid_each_others_field():
    # test_50 of Agent-Diff's Slack bench v2, a2 and a3
    renamed = changed(OLD, {"is_archived": {"to": {"eq": False}}, "channel_name": {"to": {"contains": "q1"}}})
    topic = changed(OLD, {"topic_text": {"to": {"contains": "Americas"}}})
    assert found(renamed, topic) == [
        (
            "a1 and a2 cannot both hold (the channels row C_OLD_PROJECT): a1 needs channel_name, is_archived changed,"
            " and a2 lets it change only topic_text; and a2 needs topic_text changed, and a1 lets it change only"
            " channel_name, is_archived"
        )
    ]


def test_one_way_is_enough_and_a_plain_value_is_eq():
    both = changed({"channel_id": "C1"}, {"topic_text": {}, "purpose_text": {}})
    topic = changed({"channel_id": {"eq": "C1"}}, {"topic_text": {}, "purpose_text": {}, "channel_name": {}})
    assert found(both, topic) == [
        (
            "a1 and a2 cannot both hold (the channels row C1): a2 needs channel_name changed, and a1 lets it change"
            " only purpose_text, topic_text"
        )
    ]


def test_what_can_hold_together_is_not_a_conflict():
    topic = changed(OLD, {"topic_text": {}})
    assert found(topic, changed(OLD, {"topic_text": {"to": {"contains": "x"}}})) == []  # the same field
    assert found(topic, changed(OLD, {"channel_name": {}}), ignored=[*IGNORED, "channel_name", "topic_text"]) == []
    assert found(topic, changed({"channel_id": {"eq": "C2"}}, {"channel_name": {}})) == []  # other rows
    assert found(topic, changed({"channel_id": {"regex": "^C"}}, {"channel_name": {}})) == []  # not pinned
    assert found(topic, changed(OLD, {"channel_name": {}}, expected_count=0)) == [  # needs none, forbids one
        (
            "a1 and a2 cannot both hold (the channels row C_OLD_PROJECT): a1 needs topic_text changed, and a2 lets"
            " it change only channel_name"
        )
    ]
    assert (
        found(changed(OLD, {"topic_text": {}}, expected_count=0), changed(OLD, {"channel_name": {}}, expected_count=0))
        == []
    )
    # the second tests more than the first: a row the first changes need not meet it
    narrower = changed({**OLD, "channel_name": {"eq": "x"}}, {"channel_name": {}})
    assert found(topic, narrower) == [
        (
            "a1 and a2 cannot both hold (the channels row C_OLD_PROJECT): a2 needs channel_name changed, and a1 lets"
            " it change only topic_text"
        )
    ]
