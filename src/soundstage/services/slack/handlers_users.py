"""Slack's users.* methods: the workspace's people and bots, and the conversations a user is in."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import profiles, store, views
from .calls import Call, ops
from .channels import type_of
from .errors import SlackError
from .timestamps import now_seconds


def _user_view(call: Call, user: Record) -> dict[str, Any]:
    """A user as the caller sees them: their profile now, `has_2fa` only for a workspace admin (as Slack
    documents), `locale` (the workspace's) when asked for."""
    view = dict(user)
    view["profile"] = profiles.as_of(user["profile"], now_seconds(call.world))
    if call.user["is_admin"]:
        view["has_2fa"] = False
    if call.args.flag("include_locale"):
        view["locale"] = store.locale(call.world)
    return view


@ops("users.list")
def users_list(call: Call) -> dict[str, Any]:
    members, next_cursor = call.page(list(call.world[store.USERS]), "user", lambda u: u["id"], 1000)
    return {
        "members": [_user_view(call, u) for u in members],
        "cache_ts": now_seconds(call.world),
        "response_metadata": {"next_cursor": next_cursor},
    }


@ops("users.info")
def users_info(call: Call) -> dict[str, Any]:
    return {"user": _user_view(call, call.existing_user(call.args.string("user")))}


@ops("users.lookupByEmail")
def users_lookup_by_email(call: Call) -> dict[str, Any]:
    email = call.args.string("email")
    if not email:
        raise SlackError("invalid_arguments", "missing required field: email")
    user = store.user_by_email(call.world, email)
    if user is None:
        raise SlackError("users_not_found")
    return {"user": _user_view(call, user)}


@ops("users.conversations")
def users_conversations(call: Call) -> dict[str, Any]:
    user = call.existing_user(call.args.string("user") or call.me)
    types = call.types()
    exclude_archived = call.args.flag("exclude_archived")
    found = [
        c
        for c in call.world[store.CHANNELS]
        if type_of(c) in types
        and store.is_member(c, user["id"])
        and store.can_see(c, call.me)
        and not (exclude_archived and c.get("is_archived"))
    ]
    page, next_cursor = call.page(found, "channel", lambda c: c["id"], 100)
    return {
        "channels": [views.as_member(call.world, c, call.me) for c in page],
        "response_metadata": {"next_cursor": next_cursor},
    }


@ops("users.profile.get")
def users_profile_get(call: Call) -> dict[str, Any]:
    user = call.existing_user(call.args.string("user") or call.me)
    return {"profile": profiles.as_of(user["profile"], now_seconds(call.world))}


@ops("users.getPresence")
def users_get_presence(call: Call) -> dict[str, Any]:
    """`active` for everyone still in the workspace (the world has no idle clients); a deleted user is
    `away`. About oneself Slack says more: the connection, and whether away was set by hand."""
    user = call.existing_user(call.args.string("user") or call.me)
    presence = "away" if user["deleted"] else "active"
    if user["id"] != call.me:
        return {"presence": presence}
    return {
        "presence": presence,
        "online": True,
        "auto_away": False,
        "manual_away": False,
        "connection_count": 1,
        "last_activity": now_seconds(call.world),
    }
