"""usergroups.list and bookmarks.list."""

from __future__ import annotations

from .conftest import START


def test_usergroups_list(slack):
    groups = slack.client.usergroups_list().data["usergroups"]
    assert len(groups) == 1
    group = groups[0]
    assert group["id"] == slack["sre"] and group["id"].startswith("S")
    assert (group["name"], group["handle"], group["description"], group["team_id"]) == (
        "SRE team",
        "sre",
        "Site reliability",
        slack["acme"],
    )
    assert group["prefs"] == {"channels": [slack["support"]], "groups": []}
    flags = (
        "is_idp_group",
        "is_org_level",
        "is_section",
        "is_visible",
        "is_membership_locked",
        "is_editing_restricted",
    )
    assert [group[f] for f in flags] == [False, False, False, True, False, False]
    assert (group["date_create"], group["date_delete"], group["created_by"], group["deleted_by"]) == (
        START - 7 * 86400,
        0,
        slack["maya"],
        None,
    )
    assert "users" not in group and "user_count" not in group


def test_usergroups_list_options(slack):
    groups = slack.client.usergroups_list(include_users=True, include_count=True, include_disabled=True)["usergroups"]
    assert [(g["handle"], g["users"], g["user_count"]) for g in groups] == [
        ("sre", [slack["maya"], slack["omar"]], 2),
        ("old", [slack["laura"]], 1),
    ]
    assert groups[1]["date_delete"] == START - 7 * 86400


def test_bookmarks_list(slack):
    bookmarks = slack.client.bookmarks_list(channel_id=slack["support"]).data["bookmarks"]
    assert bookmarks == [
        {
            "id": slack["runbook"],
            "channel_id": slack["support"],
            "title": "Runbook",
            "link": "https://wiki.acme.test/runbook",
            "emoji": ":book:",
            "icon_url": None,
            "type": "link",
            "entity_id": None,
            "date_created": START - 7 * 86400,
            "date_updated": 0,
            "rank": "a",
            "last_updated_by_user_id": slack["bot"],
            "last_updated_by_team_id": slack["acme"],
            "shortcut_id": None,
            "app_id": None,
        }
    ]
    assert slack.client.bookmarks_list(channel_id=slack["general"])["bookmarks"] == []


def test_bookmarks_list_errors(slack):
    assert slack.error("bookmarks.list", channel_id=slack["secret"]) == "channel_not_found"
    assert slack.error("bookmarks.list") == "channel_not_found"
