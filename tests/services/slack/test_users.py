"""users.list, users.info, users.lookupByEmail, users.conversations, users.profile.get."""

from __future__ import annotations

import re

from soundstage.services.slack import store

from .conftest import SCENE

REQUIRED_USER = {"id", "name", "profile", "is_bot", "updated", "is_app_user"}
REQUIRED_PROFILE = {
    "real_name",
    "display_name",
    "avatar_hash",
    "real_name_normalized",
    "display_name_normalized",
    "title",
    "phone",
    "skype",
    "status_text",
    "status_emoji",
    "fields",
}


def test_users_list(slack):
    body = slack.client.users_list().data
    names = [u["name"] for u in body["members"]]
    assert names == ["slackbot", "stagebot", "maya", "laura", "omar", "gone"]
    assert body["cache_ts"] == 1772460000
    assert body["response_metadata"] == {"next_cursor": ""}
    for user in body["members"]:
        assert REQUIRED_USER <= set(user) and REQUIRED_PROFILE <= set(user["profile"])
        assert re.fullmatch(r"[0-9a-f]{6}", user["color"])


def test_users_list_pages(slack):
    pages = [page.data for page in slack.client.users_list(limit=4)]
    assert [len(p["members"]) for p in pages] == [4, 2]
    assert pages[-1]["response_metadata"]["next_cursor"] == ""
    assert [u["name"] for p in pages for u in p["members"]][-1] == "gone"


def test_users_list_bad_cursor_and_limit(slack):
    assert slack.error("users.list", cursor="bm9wZQ==") == "invalid_cursor"
    assert slack.error("users.list", cursor="%%%") == "invalid_cursor"
    assert slack.error("users.list", limit="ten") == "invalid_limit"
    assert slack.error("users.list", limit="-1") == "invalid_limit"


def test_users_info(slack):
    user = slack.client.users_info(user=slack["maya"])["user"]
    assert user["id"] == slack["maya"]
    assert (user["real_name"], user["profile"]["title"], user["profile"]["email"]) == (
        "Maya Chen",
        "SRE",
        "maya@acme.test",
    )
    assert (user["tz"], user["tz_label"], user["tz_offset"]) == ("America/Los_Angeles", "Pacific Standard Time", -28800)
    assert user["updated"] == 1772460000 - 86400
    assert (user["is_bot"], user["deleted"], user["is_admin"]) == (False, False, False)


def test_users_info_of_a_bot_and_a_deleted_user(slack):
    bot = slack.client.users_info(user=slack["bot"])["user"]
    assert bot["is_bot"] is True and bot["profile"]["bot_id"].startswith("B")
    assert "email" not in bot["profile"]
    assert slack.client.users_info(user=slack["gone"])["user"]["deleted"] is True


def test_users_info_time_zone_and_locale(slack):
    laura = slack.client.users_info(user=slack["laura"], include_locale=True)["user"]
    assert (laura["tz"], laura["tz_label"], laura["tz_offset"]) == ("Europe/Berlin", "Central European Time", 3600)
    assert laura["locale"] == "en-US"


def test_users_info_errors(slack):
    assert slack.error("users.info", user="U0000000000") == "user_not_found"
    assert slack.error("users.info") == "user_not_found"


def test_lookup_by_email_ignores_case(slack):
    assert slack.client.users_lookupByEmail(email="laura@ACME.test")["user"]["id"] == slack["laura"]


def test_lookup_by_email_errors(slack):
    assert slack.error("users.lookupByEmail", email="nobody@acme.test") == "users_not_found"
    body = slack.call("users.lookupByEmail")
    assert body["error"] == "invalid_arguments"
    assert body["response_metadata"]["messages"] == ["[ERROR] missing required field: email"]


def test_users_conversations_of_the_caller(slack):
    channels = slack.client.users_conversations(types="public_channel,private_channel,im")["channels"]
    dm = channels[-1]
    assert [c.get("name") or c["id"] for c in channels] == ["general", "support", "ops", "old-project", dm["id"]]
    assert dm["id"].startswith("D") and dm["is_im"] is True and dm["user"] == slack["maya"]
    # The caller's own: each open, read up to where they marked it (or never).
    assert {c["is_open"] for c in channels} == {True}
    assert {c["last_read"] for c in channels} == {"0000000000.000000"}
    slack.user_client.conversations_mark(channel=slack["support"], ts=slack["question"])
    theirs = slack.user_client.users_conversations(types="public_channel", exclude_archived=True)["channels"]
    assert [(c["name"], c["last_read"]) for c in theirs] == [
        ("general", "0000000000.000000"),
        ("support", slack["question"]),
    ]


def test_users_conversations_of_another_user_hides_private_channels(slack):
    channels = slack.client.users_conversations(user=slack["laura"], types="public_channel,private_channel")
    assert [c["name"] for c in channels["channels"]] == ["general", "support"]  # not #secret
    assert ["last_read" in c for c in channels["channels"]] == [True, True]  # the caller is a member of both
    assert ["is_open" in c for c in channels["channels"]] == [True, True]
    public = slack.client.users_conversations(user=slack["maya"], exclude_archived=True)["channels"]
    assert [c["name"] for c in public] == ["general", "support", "random"]


def test_users_conversations_errors(slack):
    assert slack.error("users.conversations", types="public_channel,dms") == "invalid_types"
    assert slack.error("users.conversations", user="U0000000000") == "user_not_found"


def test_users_profile_get(slack):
    profile = slack.client.users_profile_get(user=slack["laura"])["profile"]
    assert (profile["real_name"], profile["first_name"], profile["last_name"]) == ("Laura Diaz", "Laura", "Diaz")
    assert profile["team"] == slack["acme"] and profile["pronouns"] == "they/them"
    own = slack.client.users_profile_get()["profile"]
    assert own["real_name"] == "Stage Bot" and own["always_active"] is True
    assert slack.error("users.profile.get", user="UNOBODY") == "user_not_found"


def test_bots_say_they_are_not_workflow_bots(slack):
    bot = slack.client.users_info(user=slack["bot"])["user"]
    person = slack.client.users_info(user=slack["maya"])["user"]
    assert bot["is_workflow_bot"] is False and "is_workflow_bot" not in person
    assert person["profile"]["status_text_canonical"] == ""
    # Pronouns only where the world gives them.
    assert person["profile"]["pronouns"] == "she/her" and "pronouns" not in bot["profile"]
    # Nobody is in a huddle: a world has none.
    assert (person["profile"]["huddle_state"], person["profile"]["huddle_state_expiration_ts"]) == ("default_unset", 0)


def test_only_an_admin_sees_has_2fa(slack, scene_world):
    assert "has_2fa" not in slack.client.users_info(user=slack["maya"])["user"]
    admin = scene_world(SCENE.replace("agent: {slack_user: $bot}", "agent: {slack_user: $omar}"))
    assert admin.client.users_info(user=admin["maya"])["user"]["has_2fa"] is False
    assert all(u["has_2fa"] is False for u in admin.client.users_list()["members"])
    assert admin.client.users_lookupByEmail(email="maya@acme.test")["user"]["has_2fa"] is False


def test_presence(slack):
    assert slack.client.users_getPresence(user=slack["maya"]).data == {"ok": True, "presence": "active"}
    assert slack.client.users_getPresence(user=slack["gone"])["presence"] == "away"
    assert slack.client.users_getPresence(user=slack["bot"]).data == {
        "ok": True,
        "presence": "active",
        "online": True,
        "auto_away": False,
        "manual_away": False,
        "connection_count": 1,
        "last_activity": 1772460010,  # the third call, 5s ticks
    }
    assert slack.call("users.getPresence")["online"] is True  # no user: the caller
    assert slack.error("users.getPresence", user="U0000000000") == "user_not_found"


def test_emoji_list_has_no_custom_emoji(slack):
    assert slack.client.emoji_list().data == {"ok": True, "emoji": {}, "cache_ts": "1772460000.000000"}


def test_a_photo_of_ones_own_replaces_the_default_avatar(slack):
    maya = slack.client.users_info(user=slack["maya"])["user"]["profile"]
    stem = "https://avatars.slack-edge.com/2026-03-01/115039040536_573f0ccc0b3a9f12d214"  # uploaded when last updated
    assert (maya["avatar_hash"], maya["is_custom_image"], maya["image_original"]) == (
        "f32ba9046ecb",
        True,
        f"{stem}_original.jpg",
    )
    assert {k: v for k, v in maya.items() if k.startswith("image_") and k != "image_original"} == {
        f"image_{n}": f"{stem}_{n}.jpg" for n in (24, 32, 48, 72, 192, 512, 1024)
    }
    # Slack's default avatar: a gravatar, its hash starting with g, no 1024 size and no original.
    omar = slack.call("users.info", user=slack["omar"])["user"]["profile"]
    assert omar["avatar_hash"] == "g930c1c6b858" and omar["image_72"].startswith("https://secure.gravatar.com/avatar/")
    assert not {"image_1024", "image_original", "is_custom_image"} & set(omar)


def test_a_custom_status_shows_its_emoji_until_it_expires(slack):
    laura = slack.client.users_profile_get(user=slack["laura"])["profile"]
    assert (laura["status_text"], laura["status_emoji"], laura["status_expiration"]) == ("On holiday", ":palm_tree:", 0)
    assert laura["status_emoji_display_info"] == [
        {
            "emoji_name": "palm_tree",
            "display_url": "https://a.slack-edge.com/production-standard-emoji-assets/14.0/apple-large/1f334.png",
            "unicode": "1f334",
        }
    ]
    maya = slack.call("users.lookupByEmail", email="maya@acme.test")["user"]["profile"]
    assert (maya["status_text"], maya["status_emoji"], maya["status_expiration"]) == (
        "In a meeting",
        ":calendar:",
        1772460000 + 3600,
    )
    assert [i["unicode"] for i in maya["status_emoji_display_info"]] == ["1f4c6"]
    slack.live.advance("1h")  # Slack clears a status once it expires, everywhere a profile shows
    cleared = {"status_text": "", "status_emoji": "", "status_emoji_display_info": [], "status_expiration": 0}
    for profile in (
        slack.client.users_profile_get(user=slack["maya"])["profile"],
        slack.client.users_info(user=slack["maya"])["user"]["profile"],
        next(u for u in slack.client.users_list()["members"] if u["name"] == "maya")["profile"],
    ):
        assert {k: profile[k] for k in cleared} == cleared
    assert slack.client.users_profile_get(user=slack["laura"])["profile"]["status_text"] == "On holiday"
    assert slack.world[store.USERS].get(slack["maya"])["profile"]["status_text"] == "In a meeting"  # as stored


GUEST_SCENE = """
name: guests
agent: {slack_user: $bot}
task: test
seed:
  slack:
    team: {name: Acme, plan: pro}
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: laura, name: laura, email: laura@acme.test, start_date: "2020-09-01"}
      - {ref: nina, name: nina, email: nina@northwind.test, guest: {invited_by: $laura, single_channel: true}}
      - {ref: ben, name: ben, guest: {invited_by: $laura}}
    channels:
      - {ref: ext, name: ext-northwind, members: [$bot, $laura, $nina]}
      - {ref: vendors, name: vendors, members: [$bot, $laura, $ben]}
      - {ref: general, name: general, members: [$bot, $laura]}
"""


def test_guests_and_start_dates_as_the_bot_sees_them(scene_world):
    world = scene_world(GUEST_SCENE)
    laura, nina, ben = world["laura"], world["nina"], world["ben"]
    seen = {u["id"]: u for u in world.client.users_list()["members"]}
    assert {
        name: (
            seen[world[name]]["is_restricted"],
            seen[world[name]]["is_ultra_restricted"],
            seen[world[name]]["profile"].get("guest_invited_by"),
            seen[world[name]]["profile"].get("start_date"),
        )
        for name in ("laura", "nina", "ben")
    } == {
        "laura": (False, False, None, "2020-09-01"),
        "nina": (True, True, laura, None),
        "ben": (True, False, laura, None),
    }
    # The same through raw HTTP, users.info and the profile alone; a bot is not an admin, so no `has_2fa`.
    raw = world.raw("users.info", data={"user": nina}).json()["user"]
    assert (raw["is_restricted"], raw["is_ultra_restricted"], raw["profile"]["guest_invited_by"]) == (True, True, laura)
    assert "has_2fa" not in raw
    assert world.call("users.profile.get", user=laura)["profile"]["start_date"] == "2020-09-01"
    assert world.call("users.lookupByEmail", email="nina@northwind.test")["user"]["id"] == nina
    assert world.call("users.info", user=ben)["user"]["profile"]["guest_invited_by"] == laura


def test_a_single_channel_guest_cannot_be_invited_to_a_second_channel(scene_world):
    world = scene_world(GUEST_SCENE)
    assert world.error("conversations.invite", channel=world["general"], users=world["nina"]) == "ura_max_channels"
    assert world["nina"] not in world.channel("general")["members"]
    # A multi-channel guest may be invited to more.
    world.client.conversations_invite(channel=world["general"], users=world["ben"])
    assert world["ben"] in world.channel("general")["members"]
    # Once the single-channel guest has left their channel, they may be invited to another.
    world.client.conversations_kick(channel=world["ext"], user=world["nina"])
    world.client.conversations_invite(channel=world["general"], users=world["nina"])
    assert world["nina"] in world.channel("general")["members"]
