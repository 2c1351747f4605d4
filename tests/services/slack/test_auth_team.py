"""auth.test and team.info, and how Slack answers a missing, wrong or inactive token."""

from __future__ import annotations

import pytest
from slack_sdk.errors import SlackApiError

from soundstage.services.slack.store import USERS

from .conftest import SCENE


def test_auth_test_with_the_bot_token(slack):
    body = slack.client.auth_test().data
    bot = slack.world[USERS].get(slack["bot"])
    assert body == {
        "ok": True,
        "url": "https://acme.slack.com/",
        "team": "Acme",
        "user": "stagebot",
        "team_id": slack["acme"],
        "user_id": slack["bot"],
        "bot_id": bot["profile"]["bot_id"],
        "is_enterprise_install": False,
        "app_name": "Stage Bot",
        "app_id": bot["profile"]["api_app_id"],
    }
    assert bot["profile"]["bot_id"].startswith("B") and len(bot["profile"]["bot_id"]) == 11
    assert bot["profile"]["api_app_id"].startswith("A") and len(bot["profile"]["api_app_id"]) == 11


def test_auth_test_with_the_user_token_has_no_bot_id(slack):
    body = slack.user_client.auth_test().data
    assert body["user_id"] == slack["bot"]
    assert "bot_id" not in body and "app_id" not in body and "app_name" not in body


def test_ids_are_deterministic_and_in_slack_format(stage, slack):
    again = stage.world(SCENE).world.refs
    assert again == slack.refs
    assert slack["acme"].startswith("T") and slack["maya"].startswith("U") and slack["support"].startswith("C")
    assert all(len(slack[r]) == 11 for r in ("acme", "maya", "support"))
    assert slack["question"] == "1772459760.000100"  # 4 undated messages: 4 minutes before the start


@pytest.mark.parametrize(
    "where",
    ["query", "form", "json"],
)
def test_the_token_may_be_an_argument(slack, where):
    token = slack.live.token
    if where == "query":
        response = slack.raw("auth.test", token=None, params={"token": token})
    elif where == "form":
        response = slack.raw("auth.test", token=None, data={"token": token})
    else:
        response = slack.raw("auth.test", token=None, json={"token": token})
    assert response.json()["user_id"] == slack["bot"]


def test_the_token_never_reaches_the_trace(slack):
    slack.raw("auth.test", token=None, data={"token": slack.live.token, "extra": "1"})
    call = slack.live.trace()[-1]
    assert call["body"] == {"extra": "1"}
    assert slack.live.token not in str(call)


def test_no_token_is_not_authed_and_never_reaches_the_world(slack):
    before, now = slack.live.world.log.last_seq, slack.live.world.now()
    assert slack.error("auth.test", token=None) == "not_authed"
    # Whoever sent it carries no credential of this world: nothing is logged, the clock does not move.
    assert (slack.live.world.log.last_seq, slack.live.world.now()) == (before, now)


def test_a_token_of_this_world_for_another_service_is_logged(slack):
    github = slack.live.env["SOUNDSTAGE_TOKEN"]
    assert slack.error("auth.test", token=github) == "invalid_auth"
    call = slack.live.trace()[-1]
    assert (call["operation"], call["status"], call["error"], call["actor"]) == ("auth.test", 200, True, None)


def test_a_wrong_token_is_invalid_auth(slack):
    assert slack.error("auth.test", token="xoxb-not-a-token") == "invalid_auth"


def test_unprefixed_route_finds_the_world_by_token(slack):
    base = slack.live.stage.url + "/slack/api/auth.test"
    ok = slack.live.http.post(base, headers={"Authorization": f"Bearer {slack.live.token}"}).json()
    assert ok["user_id"] == slack["bot"]
    assert slack.live.http.post(base).json() == {"ok": False, "error": "not_authed"}
    unknown = slack.live.http.post(base, headers={"Authorization": "Bearer xoxb-nope"}).json()
    assert unknown == {"ok": False, "error": "invalid_auth"}


def test_a_deleted_agent_user_is_account_inactive(scene_world):
    inactive = scene_world(SCENE.replace("agent: {slack_user: $bot}", "agent: {slack_user: $gone}"))
    assert inactive.error("auth.test") == "account_inactive"


def test_sdk_raises_on_ok_false(slack):
    with pytest.raises(SlackApiError) as failure:
        slack.live.slack("xoxb-wrong").auth_test()
    assert failure.value.response["error"] == "invalid_auth"


def test_team_info(slack):
    """A Business+ workspace with an icon of its own and SAML single sign-on through Okta, as a bot sees it."""
    team = slack.client.team_info().data["team"]
    stem = team["icon"]["image_34"].removesuffix("_34.png")
    assert stem.startswith("https://avatars.slack-edge.com/")
    assert team == {
        "id": slack["acme"],
        "name": "Acme",
        "url": "https://acme.slack.com/",
        "domain": "acme",
        "email_domain": "",
        "icon": {
            **{f"image_{n}": f"{stem}_{n}.png" for n in (34, 44, 68, 88, 102, 132, 230)},
            "image_original": f"{stem}_original.png",
            "image_default": False,
        },
        "avatar_base_url": "https://ca.slack-edge.com/",
        "is_verified": False,
        "locale": "en-US",
        "pay_prod_cur": "plus",
        "lob_sales_home_enabled": False,
        "is_sfdc_auto_slack": False,
        "sso_provider": {"type": "saml", "name": "okta", "label": "Okta"},
    }
    assert slack.client.team_info(team=slack["acme"])["team"] == team


def _team_world(scene_world, team: str):
    """A world of one bot in the team given (a YAML mapping)."""
    section = f"  slack:\n    team: {team}\n    users: [{{ref: bot, name: bot, is_bot: true}}]\n"
    return scene_world("name: a-team\ntask: test\nagent: {slack_user: $bot}\nseed:\n" + section)


def test_team_info_of_a_free_workspace_with_the_default_icon(scene_world):
    free = _team_world(scene_world, "{name: Globex, locale: de-DE}")
    team = free.raw("team.info").json()["team"]
    assert team["icon"] == {
        **{
            f"image_{n}": f"https://a.slack-edge.com/80588/img/avatars-teams/ava_0001-{n}.png"
            for n in (34, 44, 68, 88, 102, 132, 230)
        },
        "image_default": True,
    }
    assert (team["domain"], team["locale"], team["pay_prod_cur"], "sso_provider" in team) == (
        "globex",
        "de-DE",
        "",
        False,
    )
    # A workspace's members speak its language unless they chose another.
    bot = free.world.refs["bot"]
    assert free.call("users.info", user=bot, include_locale="1")["user"]["locale"] == "de-DE"


def test_a_pro_workspace_pays_for_the_standard_product(scene_world):
    pro = _team_world(scene_world, "{name: Initech, plan: pro}")
    assert pro.call("team.info")["team"]["pay_prod_cur"] == "std"


def test_team_info_of_another_team(slack):
    assert slack.error("team.info", team="T0000000000") == "team_not_found"


def test_default_team_when_none_is_given(scene_world):
    minimal = scene_world(
        """
name: no-team
task: test
agent: {slack_user: $bot}
seed:
  slack:
    users: [{ref: bot, name: bot, is_bot: true}]
"""
    )
    body = minimal.call("auth.test")
    assert (body["team"], body["url"]) == ("Soundstage", "https://soundstage.slack.com/")
