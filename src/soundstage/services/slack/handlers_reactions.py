"""Slack's reactions.* methods: emoji reactions on messages."""

from __future__ import annotations

from typing import Any

from . import reactions, views
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
