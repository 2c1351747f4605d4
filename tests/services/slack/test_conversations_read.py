"""conversations.list, .info, .history, .replies, .members: visibility, membership, windows and cursors."""

from __future__ import annotations

import re

from .conftest import START

REQUIRED_CHANNEL = {
    "id",
    "name",
    "created",
    "creator",
    "is_archived",
    "is_channel",
    "is_general",
    "is_mpim",
    "is_group",
    "is_org_shared",
    "is_im",
    "is_shared",
    "is_private",
    "name_normalized",
    "topic",
    "purpose",
}


def test_list_public_channels(slack):
    body = slack.client.conversations_list().data
    channels = body["channels"]
    assert [(c["name"], c["is_member"], c["num_members"]) for c in channels] == [
        ("general", True, 4),
        ("support", True, 3),
        ("random", False, 1),
        ("old-project", True, 2),
    ]
    assert body["response_metadata"] == {"next_cursor": ""}
    for channel in channels:
        assert REQUIRED_CHANNEL <= set(channel) and "members" not in channel
    assert channels[0]["is_general"] is True and channels[3]["is_archived"] is True


def test_list_types_and_exclude_archived(slack):
    names = [
        c["name"] for c in slack.client.conversations_list(types="public_channel", exclude_archived=True)["channels"]
    ]
    assert names == ["general", "support", "random"]
    private = slack.client.conversations_list(types="private_channel")["channels"]
    assert [c["name"] for c in private] == ["ops"]  # #secret is hidden from non-members
    ims = slack.client.conversations_list(types="im")["channels"]
    assert [(c["is_im"], c["user"]) for c in ims] == [(True, slack["maya"])]
    assert "num_members" not in ims[0]


def test_list_pages_with_the_sdk_iterator(slack):
    pages = [p.data for p in slack.client.conversations_list(limit=3, types="public_channel,private_channel")]
    assert [[c["name"] for c in p["channels"]] for p in pages] == [
        ["general", "support", "random"],
        ["ops", "old-project"],
    ]


def test_list_errors(slack):
    assert slack.error("conversations.list", types="channels") == "invalid_types"
    assert slack.error("conversations.list", cursor="Y2hhbm5lbDpDMTIz") == "invalid_cursor"


def test_info(slack):
    channel = slack.client.conversations_info(channel=slack["support"], include_num_members=True)["channel"]
    assert channel["id"] == slack["support"] and channel["num_members"] == 3 and channel["is_member"] is True
    created = START - 30 * 86400 + 60
    assert channel["created"] == created
    assert channel["topic"] == {"value": "Customer questions", "creator": slack["bot"], "last_set": created}
    assert channel["purpose"]["value"] == "Help customers"
    assert "num_members" not in slack.client.conversations_info(channel=slack["support"])["channel"]
    assert (channel["is_read_only"], channel["is_thread_only"], channel["is_non_threadable"]) == (False, False, False)
    assert (channel["updated"], channel["last_read"]) == (created * 1000, "0000000000.000000")
    assert "last_read" not in slack.client.conversations_info(channel=slack["random"])["channel"]
    assert (
        slack.client.conversations_info(channel=slack["support"], include_locale=True)["channel"]["locale"] == "en-US"
    )
    tabs = [{"id": "files", "label": "", "type": "files"}, {"id": "bookmarks", "label": "", "type": "bookmarks"}]
    assert channel["properties"] == {
        "tabs": tabs,
        "tabz": tabs,
        "is_dormant": False,
        "has_slack_connect_invite_created": False,
    }


def test_mark_moves_last_read(slack):
    question = slack["question"]
    assert slack.user_client.conversations_mark(channel=slack["support"], ts=question).data == {"ok": True}
    assert slack.client.conversations_info(channel=slack["support"])["channel"]["last_read"] == question
    assert slack.error("conversations.mark", channel=slack["support"], ts=question) == "not_allowed_token_type"
    assert slack.error("conversations.mark", token="user", channel=slack["support"], ts="soon") == "invalid_timestamp"
    assert slack.error("conversations.mark", token="user", channel=slack["support"]) == "invalid_timestamp"
    assert slack.error("conversations.mark", token="user", channel=slack["random"], ts=question) == "not_in_channel"
    assert slack.error("conversations.mark", token="user", channel=slack["secret"], ts=question) == "channel_not_found"


def test_info_of_a_dm(slack):
    dm = slack.client.conversations_open(users=slack["maya"])["channel"]["id"]
    channel = slack.client.conversations_info(channel=dm)["channel"]
    assert channel["is_im"] is True and channel["user"] == slack["maya"] and "is_member" not in channel
    assert "properties" not in channel  # a DM has no tabs of its own
    group = slack.client.conversations_open(users=f"{slack['maya']},{slack['laura']}", return_im=True)["channel"]
    assert group["is_mpim"] is True and "properties" not in group


def test_info_errors(slack):
    assert slack.error("conversations.info", channel=slack["secret"]) == "channel_not_found"
    assert slack.error("conversations.info", channel="C0000000000") == "channel_not_found"
    assert slack.error("conversations.info") == "channel_not_found"


def test_history_newest_first_with_thread_summary(slack):
    body = slack.client.conversations_history(channel=slack["support"]).data
    assert [m["text"] for m in body["messages"]] == [
        "I am looking into the export",
        "Where is the CSV export? A customer asked.",
    ]
    assert (body["has_more"], body["pin_count"], body["channel_actions_ts"], body["channel_actions_count"]) == (
        False,
        1,
        None,
        0,
    )
    assert "response_metadata" not in body
    note, question = body["messages"]
    assert re.fullmatch(
        r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", question["client_msg_id"]
    )
    section = {"type": "rich_text_section", "elements": [{"type": "text", "text": question["text"]}]}
    assert question == {
        "type": "message",
        "user": slack["laura"],
        "client_msg_id": question["client_msg_id"],
        "blocks": [{"type": "rich_text", "block_id": question["blocks"][0]["block_id"], "elements": [section]}],
        "text": "Where is the CSV export? A customer asked.",
        "ts": slack["question"],
        "team": slack["acme"],
        "pinned_to": [slack["support"]],
        "thread_ts": slack["question"],
        "reply_count": 1,
        "reply_users_count": 1,
        "latest_reply": slack["reply"],
        "reply_users": [slack["maya"]],
        "is_locked": False,
        "subscribed": False,
    }
    assert note["bot_id"].startswith("B") and note["bot_profile"]["name"] == "stagebot"
    assert note["reactions"] == [{"name": "eyes", "users": [slack["maya"], slack["laura"]], "count": 2}]
    assert "channel" not in note


def test_history_pages(slack):
    first = slack.client.conversations_history(channel=slack["support"], limit=1).data
    assert [m["ts"] for m in first["messages"]] == [slack["bot_note"]]
    assert first["has_more"] is True and first["response_metadata"]["next_cursor"]
    pages = [p.data for p in slack.client.conversations_history(channel=slack["support"], limit=1)]
    assert [m["ts"] for p in pages for m in p["messages"]] == [slack["bot_note"], slack["question"]]
    assert slack.error("conversations.history", channel=slack["support"], cursor="bmV4dF90czox") == "invalid_cursor"


def test_history_window(slack):
    def texts(**window):
        return [m["ts"] for m in slack.client.conversations_history(channel=slack["support"], **window)["messages"]]

    question = slack["question"]
    assert texts(latest=question) == []
    assert texts(latest=question, inclusive=True) == [question]
    assert texts(oldest=question) == [slack["bot_note"]]
    assert texts(oldest=str(START - 241), latest=str(START)) == [slack["bot_note"], question]
    # The bounds given are said back as given; none given, none said.
    bounded = slack.client.conversations_history(channel=slack["support"], oldest=str(START - 241), latest=question)
    assert (bounded["oldest"], bounded["latest"]) == (str(START - 241), question)
    unbounded = slack.client.conversations_history(channel=slack["support"]).data
    assert "oldest" not in unbounded and "latest" not in unbounded


def test_history_errors(slack):
    assert slack.error("conversations.history", channel=slack["support"], latest="soon") == "invalid_ts_latest"
    assert slack.error("conversations.history", channel=slack["support"], oldest="-5") == "invalid_ts_oldest"
    assert slack.error("conversations.history", channel=slack["support"], limit="x") == "invalid_limit"
    assert slack.error("conversations.history", channel=slack["secret"]) == "channel_not_found"
    assert slack.error("conversations.history", channel=slack["random"]) == "not_in_channel"


def test_a_person_may_read_a_public_channel_they_are_not_in(slack):
    body = slack.call("conversations.history", token="user", channel=slack["random"])
    assert [m["ts"] for m in body["messages"]] == [slack["lunch"]]


def test_history_of_a_dm(slack):
    dm = slack.client.conversations_open(users=slack["maya"])["channel"]["id"]
    messages = slack.client.conversations_history(channel=dm)["messages"]
    assert [(m["user"], m["text"], m["ts"]) for m in messages] == [
        (slack["maya"], "Can you check the export job?", f"{START - 7200}.000100"),
    ]


def test_replies(slack):
    body = slack.client.conversations_replies(channel=slack["support"], ts=slack["question"]).data
    parent, reply = body["messages"]
    assert body["has_more"] is False
    assert parent["ts"] == slack["question"] and parent["reply_count"] == 1
    section = {"type": "rich_text_section", "elements": [{"type": "text", "text": "Under Reports, I think"}]}
    assert reply == {
        "type": "message",
        "user": slack["maya"],
        "client_msg_id": reply["client_msg_id"],
        "blocks": [{"type": "rich_text", "block_id": reply["blocks"][0]["block_id"], "elements": [section]}],
        "text": "Under Reports, I think",
        "ts": slack["reply"],
        "team": slack["acme"],
        "thread_ts": slack["question"],
        "parent_user_id": slack["laura"],
    }


def test_replies_from_a_reply_and_of_a_message_without_replies(slack):
    from_reply = slack.client.conversations_replies(channel=slack["support"], ts=slack["reply"])["messages"]
    assert [m["ts"] for m in from_reply] == [slack["question"], slack["reply"]]
    alone = slack.client.conversations_replies(channel=slack["support"], ts=slack["bot_note"])["messages"]
    assert [m["ts"] for m in alone] == [slack["bot_note"]]


def test_replies_pages_and_window(slack):
    pages = [
        p.data for p in slack.client.conversations_replies(channel=slack["support"], ts=slack["question"], limit=1)
    ]
    assert [m["ts"] for p in pages for m in p["messages"]] == [slack["question"], slack["reply"]]
    later = slack.client.conversations_replies(channel=slack["support"], ts=slack["question"], oldest=slack["question"])
    assert [m["ts"] for m in later["messages"]] == [slack["reply"]]


def test_replies_errors(slack):
    assert slack.error("conversations.replies", channel=slack["support"], ts="1700000000.000100") == "thread_not_found"
    assert slack.error("conversations.replies", channel=slack["support"]) == "thread_not_found"
    assert slack.error("conversations.replies", channel=slack["general"], ts=slack["question"]) == "thread_not_found"
    assert slack.error("conversations.replies", channel=slack["secret"], ts=slack["secret_note"]) == "channel_not_found"
    assert slack.error("conversations.replies", channel=slack["random"], ts=slack["question"]) == "not_in_channel"


def test_members(slack):
    body = slack.client.conversations_members(channel=slack["support"]).data
    assert body["members"] == [slack["bot"], slack["maya"], slack["laura"]]
    assert body["response_metadata"] == {"next_cursor": ""}
    pages = [p.data for p in slack.client.conversations_members(channel=slack["general"], limit=3)]
    assert [len(p["members"]) for p in pages] == [3, 1]
    assert slack.client.conversations_members(channel=slack["random"])["members"] == [slack["maya"]]


def test_members_errors(slack):
    assert slack.error("conversations.members", channel=slack["secret"]) == "channel_not_found"
    assert slack.error("conversations.members", channel=slack["support"], limit="many") == "invalid_limit"
    assert slack.error("conversations.members", channel=slack["support"], cursor="bWVtYmVyOlVY") == "invalid_cursor"
