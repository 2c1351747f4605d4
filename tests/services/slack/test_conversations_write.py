"""conversations.open, .join, .create, .invite, .kick, .leave, .setTopic, .setPurpose, .archive,
.unarchive, .rename: their effects on state, the messages Slack posts about them, and every error."""

from __future__ import annotations

from soundstage.services.slack.store import CHANNELS

from .conftest import SCENE, START, ts


def _history(slack, channel):
    return [(m.get("subtype"), m["text"]) for m in slack.client.conversations_history(channel=channel)["messages"]]


# -- open --------------------------------------------------------------------------------------------


def test_open_an_existing_dm(slack):
    body = slack.client.conversations_open(users=slack["maya"]).data
    dm = slack.world[CHANNELS].by("is_im", True)[0]
    assert body == {"ok": True, "no_op": True, "already_open": True, "channel": {"id": dm["id"]}}


def test_open_a_new_dm(slack):
    body = slack.client.conversations_open(users=slack["laura"], return_im=True).data
    channel = body["channel"]
    assert "already_open" not in body
    assert channel["id"].startswith("D") and channel["is_im"] is True and channel["user"] == slack["laura"]
    assert channel["created"] == START
    assert slack.channel(channel["id"])["members"] == [slack["bot"], slack["laura"]]
    assert (channel["last_read"], channel["latest"], channel["unread_count"], channel["is_open"]) == (
        "0000000000.000000",
        None,
        0,
        True,
    )
    again = slack.client.conversations_open(users=slack["laura"]).data
    assert again["already_open"] is True and again["channel"] == {"id": channel["id"]}


def test_open_answers_the_id_alone_unless_return_im(slack):
    """As Slack documents conversations.open: the channel's id alone, with `no_op` and `already_open` for a DM
    that exists; with `return_im`, the whole IM; the same through slack_sdk and raw HTTP."""
    omar, team = slack["omar"], slack["acme"]
    new = slack.client.conversations_open(users=omar).data
    dm = new["channel"]["id"]
    assert new == {"ok": True, "channel": {"id": dm}}
    existing = {"ok": True, "no_op": True, "already_open": True, "channel": {"id": dm}}
    assert slack.raw("conversations.open", data={"users": omar}).json() == existing
    assert slack.client.conversations_open(users=omar).data == existing
    im = {
        "id": dm,
        "created": START,
        "is_archived": False,
        "is_im": True,
        "is_org_shared": False,
        "context_team_id": team,
        "user": omar,
        "is_user_deleted": False,
        "priority": 0,
        "updated": START * 1000,
        "last_read": "0000000000.000000",
        "latest": None,
        "unread_count": 0,
        "unread_count_display": 0,
        "is_open": True,
    }
    full = {"ok": True, "no_op": True, "already_open": True, "channel": im}
    assert slack.client.conversations_open(users=omar, return_im=True).data == full
    assert slack.raw("conversations.open", data={"channel": dm, "return_im": "true"}).json() == full
    # A new DM with return_im: the whole IM, without no_op (made by the 6th call, 5s ticks).
    laura = slack.raw("conversations.open", data={"users": slack["laura"], "return_im": "1"}).json()
    made = laura["channel"]["id"]
    assert laura == {
        "ok": True,
        "channel": {**im, "id": made, "user": slack["laura"], "created": START + 25, "updated": (START + 25) * 1000},
    }


def test_open_with_return_im_tells_what_is_unread(slack):
    channel = slack.client.conversations_open(users=slack["maya"], return_im=True).data["channel"]
    assert (channel["latest"]["text"], channel["unread_count"], channel["unread_count_display"]) == (
        "Can you check the export job?",
        1,
        1,
    )
    slack.user_client.conversations_mark(channel=channel["id"], ts=channel["latest"]["ts"])
    again = slack.client.conversations_open(users=slack["maya"], return_im=True).data
    assert (again["no_op"], again["channel"]["unread_count"], again["channel"]["last_read"]) == (
        True,
        0,
        channel["latest"]["ts"],
    )


def test_open_a_self_dm_and_a_group_dm(slack):
    own = slack.client.conversations_open(users=slack["bot"])["channel"]["id"]
    assert slack.channel(own)["members"] == [slack["bot"]]
    group = slack.client.conversations_open(users=f"{slack['maya']},{slack['laura']}", return_im=True)["channel"]
    assert group["id"].startswith("G") and group["is_mpim"] is True and group["is_private"] is True
    assert group["name"] == "mpdm-stagebot--maya--laura-1"
    same = slack.client.conversations_open(users=[slack["laura"], slack["maya"]]).data
    assert same["already_open"] is True and same["channel"]["id"] == group["id"]
    assert slack.client.conversations_open(channel=group["id"])["channel"]["id"] == group["id"]


def test_open_errors(slack):
    assert slack.error("conversations.open") == "users_list_not_supplied"
    assert slack.error("conversations.open", users="U0000000000") == "user_not_found"
    assert slack.error("conversations.open", users=slack["gone"]) == "user_disabled"
    many = ",".join([slack[r] for r in ("maya", "laura", "omar")] * 3)
    assert slack.error("conversations.open", users=many) == "too_many_users"
    assert slack.error("conversations.open", channel=slack["support"]) == "method_not_supported_for_channel_type"
    assert slack.error("conversations.open", channel="D0000000000") == "channel_not_found"


# -- join, create, invite, kick, leave ---------------------------------------------------------------


def test_join(slack):
    channel = slack.client.conversations_join(channel=slack["random"])["channel"]
    assert channel["is_member"] is True
    assert slack.channel("random")["members"] == [slack["maya"], slack["bot"]]
    assert _history(slack, slack["random"]) == [
        ("channel_join", f"<@{slack['bot']}> has joined the channel"),
        (None, "Lunch at noon? https://lunch.acme.test"),
    ]


def test_join_when_already_a_member_warns(slack):
    body = slack.client.conversations_join(channel=slack["support"]).data
    assert body["warning"] == "already_in_channel"
    assert body["response_metadata"] == {"warnings": ["already_in_channel"]}
    assert slack.channel("support")["members"] == [slack["bot"], slack["maya"], slack["laura"]]


def test_join_errors(slack):
    dm = slack.client.conversations_open(users=slack["maya"])["channel"]["id"]
    assert slack.error("conversations.join", channel=slack["old"]) == "is_archived"
    assert slack.error("conversations.join", channel=slack["ops"]) == "method_not_supported_for_channel_type"
    assert slack.error("conversations.join", channel=dm) == "method_not_supported_for_channel_type"
    assert slack.error("conversations.join", channel=slack["secret"]) == "channel_not_found"
    assert slack.error("conversations.join") == "channel_not_found"


def test_create(slack):
    channel = slack.client.conversations_create(name="incident-42")["channel"]
    assert channel["id"].startswith("C") and channel["name"] == "incident-42"
    assert (channel["creator"], channel["created"], channel["is_member"], channel["is_private"]) == (
        slack["bot"],
        START,
        True,
        False,
    )
    assert channel["topic"] == {"value": "", "creator": "", "last_set": 0}
    # A workspace outside an Enterprise Grid hosts its own channels; its creator has it open, never read.
    team = slack.client.team_info()["team"]["id"]
    assert {k: channel[k] for k in ("conversation_host_id", "internal_team_ids", "is_moved", "is_org_default")} == {
        "conversation_host_id": team,
        "internal_team_ids": [],
        "is_moved": 0,
        "is_org_default": False,
    }
    assert (channel["is_global_shared"], channel["is_org_mandatory"]) == (False, False)
    assert (channel["is_open"], channel["last_read"]) == (True, "0000000000.000000")
    assert slack.channel(channel["id"])["members"] == [slack["bot"]]
    assert _history(slack, channel["id"]) == [("channel_join", f"<@{slack['bot']}> has joined the channel")]
    private = slack.client.conversations_create(name="war-room", is_private=True)["channel"]
    assert (private["is_private"], private["is_channel"]) == (True, False)
    assert [c["name"] for c in slack.client.conversations_list(types="private_channel")["channels"]] == [
        "ops",
        "war-room",
    ]


def test_create_errors(slack):
    assert slack.error("conversations.create") == "invalid_name_required"
    assert slack.error("conversations.create", name="support") == "name_taken"
    assert slack.error("conversations.create", name="Bad Name") == "invalid_name_specials"
    assert slack.error("conversations.create", name="x" * 81) == "invalid_name_maxlength"
    assert slack.error("conversations.create", name="--") == "invalid_name_punctuation"


def test_invite(slack):
    channel = slack.client.conversations_invite(channel=slack["support"], users=slack["omar"])["channel"]
    assert channel["id"] == slack["support"]
    assert (channel["is_open"], channel["last_read"]) == (True, "0000000000.000000")
    assert slack.channel("support")["members"] == [slack["bot"], slack["maya"], slack["laura"], slack["omar"]]
    joined = slack.client.conversations_history(channel=slack["support"], limit=1)["messages"][0]
    assert (joined["subtype"], joined["user"], joined["inviter"]) == ("channel_join", slack["omar"], slack["bot"])


def test_invite_errors(slack):
    support = slack["support"]
    assert slack.error("conversations.invite", channel=support) == "no_user"
    assert slack.error("conversations.invite", channel=support, users=slack["bot"]) == "cant_invite_self"
    assert slack.error("conversations.invite", channel=support, users=slack["maya"]) == "already_in_channel"
    assert slack.error("conversations.invite", channel=support, users="U0000000000") == "user_not_found"
    assert slack.error("conversations.invite", channel=support, users=slack["gone"]) == "cant_invite"
    assert slack.error("conversations.invite", channel=slack["random"], users=slack["omar"]) == "not_in_channel"
    assert slack.error("conversations.invite", channel=slack["old"], users=slack["omar"]) == "is_archived"
    assert slack.error("conversations.invite", channel=slack["secret"], users=slack["omar"]) == "channel_not_found"
    dm = slack.client.conversations_open(users=slack["maya"])["channel"]["id"]
    assert (
        slack.error("conversations.invite", channel=dm, users=slack["omar"]) == "method_not_supported_for_channel_type"
    )


def test_kick(slack):
    assert slack.client.conversations_kick(channel=slack["support"], user=slack["maya"]).data == {"ok": True}
    assert slack.channel("support")["members"] == [slack["bot"], slack["laura"]]


def test_a_member_removed_and_invited_back_has_a_new_join(slack):
    support, maya = slack["support"], slack["maya"]
    assert "joined" not in slack.channel(support)  # the starting members joined before the start
    slack.client.conversations_kick(channel=support, user=maya)
    assert "joined" not in slack.channel(support)
    slack.client.conversations_invite(channel=support, users=maya)
    join = slack.client.conversations_history(channel=support)["messages"][0]
    assert (join["subtype"], join["user"]) == ("channel_join", maya)
    assert slack.channel(support)["joined"] == {maya: join["ts"]}  # when, as the join's message says
    slack.client.conversations_kick(channel=support, user=maya)
    assert slack.channel(support)["joined"] == {}
    info = slack.client.conversations_info(channel=support)["channel"]
    assert "joined" not in info and "members" not in info  # ours, never Slack's


def test_kick_errors(slack):
    support = slack["support"]
    assert slack.error("conversations.kick", channel=support, user=slack["bot"]) == "cant_kick_self"
    assert slack.error("conversations.kick", channel=slack["general"], user=slack["maya"]) == "cant_kick_from_general"
    assert slack.error("conversations.kick", channel=support, user=slack["omar"]) == "not_in_channel"
    assert slack.error("conversations.kick", channel=support, user="U0000000000") == "user_not_found"
    assert slack.error("conversations.kick", channel=support) == "user_not_found"
    assert slack.error("conversations.kick", channel=slack["random"], user=slack["maya"]) == "not_in_channel"


def test_leave(slack):
    assert slack.client.conversations_leave(channel=slack["support"]).data == {"ok": True}
    assert slack.channel("support")["members"] == [slack["maya"], slack["laura"]]
    leave = slack.call("conversations.history", token="user", channel=slack["support"])["messages"][0]
    assert (leave["subtype"], leave["text"]) == ("channel_leave", f"<@{slack['bot']}> has left the channel")
    assert slack.client.conversations_leave(channel=slack["random"]).data == {"ok": True, "not_in_channel": True}


def test_leave_errors(slack):
    dm = slack.client.conversations_open(users=slack["maya"])["channel"]["id"]
    lonely = slack.client.conversations_create(name="lonely", is_private=True)["channel"]["id"]
    assert slack.error("conversations.leave", channel=slack["general"]) == "cant_leave_general"
    assert slack.error("conversations.leave", channel=slack["old"]) == "is_archived"
    assert slack.error("conversations.leave", channel=dm) == "method_not_supported_for_channel_type"
    assert slack.error("conversations.leave", channel=lonely) == "last_member"
    assert slack.error("conversations.leave", channel=slack["secret"]) == "channel_not_found"


# -- topic, purpose, archive, rename -----------------------------------------------------------------


def test_set_topic_and_purpose(slack):
    channel = slack.client.conversations_setTopic(channel=slack["support"], topic="CSV export down")["channel"]
    assert channel["topic"] == {"value": "CSV export down", "creator": slack["bot"], "last_set": START}
    channel = slack.client.conversations_setPurpose(channel=slack["support"], purpose="Export help")["channel"]
    assert channel["purpose"] == {"value": "Export help", "creator": slack["bot"], "last_set": START + 5}
    assert _history(slack, slack["support"])[:2] == [
        ("channel_purpose", "set the channel purpose: Export help"),
        ("channel_topic", "set the channel topic: CSV export down"),
    ]
    assert slack.message(ts(0))["topic"] == "CSV export down"


def test_set_topic_errors(slack):
    assert slack.error("conversations.setTopic", channel=slack["support"], topic="x" * 251) == "too_long"
    assert slack.error("conversations.setTopic", channel=slack["random"], topic="hi") == "not_in_channel"
    assert slack.error("conversations.setTopic", channel=slack["old"], topic="hi") == "is_archived"
    assert slack.error("conversations.setTopic", channel=slack["secret"], topic="hi") == "channel_not_found"
    assert slack.error("conversations.setPurpose", channel=slack["support"], purpose="x" * 251) == "too_long"
    assert slack.error("conversations.setPurpose", channel=slack["random"], purpose="hi") == "not_in_channel"
    dm = slack.client.conversations_open(users=slack["maya"])["channel"]["id"]
    assert slack.error("conversations.setPurpose", channel=dm, purpose="hi") == "method_not_supported_for_channel_type"


def test_archive_and_unarchive(slack):
    assert slack.client.conversations_archive(channel=slack["support"]).data == {"ok": True}
    assert slack.channel("support")["is_archived"] is True
    assert slack.error("chat.postMessage", channel=slack["support"], text="hello?") == "is_archived"
    assert slack.user_client.conversations_unarchive(channel=slack["support"]).data == {"ok": True}
    assert slack.channel("support")["is_archived"] is False
    assert [s for s, _ in _history(slack, slack["support"])[:2]] == ["channel_unarchive", "channel_archive"]


def test_unarchive_adds_the_caller(scene_world):
    world = scene_world(
        SCENE.replace(
            "- {ref: old, name: old-project, members: [$bot, $maya], is_archived: true}",
            "- {ref: old, name: old-project, members: [$maya], is_archived: true}",
        )
    )
    assert world.error("conversations.unarchive", channel=world["old"]) == "user_is_bot"
    assert world.channel("old")["is_archived"] is True
    assert world.call("conversations.unarchive", token="user", channel=world["old"]) == {"ok": True}
    assert world.channel("old")["members"] == [world["maya"], world["bot"]]
    history = world.user_client.conversations_history(channel=world["old"])["messages"]
    assert [(m.get("subtype"), m["user"]) for m in history[:2]] == [
        ("channel_join", world["bot"]),
        ("channel_unarchive", world["bot"]),
    ]


def test_archive_errors(slack):
    dm = slack.client.conversations_open(users=slack["maya"])["channel"]["id"]
    assert slack.error("conversations.archive", channel=slack["old"]) == "already_archived"
    assert slack.error("conversations.archive", channel=slack["general"]) == "cant_archive_general"
    assert slack.error("conversations.archive", channel=slack["random"]) == "not_in_channel"
    assert slack.error("conversations.archive", channel=dm) == "method_not_supported_for_channel_type"
    assert slack.error("conversations.unarchive", channel=slack["support"]) == "not_archived"
    assert slack.error("conversations.unarchive", channel=dm) == "method_not_supported_for_channel_type"
    assert slack.error("conversations.unarchive", channel="C0000000000") == "channel_not_found"


def test_rename(slack):
    channel = slack.client.conversations_rename(channel=slack["support"], name="help-desk")["channel"]
    assert (channel["name"], channel["name_normalized"], channel["previous_names"]) == (
        "help-desk",
        "help-desk",
        ["support", "helpdesk"],  # the latest first, after the name the world gave it before
    )
    renamed = slack.message(ts(0))
    assert (renamed["subtype"], renamed["text"], renamed["old_name"]) == (
        "channel_name",
        'renamed the channel from "support" to "help-desk"',
        "support",
    )
    assert slack.call("chat.postMessage", channel="#help-desk", text="hi")["channel"] == slack["support"]


def test_rename_errors(slack):
    dm = slack.client.conversations_open(users=slack["maya"])["channel"]["id"]
    assert slack.error("conversations.rename", channel=slack["support"], name="general") == "name_taken"
    assert slack.error("conversations.rename", channel=slack["support"], name="Help Desk") == "invalid_name_specials"
    assert slack.error("conversations.rename", channel=slack["support"]) == "invalid_name_required"
    assert slack.error("conversations.rename", channel=slack["random"], name="fun") == "not_in_channel"
    assert slack.error("conversations.rename", channel=dm, name="fun") == "method_not_supported_for_channel_type"


def test_changes_move_updated_in_milliseconds(slack):
    before = slack.channel("support")["updated"]
    slack.client.conversations_setTopic(channel=slack["support"], topic="New")
    after = slack.client.conversations_info(channel=slack["support"])["channel"]["updated"]
    assert (before, after) == ((START - 30 * 86400 + 60) * 1000, START * 1000)
