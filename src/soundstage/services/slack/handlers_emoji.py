"""Slack's emoji.list: the workspace's custom emoji. A world has none, and Slack does not list its
standard emoji here."""

from __future__ import annotations

from typing import Any

from .calls import Call, ops
from .timestamps import now_seconds


@ops("emoji.list")
def emoji_list(call: Call) -> dict[str, Any]:
    return {"emoji": {}, "cache_ts": f"{now_seconds(call.world)}.000000"}
