"""Slack's bookmarks.* methods: the links bookmarked in a channel."""

from __future__ import annotations

from typing import Any

from . import bookmarks
from .calls import Call, ops


@ops("bookmarks.list")
def bookmarks_list(call: Call) -> dict[str, Any]:
    conversation = call.conversation("channel_id")
    return {"bookmarks": [dict(b) for b in bookmarks.in_channel(call.world, conversation["id"])]}
