"""An Agent-Diff Slack seed (its tables as JSON lists) as a soundstage world definition.

The seed's ids are kept (users, channels, message `ts`); every user, channel and thread parent gets a ref
equal to its id, so scenes can name the agent `$<user id>`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from .agent_diff_input import InputFile


def world_definition(seed: InputFile, name: str) -> dict[str, Any]:
    """The world definition (as data for YAML) of a seed file."""
    users = seed.rows("users", ["user_id", "username"])
    channels = seed.rows("channels", ["channel_id", "channel_name"])
    members: defaultdict[str, list[str]] = defaultdict(list)
    for row in seed.rows("channel_members", ["channel_id", "user_id"]):
        members[row["channel_id"]].append(row["user_id"])
    messages = seed.rows("messages", ["message_id", "channel_id", "user_id"])
    admins = {r["user_id"] for r in seed.rows("user_teams", ["user_id"]) if r.get("role") in ("admin", "owner")}
    reactions: defaultdict[str, defaultdict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in seed.rows("message_reactions", ["message_id", "user_id", "reaction_type"]):
        reactions[row["message_id"]][row["reaction_type"]].append(f"${row['user_id']}")
    parents = {m["parent_id"] for m in messages if m.get("parent_id")}
    authors: defaultdict[str, list[str]] = defaultdict(list)
    for m in messages:
        if m["user_id"] not in members[m["channel_id"]] and m["user_id"] not in authors[m["channel_id"]]:
            authors[m["channel_id"]].append(m["user_id"])
    slack: dict[str, Any] = {}
    teams = seed.rows("teams", ["team_id", "team_name"])
    if teams:
        slack["team"] = {"id": teams[0]["team_id"], "name": teams[0]["team_name"]}
    slack["users"] = [_user(u, u["user_id"] in admins) for u in users]
    slack["channels"] = [
        _channel(c, members[c["channel_id"]], authors[c["channel_id"]])
        for c in channels
        if not c.get("is_dm") and not c.get("is_gc")
    ]
    conversations = {"dms": "is_dm", "group_dms": "is_gc"}
    for key, flag in conversations.items():
        found = [c for c in channels if c.get(flag)]
        if found:
            slack[key] = [
                {"ref": c["channel_id"], "id": c["channel_id"], "users": _refs(members[c["channel_id"]])} for c in found
            ]
    ordered = sorted(messages, key=lambda m: float(m["message_id"]))
    slack["messages"] = [_message(m, m["message_id"] in parents, reactions.get(m["message_id"], {})) for m in ordered]
    last = max((float(m["message_id"]) for m in messages), default=0.0)
    return {
        "name": name,
        "description": f"Agent-Diff's Slack seed {seed.name}, imported with its ids",
        "clock": {"start": _clock_start(last)},
        "slack": slack,
    }


def _refs(ids: list[str]) -> list[str]:
    return [f"${i}" for i in ids]


def _user(row: dict[str, Any], admin: bool) -> dict[str, Any]:
    user: dict[str, Any] = {"ref": row["user_id"], "id": row["user_id"], "name": row["username"]}
    for ours, theirs in (("real_name", "real_name"), ("display_name", "display_name"), ("email", "email")):
        if row.get(theirs) is not None:
            user[ours] = row[theirs]
    user["tz"] = row.get("timezone")
    if row.get("title"):
        user["title"] = row["title"]
    user["is_bot"] = bool(row.get("is_bot"))
    user["is_admin"] = admin
    return user


def _channel(row: dict[str, Any], members: list[str], authors: list[str]) -> dict[str, Any]:
    channel: dict[str, Any] = {
        "ref": row["channel_id"],
        "id": row["channel_id"],
        "name": row["channel_name"],
        "members": _refs(members),
        "is_private": bool(row.get("is_private")),
        "is_archived": bool(row.get("is_archived")),
        "topic": row.get("topic_text") or "",
        "purpose": row.get("purpose_text") or "",
    }
    if authors:  # people who wrote here but are no longer members: Slack keeps their messages
        channel["former_members"] = _refs(authors)
    if not members:
        channel["created_by"] = f"${authors[0]}" if authors else None
    return channel


def _message(row: dict[str, Any], parent: bool, reactions: dict[str, list[str]]) -> dict[str, Any]:
    message: dict[str, Any] = {
        "channel": f"${row['channel_id']}",
        "user": f"${row['user_id']}",
        "text": row.get("message_text") or "",
        "ts": row["message_id"],
    }
    if parent:
        message["ref"] = _message_ref(row["message_id"])
    if row.get("parent_id"):
        message["thread_ts"] = f"${_message_ref(row['parent_id'])}"
    if reactions:
        message["reactions"] = dict(reactions)
    return message


def _message_ref(ts: str) -> str:
    return f"ts_{ts}"


def _clock_start(last: float) -> str:
    """The next whole day after the seed's last message: every seeded `ts` is before the clock start."""
    day = 86400
    start = (math.floor(last / day) + 1) * day
    return datetime.fromtimestamp(start, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
