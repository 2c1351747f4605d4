"""Slack's pins.* methods: messages pinned to a conversation."""

from __future__ import annotations

from typing import Any

from . import pins, store, views
from .calls import Call, ops
from .errors import SlackError


@ops("pins.add")
def pins_add(call: Call) -> dict[str, Any]:
    conversation, message = call.item()
    call.require_member(conversation)
    if pins.is_pinned(call.world, message):
        raise SlackError("already_pinned")
    pins.pin(call.world, message, call.me)
    return {}


@ops("pins.list")
def pins_list(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    messages = call.world[store.MESSAGES]
    items = [
        {
            "type": pin["type"],
            "created": pin["created"],
            "created_by": pin["created_by"],
            "channel": pin["channel"],
            "message": views.linked_message(call.world, messages.one(pin["ts"]), call.me),  # unpinned when deleted
        }
        for pin in reversed(pins.in_channel(call.world, conversation["id"]))
    ]
    return {"items": items}
