"""reactions.add, .remove, .get; pins.add, .list."""

from __future__ import annotations

from .conftest import START


def test_add_reactions(slack):
    assert slack.client.reactions_add(channel=slack["support"], timestamp=slack["question"], name="thumbsup").data == {
        "ok": True
    }
    slack.client.reactions_add(channel=slack["support"], timestamp=slack["bot_note"], name=":eyes:")
    assert slack.message(slack["question"])["reactions"] == [{"name": "thumbsup", "users": [slack["bot"]], "count": 1}]
    assert slack.message(slack["bot_note"])["reactions"] == [
        {"name": "eyes", "users": [slack["maya"], slack["laura"], slack["bot"]], "count": 3}
    ]


def test_add_reaction_errors(slack):
    support, question = slack["support"], slack["question"]
    slack.client.reactions_add(channel=support, timestamp=question, name="tada")
    assert slack.error("reactions.add", channel=support, timestamp=question, name="tada") == "already_reacted"
    assert slack.error("reactions.add", channel=support, timestamp=question, name="Party Parrot") == "invalid_name"
    assert slack.error("reactions.add", channel=support, timestamp=question) == "invalid_name"
    assert slack.error("reactions.add", channel=support, name="tada") == "no_item_specified"
    assert slack.error("reactions.add", timestamp=question, name="tada") == "no_item_specified"
    assert slack.error("reactions.add", channel=support, timestamp="yesterday", name="tada") == "bad_timestamp"
    assert slack.error("reactions.add", channel=support, timestamp="1700000000.000100", name="tada") == (
        "message_not_found"
    )
    assert slack.error("reactions.add", channel=slack["secret"], timestamp=slack["secret_note"], name="tada") == (
        "channel_not_found"
    )
    assert slack.error("reactions.add", channel=slack["old"], timestamp=slack["old_note"], name="tada") == "is_archived"
    assert slack.error("reactions.add", file="F0000000000", name="tada") == "file_not_found"


def test_remove_reaction(slack):
    slack.client.reactions_add(channel=slack["support"], timestamp=slack["question"], name="tada")
    assert slack.client.reactions_remove(channel=slack["support"], timestamp=slack["question"], name="tada").data == {
        "ok": True
    }
    assert (
        "reactions" not in slack.client.reactions_get(channel=slack["support"], timestamp=slack["question"])["message"]
    )


def test_remove_reaction_errors(slack):
    support = slack["support"]
    assert slack.error("reactions.remove", channel=support, timestamp=slack["bot_note"], name="eyes") == "no_reaction"
    assert (
        slack.error("reactions.remove", channel=support, timestamp=slack["bot_note"], name="no way") == "invalid_name"
    )
    assert slack.error("reactions.remove", channel=support, name="eyes") == "no_item_specified"
    assert slack.error("reactions.remove", channel=support, timestamp="x", name="eyes") == "bad_timestamp"
    assert slack.error("reactions.remove", channel=support, timestamp="1700000000.000100", name="eyes") == (
        "message_not_found"
    )
    assert slack.error("reactions.remove", file_comment="Fc000", name="eyes") == "file_not_found"


def test_get_reactions(slack):
    body = slack.client.reactions_get(channel=slack["support"], timestamp=slack["bot_note"]).data
    assert (body["type"], body["channel"]) == ("message", slack["support"])
    message = body["message"]
    assert message["reactions"] == [{"name": "eyes", "users": [slack["maya"], slack["laura"]], "count": 2}]
    assert message["permalink"] == (
        f"https://acme.slack.com/archives/{slack['support']}/p{slack['bot_note'].replace('.', '')}"
    )


def test_get_reactions_errors(slack):
    assert slack.error("reactions.get", channel=slack["support"]) == "no_item_specified"
    assert slack.error("reactions.get", channel=slack["support"], timestamp="x") == "bad_timestamp"
    assert slack.error("reactions.get", channel=slack["support"], timestamp="1700000000.000100") == "message_not_found"
    assert slack.error("reactions.get", file="F0000000000") == "file_not_found"


def test_pins(slack):
    assert slack.client.pins_add(channel=slack["support"], timestamp=slack["bot_note"]).data == {"ok": True}
    assert slack.message(slack["bot_note"])["pinned_to"] == [slack["support"]]
    items = slack.client.pins_list(channel=slack["support"])["items"]
    assert [(i["type"], i["channel"], i["created_by"], i["created"], i["message"]["ts"]) for i in items] == [
        ("message", slack["support"], slack["bot"], START, slack["bot_note"]),
        ("message", slack["support"], slack["laura"], START - 240, slack["question"]),
    ]
    assert items[0]["message"]["permalink"].startswith("https://acme.slack.com/archives/")
    history = slack.client.conversations_history(channel=slack["support"])
    assert history["pin_count"] == 2


def test_pins_errors(slack):
    support = slack["support"]
    assert slack.error("pins.add", channel=support, timestamp=slack["question"]) == "already_pinned"
    assert slack.error("pins.add", channel=support) == "no_item_specified"
    assert slack.error("pins.add", channel=support, timestamp="soon") == "bad_timestamp"
    assert slack.error("pins.add", channel=support, timestamp="1700000000.000100") == "message_not_found"
    assert slack.error("pins.add", channel=slack["random"], timestamp=slack["lunch"]) == "not_in_channel"
    assert slack.error("pins.add", channel=slack["secret"], timestamp=slack["secret_note"]) == "channel_not_found"
    assert slack.error("pins.list", channel=slack["secret"]) == "channel_not_found"
    assert slack.error("pins.list") == "channel_not_found"
    assert slack.client.pins_list(channel=slack["general"])["items"] == []


def test_deleting_a_pinned_message_unpins_it(slack):
    slack.client.pins_add(channel=slack["support"], timestamp=slack["bot_note"])
    slack.client.chat_delete(channel=slack["support"], ts=slack["bot_note"])
    assert [i["message"]["ts"] for i in slack.client.pins_list(channel=slack["support"])["items"]] == [
        slack["question"]
    ]


def test_list_reactions_of_a_user(slack):
    support = slack["support"]
    slack.client.reactions_add(channel=support, timestamp=slack["question"], name="tada")
    items = slack.client.reactions_list().data["items"]
    assert [(i["type"], i["channel"], i["message"]["ts"]) for i in items] == [("message", support, slack["question"])]
    assert items[0]["message"]["permalink"].startswith("https://acme.slack.com/archives/")
    mine = slack.client.reactions_list(user=slack["laura"]).data
    assert [i["message"]["ts"] for i in mine["items"]] == [slack["bot_note"]]
    assert mine["response_metadata"] == {"next_cursor": ""}
    slack.client.reactions_add(channel=support, timestamp=slack["reply"], name="eyes")
    pages = [[i["message"]["ts"] for i in p["items"]] for p in slack.client.reactions_list(limit=1)]
    assert pages == [[slack["reply"]], [slack["question"]]]
    assert slack.error("reactions.list", user="U0000000000") == "user_not_found"
