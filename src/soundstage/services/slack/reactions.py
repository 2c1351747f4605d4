"""Reactions on messages: a message's `reactions` field, and one user adding or removing a reaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...world import Record, World
from .store import MESSAGES


def field(by_name: Mapping[str, list[str]]) -> list[dict[str, Any]]:
    """The `reactions` of a message from the users of each emoji; an emoji nobody reacts with is left out."""
    return [{"name": name, "users": list(users), "count": len(users)} for name, users in by_name.items() if users]


def has_reacted(message: Record, user_id: str, name: str) -> bool:
    return any(r["name"] == name and user_id in r["users"] for r in message.get("reactions") or [])


def react(world: World, message: Record, user_id: str, name: str) -> Record:
    by_name = {r["name"]: list(r["users"]) for r in message.get("reactions") or []}
    by_name.setdefault(name, []).append(user_id)
    return world[MESSAGES].change(message["ts"], reactions=field(by_name))


def unreact(world: World, message: Record, user_id: str, name: str) -> Record:
    by_name = {
        r["name"]: [u for u in r["users"] if not (r["name"] == name and u == user_id)]
        for r in message.get("reactions") or []
    }
    return world[MESSAGES].change(message["ts"], reactions=field(by_name) or None)
