"""Slack's auth.* and team.* methods: who the token is, and the workspace."""

from __future__ import annotations

from typing import Any

from . import store
from .calls import Call, ops
from .errors import SlackError


@ops("auth.test")
def auth_test(call: Call) -> dict[str, Any]:
    settings = call.world.settings["slack"]
    body: dict[str, Any] = {
        "url": f"https://{settings['domain']}.slack.com/",
        "team": settings["name"],
        "user": call.user["name"],
        "team_id": settings["team_id"],
        "user_id": call.me,
    }
    profile = call.user["profile"]
    if call.bot and "bot_id" in profile:
        body["bot_id"] = profile["bot_id"]
    body["is_enterprise_install"] = False
    if call.bot and "bot_id" in profile:  # the app the bot token belongs to
        body["app_name"] = call.user["real_name"]
        body["app_id"] = profile["api_app_id"]
    return body


@ops("team.info")
def team_info(call: Call) -> dict[str, Any]:
    team_id = call.args.string("team") or store.team_id(call.world)
    team = call.world[store.TEAMS].get(team_id)
    if team is None:
        raise SlackError("team_not_found")
    return {"team": dict(team)}
