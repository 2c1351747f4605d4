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
    if call.bot and "bot_id" in call.user["profile"]:
        body["bot_id"] = call.user["profile"]["bot_id"]
    body["is_enterprise_install"] = False
    return body


@ops("team.info")
def team_info(call: Call) -> dict[str, Any]:
    team_id = call.args.string("team") or store.team_id(call.world)
    team = call.world[store.TEAMS].get(team_id)
    if team is None:
        raise SlackError("team_not_found")
    return {"team": dict(team)}
