"""Slack's reactions.* methods: emoji reactions on messages."""

from __future__ import annotations

from typing import Any

from . import reactions, store, views
from .calls import Call, not_archived, ops
from .errors import SlackError


@ops("reactions.add")
def reactions_add(call: Call) -> dict[str, Any]:
    name = call.emoji()
    conversation, message = call.item()
    not_archived(conversation)
    if reactions.has_reacted(message, call.me, name):
        raise SlackError("already_reacted")
    reactions.react(call.world, message, call.me, name)
    return {}


@ops("reactions.remove")
def reactions_remove(call: Call) -> dict[str, Any]:
    name = call.emoji()
    _, message = call.item()
    if not reactions.has_reacted(message, call.me, name):
        raise SlackError("no_reaction")
    reactions.unreact(call.world, message, call.me, name)
    return {}


@ops("reactions.get")
def reactions_get(call: Call) -> dict[str, Any]:
    _, message = call.item()
    return {
        "type": "message",
        "channel": message["channel"],
        "message": views.linked_message(call.world, message, call.me),
    }


@ops("reactions.list")
def reactions_list(call: Call) -> dict[str, Any]:
    """The messages a user has reacted to (the caller by default), newest first, that the caller may see."""
    user = call.existing_user(call.args.string("user") or call.me)
    visible = {c["id"] for c in call.world[store.CHANNELS] if store.can_see(c, call.me)}
    reacted = [
        m
        for m in reversed(list(call.world[store.MESSAGES]))
        if m["channel"] in visible and any(user["id"] in r["users"] for r in m.get("reactions") or [])
    ]
    page, next_cursor = call.page(reacted, "reacted", lambda m: m["ts"], 100)
    items = [
        {"type": "message", "channel": m["channel"], "message": views.linked_message(call.world, m, call.me)}
        for m in page
    ]
    return {"items": items, "response_metadata": {"next_cursor": next_cursor}}
