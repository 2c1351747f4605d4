"""Who may post in a channel: Slack's channel posting permissions, kept in the channel's `properties` as
`posting_restricted_to` (top-level messages, and replies also sent to the channel) and `threads_restricted_to` (thread
replies), each `{type: ["admin"], user: [ids]}`: workspace admins and owners when `type` has `admin` (Enterprise Grid
adds `org_admin`), and the users listed. A channel without them lets every member post."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...world import Record
from .errors import SlackError


def restriction(types: Iterable[str], users: Iterable[str]) -> dict[str, Any]:
    return {"type": list(types), "user": list(users)}


def _allowed(rule: Mapping[str, Any] | None, user: Record) -> bool:
    if rule is None:
        return True
    is_admin = user["is_admin"] or user["is_owner"]
    return user["id"] in rule["user"] or ("admin" in rule["type"] and is_admin)


def require_may_post(conversation: Record, user: Record, *, reply: bool, broadcast: bool) -> None:
    """Slack's `restricted_action` (with no more said, as Slack answers it) for a post the channel's
    permissions do not allow `user`."""
    rules = conversation.get("properties") or {}
    if reply and not _allowed(rules.get("threads_restricted_to"), user):
        raise SlackError("restricted_action")
    if (not reply or broadcast) and not _allowed(rules.get("posting_restricted_to"), user):
        raise SlackError("restricted_action")
