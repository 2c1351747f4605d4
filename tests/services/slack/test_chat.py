"""chat.postMessage, .update, .delete, .postEphemeral, .getPermalink."""

from __future__ import annotations

import json
import re

import pytest
from slack_sdk.errors import SlackApiError

from soundstage.services.slack import messages
from soundstage.services.slack.store import EPHEMERAL, MESSAGES, USERS

from .conftest import SCENE, START, ts


def _top_level(slack, channel):
    return [m["ts"] for m in slack.client.conversations_history(channel=channel)["messages"]]


# -- postMessage -------------------------------------------------------------------------------------


def test_post_message(slack):
    body = slack.client.chat_postMessage(channel=slack["support"], text="The export is under Reports").data
    bot = slack.world[USERS].get(slack["bot"])
    message = {
        "type": "message",
        "user": slack["bot"],
        "text": "The export is under Reports",
        "ts": ts(0),
        "team": slack["acme"],
        "bot_id": bot["profile"]["bot_id"],
        "app_id": bot["profile"]["api_app_id"],
        "bot_profile": {
            "id": bot["profile"]["bot_id"],
            "deleted": False,
            "name": "stagebot",
            "updated": START - 86400,
            "app_id": bot["profile"]["api_app_id"],
            "user_id": slack["bot"],
            "icons": {k: bot["profile"]["image_72"] for k in ("image_36", "image_48", "image_72")},
            "team_id": slack["acme"],
        },
        "blocks": [
            {
                "type": "rich_text",
                "block_id": body["message"]["blocks"][0]["block_id"],
                "elements": [
                    {"type": "rich_text_section", "elements": [{"type": "text", "text": "The export is under Reports"}]}
                ],
            }
        ],
    }
    assert re.fullmatch(r"[0-9A-Za-z]{5}", message["blocks"][0]["block_id"])
    assert body == {"ok": True, "channel": slack["support"], "ts": ts(0), "message": message}
    assert slack.message(ts(0)) == {**message, "channel": slack["support"]}
    assert _top_level(slack, slack["support"])[0] == ts(0)


def test_ts_counts_within_a_second(scene_world):
    still = scene_world(SCENE.replace("tick: 5s", "tick: 0s"))
    stamps = [still.call("chat.postMessage", channel=still["support"], text=str(i))["ts"] for i in range(3)]
    assert stamps == [ts(0, 1), ts(0, 2), ts(0, 3)]


def test_post_by_channel_name(slack):
    assert slack.call("chat.postMessage", channel="#support", text="a")["channel"] == slack["support"]
    assert slack.call("chat.postMessage", channel="general", text="b")["channel"] == slack["general"]


def test_post_to_a_user_posts_in_the_dm(slack):
    body = slack.client.chat_postMessage(channel=slack["laura"], text="Hi Laura").data
    dm = body["channel"]
    assert dm.startswith("D")
    assert slack.channel(dm)["members"] == [slack["bot"], slack["laura"]]
    assert slack.message(body["ts"])["channel"] == dm
    assert slack.client.conversations_open(users=slack["laura"])["channel"]["id"] == dm
    existing = slack.client.chat_postMessage(channel=slack["maya"], text="again")["channel"]
    assert existing == slack.client.conversations_open(users=slack["maya"])["channel"]["id"]


def test_reply_in_a_thread(slack):
    body = slack.client.chat_postMessage(channel=slack["support"], text="Reports > Export", thread_ts=slack["question"])
    assert body["message"]["thread_ts"] == slack["question"]
    assert body["message"]["parent_user_id"] == slack["laura"]
    parent = slack.message(slack["question"])
    assert (parent["reply_count"], parent["reply_users"], parent["reply_users_count"], parent["latest_reply"]) == (
        2,
        [slack["maya"], slack["bot"]],
        2,
        ts(0),
    )
    assert ts(0) not in _top_level(slack, slack["support"])
    replies = slack.client.conversations_replies(channel=slack["support"], ts=slack["question"])["messages"]
    assert [m["ts"] for m in replies] == [slack["question"], slack["reply"], ts(0)]
    assert replies[0]["subscribed"] is True


def test_reply_to_a_reply_goes_to_the_thread(slack):
    body = slack.client.chat_postMessage(channel=slack["support"], text="me too", thread_ts=slack["reply"])
    assert body["message"]["thread_ts"] == slack["question"]


def test_reply_broadcast(slack):
    body = slack.client.chat_postMessage(
        channel=slack["support"], text="Fixed!", thread_ts=slack["question"], reply_broadcast=True
    ).data
    assert body["message"]["subtype"] == "thread_broadcast"
    assert _top_level(slack, slack["support"])[0] == ts(0)
    assert slack.message(slack["question"])["reply_count"] == 2
    # The reply carries its thread's parent as `root`, as it is now (in the answer and in the history).
    root = body["message"]["root"]
    assert (root["ts"], root["user"]) == (slack["question"], slack["laura"])
    assert root["text"] == "Where is the CSV export? A customer asked."
    assert (root["reply_count"], root["latest_reply"], root["reply_users"]) == (2, ts(0), [slack["maya"], slack["bot"]])
    assert root["subscribed"] is True and "root" not in root  # the bot replied: it follows the thread
    shown = slack.client.conversations_history(channel=slack["support"], limit=1)["messages"][0]
    assert shown["root"] == root
    replies = slack.client.conversations_replies(channel=slack["support"], ts=slack["question"])["messages"]
    assert [m.get("root") for m in replies] == [None, None, None]


def test_reply_to_an_unknown_thread_posts_where_nobody_sees_it(slack):
    body = slack.client.chat_postMessage(channel=slack["support"], text="lost", thread_ts="1700000000.000100").data
    assert body["ok"] is True and body["message"]["thread_ts"] == "1700000000.000100"
    assert ts(0) not in _top_level(slack, slack["support"])


def test_blocks_and_attachments(slack):
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "*Export* is back"}}]
    body = slack.client.chat_postMessage(
        channel=slack["support"], text="Export is back", blocks=blocks, attachments=[{"fallback": "f", "text": "t"}]
    ).data
    block_id = body["message"]["blocks"][0]["block_id"]
    assert body["message"]["blocks"] == [{**blocks[0], "block_id": block_id}]
    assert body["message"]["attachments"] == [{"id": 1, "fallback": "f", "text": "t"}]
    named = [{**blocks[0], "block_id": "mine"}]
    only_blocks = slack.call("chat.postMessage", channel=slack["support"], blocks=json.dumps(named))
    assert only_blocks["message"]["text"] == "" and only_blocks["message"]["blocks"] == named
    assert "client_msg_id" not in only_blocks["message"]
    just_attachments = slack.call("chat.postMessage", channel=slack["support"], attachments=json.dumps([{"text": "t"}]))
    assert "blocks" not in just_attachments["message"]


def test_bot_username_and_icon(slack):
    message = slack.client.chat_postMessage(
        channel=slack["support"], text="beep", username="Export Bot", icon_emoji=":robot_face:"
    )["message"]
    assert (message["username"], message["icons"]) == ("Export Bot", {"emoji": ":robot_face:"})


def test_message_sizes_slack_documents(slack):
    support = slack["support"]
    block = {"type": "section", "text": {"type": "mrkdwn", "text": "b"}}
    before = len(slack.world[MESSAGES])
    with pytest.raises(SlackApiError) as raised:
        slack.client.chat_postMessage(channel=support, text="hi", blocks=[block] * 51)
    assert raised.value.response["error"] == "invalid_blocks"
    assert slack.error("chat.postMessage", channel=support, text="hi", blocks=json.dumps([block] * 51)) == (
        "invalid_blocks"
    )
    assert len(slack.world[MESSAGES]) == before
    fifty = slack.client.chat_postMessage(channel=support, text="hi", blocks=[block] * 50)
    assert len(slack.message(fifty["ts"])["blocks"]) == 50
    longest = slack.client.chat_postMessage(channel=support, text="é" * 40_000)  # characters, not bytes
    assert len(slack.message(longest["ts"])["text"]) == 40_000
    with pytest.raises(SlackApiError) as raised:
        slack.client.chat_update(channel=support, ts=longest["ts"], text="x" * 40_001)
    assert raised.value.response["error"] == "msg_too_long"


def test_post_message_errors(slack):
    support = slack["support"]
    assert slack.error("chat.postMessage", text="hi") == "channel_not_found"
    assert slack.error("chat.postMessage", channel="C0000000000", text="hi") == "channel_not_found"
    assert slack.error("chat.postMessage", channel="#nope", text="hi") == "channel_not_found"
    assert slack.error("chat.postMessage", channel=slack["secret"], text="hi") == "channel_not_found"
    assert slack.error("chat.postMessage", channel=slack["gone"], text="hi") == "channel_not_found"
    assert slack.error("chat.postMessage", channel=slack["random"], text="hi") == "not_in_channel"
    assert slack.error("chat.postMessage", channel=slack["old"], text="hi") == "is_archived"
    assert slack.error("chat.postMessage", channel=support) == "no_text"
    assert slack.error("chat.postMessage", channel=support, text="x" * 40001) == "msg_too_long"
    assert slack.error("chat.postMessage", channel=support, text="hi", blocks="{not json") == "invalid_blocks"
    assert slack.error("chat.postMessage", channel=support, blocks='[{"text": "no type"}]') == "invalid_blocks"
    assert slack.error("chat.postMessage", channel=support, attachments="[1]") == "invalid_attachments"
    many = json.dumps([{"text": str(i)} for i in range(101)])
    assert slack.error("chat.postMessage", channel=support, attachments=many) == "too_many_attachments"
    bad = slack.call("chat.postMessage", channel=support, text="hi", thread_ts="0")
    assert bad["error"] == "invalid_thread_ts"
    assert bad["response_metadata"]["messages"] == ["[ERROR] 0 is not a valid thread_ts"]
    assert len(slack.world[MESSAGES]) == 8


def test_sdk_raises_with_the_error_code(slack):
    with pytest.raises(SlackApiError) as failure:
        slack.client.chat_postMessage(channel=slack["random"], text="hi")
    assert failure.value.response["error"] == "not_in_channel"


# -- update and delete -------------------------------------------------------------------------------


def test_update_own_message(slack):
    body = slack.client.chat_update(channel=slack["support"], ts=slack["bot_note"], text="Export fixed").data
    assert (body["channel"], body["ts"], body["text"]) == (slack["support"], slack["bot_note"], "Export fixed")
    assert body["message"]["text"] == "Export fixed"
    assert body["message"]["edited"] == {"user": slack["bot"], "ts": ts(0)}
    stored = slack.message(slack["bot_note"])
    assert stored["text"] == "Export fixed" and stored["reactions"][0]["name"] == "eyes"


def test_update_errors(slack):
    support = slack["support"]
    assert slack.error("chat.update", channel=support, ts=slack["question"], text="x") == "cant_update_message"
    assert slack.error("chat.update", channel=support, ts="1700000000.000100", text="x") == "message_not_found"
    assert slack.error("chat.update", channel=support, text="x") == "message_not_found"
    assert slack.error("chat.update", channel=slack["general"], ts=slack["bot_note"], text="x") == "message_not_found"
    assert slack.error("chat.update", channel="C0000000000", ts=slack["bot_note"], text="x") == "channel_not_found"
    assert slack.error("chat.update", channel=support, ts=slack["bot_note"]) == "no_text"
    assert slack.error("chat.update", channel=support, ts=slack["bot_note"], text="x" * 40001) == "msg_too_long"


def test_delete_own_message(slack):
    body = slack.client.chat_delete(channel=slack["support"], ts=slack["bot_note"]).data
    assert body == {"ok": True, "channel": slack["support"], "ts": slack["bot_note"]}
    assert slack["bot_note"] not in slack.messages()
    assert slack.error("chat.delete", channel=slack["support"], ts=slack["bot_note"]) == "message_not_found"


def test_delete_a_thread_parent_leaves_a_tombstone(slack):
    parent = slack.call("chat.postMessage", channel=slack["support"], text="parent")["ts"]
    reply = slack.call("chat.postMessage", channel=slack["support"], text="child", thread_ts=parent)["ts"]
    slack.client.chat_delete(channel=slack["support"], ts=parent)
    tombstone = slack.client.conversations_history(channel=slack["support"])["messages"][0]
    assert (tombstone["subtype"], tombstone["text"], tombstone["user"], tombstone["reply_count"]) == (
        "tombstone",
        "This message was deleted.",
        "USLACKBOT",
        1,
    )
    assert "bot_id" not in tombstone
    assert slack.error("chat.delete", channel=slack["support"], ts=parent) == "message_not_found"
    slack.client.chat_delete(channel=slack["support"], ts=reply)
    assert parent not in slack.messages() and reply not in slack.messages()


def test_delete_a_reply_updates_the_parent(slack):
    reply = slack.call("chat.postMessage", channel=slack["support"], text="child", thread_ts=slack["question"])["ts"]
    assert slack.message(slack["question"])["reply_count"] == 2
    slack.client.chat_delete(channel=slack["support"], ts=reply)
    parent = slack.message(slack["question"])
    assert (parent["reply_count"], parent["reply_users"], parent["latest_reply"]) == (
        1,
        [slack["maya"]],
        slack["reply"],
    )


def test_delete_errors(slack):
    assert slack.error("chat.delete", channel=slack["support"], ts=slack["question"]) == "cant_delete_message"
    assert slack.error("chat.delete", token="user", channel=slack["support"], ts=slack["question"]) == (
        "cant_delete_message"
    )
    assert slack.error("chat.delete", channel=slack["support"], ts="nope") == "message_not_found"
    assert slack.error("chat.delete", channel=slack["secret"], ts=slack["secret_note"]) == "channel_not_found"


def test_an_admin_user_token_deletes_anyones_message(scene_world):
    admin = scene_world(SCENE.replace("agent: {slack_user: $bot}", "agent: {slack_user: $omar}"))
    assert admin.error("chat.delete", channel=admin["general"], ts=admin["welcome"]) == "cant_delete_message"
    assert admin.call("chat.delete", token="user", channel=admin["general"], ts=admin["welcome"])["ok"] is True


# -- ephemeral and permalinks ------------------------------------------------------------------------


def test_post_ephemeral(slack):
    body = slack.client.chat_postEphemeral(channel=slack["support"], user=slack["maya"], text="Only you").data
    assert body == {"ok": True, "message_ts": ts(0)}
    assert ts(0) not in slack.messages()
    assert dict(slack.world[EPHEMERAL].get(ts(0))) == {
        "type": "message",
        "ts": ts(0),
        "channel": slack["support"],
        "user": slack["maya"],
        "sender": slack["bot"],
        "text": "Only you",
    }


def test_post_ephemeral_errors(slack):
    support = slack["support"]
    assert slack.error("chat.postEphemeral", channel=support, user=slack["omar"], text="x") == "user_not_in_channel"
    assert slack.error("chat.postEphemeral", channel=support, text="x") == "user_not_in_channel"
    assert slack.error("chat.postEphemeral", channel=support, user="U0000000000", text="x") == "user_not_found"
    assert slack.error("chat.postEphemeral", channel=support, user=slack["maya"]) == "no_text"
    assert slack.error("chat.postEphemeral", channel=slack["random"], user=slack["maya"], text="x") == "not_in_channel"
    assert slack.error("chat.postEphemeral", channel=slack["old"], user=slack["maya"], text="x") == "is_archived"
    assert slack.error("chat.postEphemeral", channel=slack["secret"], user=slack["maya"], text="x") == (
        "channel_not_found"
    )


def test_get_permalink(slack):
    body = slack.client.chat_getPermalink(channel=slack["support"], message_ts=slack["question"]).data
    assert body == {
        "ok": True,
        "channel": slack["support"],
        "permalink": f"https://acme.slack.com/archives/{slack['support']}/p{slack['question'].replace('.', '')}",
    }
    reply = slack.client.chat_getPermalink(channel=slack["support"], message_ts=slack["reply"])["permalink"]
    assert reply.endswith(f"?thread_ts={slack['question']}&cid={slack['support']}")


def test_get_permalink_errors(slack):
    assert slack.error("chat.getPermalink", channel=slack["support"], message_ts="1700000000.000100") == (
        "message_not_found"
    )
    assert slack.error("chat.getPermalink", channel=slack["support"]) == "message_not_found"
    assert slack.error("chat.getPermalink", channel=slack["secret"], message_ts=slack["secret_note"]) == (
        "channel_not_found"
    )


def test_a_thread_ts_of_another_channel_starts_no_thread_there(slack):
    body = slack.client.chat_postMessage(channel=slack["general"], text="elsewhere", thread_ts=slack["question"]).data
    assert body["message"]["thread_ts"] == slack["question"] and "parent_user_id" not in body["message"]
    assert slack.message(slack["question"])["reply_count"] == 1


# -- text as Slack keeps it --------------------------------------------------------------------------


def test_text_is_escaped_outside_slack_markup(slack):
    text = (
        f"P&L <@{slack['maya']}> 3 < 4 > 2 &amp; <https://acme.test/a?b=1&c=2|the report> <!here> <#{slack['support']}>"
    )
    message = slack.client.chat_postMessage(channel=slack["support"], text=text)["message"]
    assert message["text"] == (
        f"P&amp;L <@{slack['maya']}> 3 &lt; 4 &gt; 2 &amp; <https://acme.test/a?b=1&c=2|the report> <!here> "
        f"<#{slack['support']}>"
    )
    assert message["blocks"][0]["elements"][0]["elements"] == [
        {"type": "text", "text": "P&L "},
        {"type": "user", "user_id": slack["maya"]},
        {"type": "text", "text": " 3 < 4 > 2 & "},
        {"type": "link", "url": "https://acme.test/a?b=1&c=2", "text": "the report"},
        {"type": "text", "text": " "},
        {"type": "broadcast", "range": "here"},
        {"type": "text", "text": " "},
        {"type": "channel", "channel_id": slack["support"]},
    ]
    history = slack.client.conversations_history(channel=slack["support"], limit=1)["messages"][0]
    assert history["text"] == message["text"]


def test_update_and_ephemeral_escape_too(slack):
    support = slack["support"]
    updated = slack.client.chat_update(channel=support, ts=slack["bot_note"], text="A & B <!subteam^S1|@sre>").data
    assert updated["text"] == "A &amp; B <!subteam^S1|@sre>"
    assert updated["message"]["blocks"][0]["elements"][0]["elements"] == [
        {"type": "text", "text": "A & B "},
        {"type": "usergroup", "usergroup_id": "S1"},
    ]
    slack.client.chat_postEphemeral(channel=support, user=slack["maya"], text="x < y")
    assert [m["text"] for m in slack.world[EPHEMERAL]] == ["x &lt; y"]


def test_people_messages_carry_a_client_msg_id_and_api_posts_do_not(slack):
    said = messages.post(slack.world, slack["support"], slack["maya"], "on it")
    assert re.fullmatch(r"[0-9a-f-]{36}", said["client_msg_id"]) and said["blocks"][0]["type"] == "rich_text"
    posted = slack.user_client.chat_postMessage(channel=slack["support"], text="by API")["message"]
    assert "client_msg_id" not in posted
    slack.client.conversations_join(channel=slack["random"])
    joined = slack.client.conversations_history(channel=slack["random"], limit=1)["messages"][0]
    assert joined["subtype"] == "channel_join" and "blocks" not in joined and "client_msg_id" not in joined


def test_metadata_is_kept_and_shown_when_asked_for(slack):
    metadata = {"event_type": "task_created", "event_payload": {"id": "T-1"}}
    posted = slack.client.chat_postMessage(channel=slack["support"], text="Task made", metadata=metadata).data
    assert posted["message"]["metadata"] == metadata
    history = slack.client.conversations_history(channel=slack["support"], limit=1)["messages"][0]
    assert "metadata" not in history
    asked = slack.client.conversations_history(channel=slack["support"], limit=1, include_all_metadata=True)
    assert asked["messages"][0]["metadata"] == metadata
    raw = slack.call("chat.postMessage", channel=slack["support"], text="t", metadata=json.dumps(metadata))
    assert raw["message"]["metadata"] == metadata
    support = slack["support"]
    assert slack.error("chat.postMessage", channel=support, text="t", metadata="{") == "invalid_metadata_format"
    assert slack.error("chat.postMessage", channel=support, text="t", metadata="{}") == "invalid_metadata_format"
    bad = json.dumps({"event_type": "x", "event_payload": []})
    assert slack.error("chat.postMessage", channel=support, text="t", metadata=bad) == "invalid_metadata_format"
    # chat.update replaces the metadata when given one, else keeps it.
    edited = slack.client.chat_update(channel=support, ts=posted["ts"], text="Task made (edited)").data
    assert edited["message"]["metadata"] == metadata
    done = {"event_type": "task_done", "event_payload": {"id": "T-1"}}
    redone = slack.client.chat_update(channel=support, ts=posted["ts"], text="Task done", metadata=done).data
    assert redone["message"]["metadata"] == done and slack.message(posted["ts"])["metadata"] == done
    assert (
        slack.error("chat.update", channel=support, ts=posted["ts"], text="t", metadata="{}")
        == "invalid_metadata_format"
    )
