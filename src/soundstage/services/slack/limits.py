"""Slack's rate limits, in simulated time, when a scene turns them on.

`rate_limits: {slack: true}` applies Slack's published tiers per method (Tier 1 1/min, Tier 2 20/min,
Tier 3 50/min, Tier 4 100/min) and about one `chat.postMessage` per second per channel, allowing short
bursts of 3. `rate_limits: {slack: {"chat.postMessage": "5/1m", "*": "100/1m"}}` sets limits per method
instead (`*`: every other implemented method). Windows slide: a call is refused while `count` calls
were allowed in the last `duration`, and `Retry-After` says when the oldest of them leaves the window.
"""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import World
from ..base import Reply
from ..limits import Rule, count, rule_for, rules

MINUTE = 60 * US
TIERS = {1: 1, 2: 20, 3: 50, 4: 100}  # calls per minute
METHOD_TIERS = {
    "auth.test": 4,
    "team.info": 3,
    "users.list": 2,
    "users.info": 4,
    "users.lookupByEmail": 3,
    "users.conversations": 3,
    "users.profile.get": 4,
    "users.getPresence": 3,
    "conversations.list": 2,
    "conversations.info": 3,
    "conversations.history": 3,
    "conversations.replies": 3,
    "conversations.members": 4,
    "conversations.mark": 3,
    "conversations.open": 3,
    "conversations.join": 3,
    "conversations.create": 2,
    "conversations.invite": 3,
    "conversations.kick": 3,
    "conversations.leave": 3,
    "conversations.setTopic": 2,
    "conversations.setPurpose": 2,
    "conversations.archive": 2,
    "conversations.unarchive": 2,
    "conversations.rename": 2,
    "chat.update": 3,
    "chat.delete": 3,
    "chat.postEphemeral": 4,
    "chat.getPermalink": 4,
    "chat.scheduleMessage": 3,
    "chat.scheduledMessages.list": 3,
    "chat.deleteScheduledMessage": 3,
    "reactions.add": 3,
    "reactions.remove": 2,
    "reactions.get": 3,
    "reactions.list": 2,
    "files.getUploadURLExternal": 4,
    "files.completeUploadExternal": 4,
    "files.info": 4,
    "files.list": 3,
    "pins.add": 2,
    "pins.list": 2,
    "search.messages": 2,
    "search.all": 2,
    "emoji.list": 2,
    "usergroups.list": 2,
    "bookmarks.list": 3,
}
POST_MESSAGE = (3, 3 * US)  # per channel: about 1/s, bursts of 3


def _tiers() -> dict[str, Rule]:
    limits = {method: (TIERS[tier], MINUTE) for method, tier in METHOD_TIERS.items()}
    limits["chat.postMessage"] = POST_MESSAGE
    return limits


def retry_after(world: World, method: str, channel: str | None) -> int | None:
    """Seconds to wait when this call is over the limit (the call is then not counted), else None."""
    rule = rule_for(rules(world, "slack", _tiers), method)
    if rule is None:
        return None
    # Slack limits chat.postMessage per channel; an explicit per-method setting counts the method.
    key = f"{method} {channel}" if method == "chat.postMessage" and rule is POST_MESSAGE else method
    counted = count(world, "slack", key, rule)
    return None if counted.allowed else counted.reset


def refusal(method: str, wait: int, trace_body: Any) -> Reply:
    """Slack's answer to a call over the limit: HTTP 429, `ratelimited` and `Retry-After` in whole seconds."""
    return Reply(
        429,
        {"ok": False, "error": "ratelimited"},
        headers={"Retry-After": str(wait)},
        operation=method,
        error=True,
        trace_body=trace_body,
    )
