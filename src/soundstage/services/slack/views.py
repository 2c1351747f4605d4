"""Stored records as one user sees them in an API response."""

from __future__ import annotations

from typing import Any

from ...world import Record


def conversation(record: Record, viewer: str, *, num_members: bool = False) -> dict[str, Any]:
    """A conversation without our `members` list; `is_member` (channels) or the other party (DMs)."""
    view = {k: v for k, v in record.items() if k != "members"}
    members = record["members"]
    if record.get("is_im"):
        view["user"] = next((m for m in members if m != viewer), viewer)
        return view
    view["is_member"] = viewer in members
    if num_members:
        view["num_members"] = len(members)
    return view


def message(record: Record, viewer: str) -> dict[str, Any]:
    """A message without our `channel` field and without fields that no longer apply (None)."""
    view = {k: v for k, v in record.items() if v is not None and k != "channel"}
    if record.get("reply_count") is not None:
        view["subscribed"] = viewer == record["user"] or viewer in record["reply_users"]
    return view


def search_channel(record: Record) -> dict[str, Any]:
    """The short conversation object inside a search match."""
    is_im = bool(record.get("is_im"))
    return {
        "id": record["id"],
        "is_channel": bool(record.get("is_channel")),
        "is_group": bool(record.get("is_group")),
        "is_im": is_im,
        "is_mpim": bool(record.get("is_mpim")),
        "is_shared": False,
        "is_org_shared": False,
        "is_ext_shared": False,
        "is_private": is_im or record["is_private"],
        "is_pending_ext_shared": False,
        "pending_shared": [],
        "name": record["user"] if is_im else record["name"],
    }
