"""Pinned messages: the `slack.pins` records (one per channel and message), pinning and a channel's pins."""

from __future__ import annotations

from typing import Any

from ...world import Record, World
from .store import MESSAGES, PINS
from .timestamps import now_seconds


def pin_id(channel_id: str, ts: str) -> str:
    return f"{channel_id}/{ts}"


def record(channel_id: str, ts: str, created: int, created_by: str) -> dict[str, Any]:
    return {"channel": channel_id, "ts": ts, "type": "message", "created": created, "created_by": created_by}


def in_channel(world: World, channel_id: str) -> list[Record]:
    """A channel's pins, in the order they were pinned."""
    return world[PINS].by("channel", channel_id)


def is_pinned(world: World, message: Record) -> bool:
    return world[PINS].get(pin_id(message["channel"], message["ts"])) is not None


def pin(world: World, message: Record, user_id: str) -> None:
    channel_id = message["channel"]
    world[PINS].add(pin_id(channel_id, message["ts"]), record(channel_id, message["ts"], now_seconds(world), user_id))
    world[MESSAGES].change(message["ts"], pinned_to=[*(message.get("pinned_to") or []), channel_id])


def unpin(world: World, message: Record) -> None:
    """Drops the pin of a message that is being deleted, if it has one."""
    if is_pinned(world, message):
        world[PINS].remove(pin_id(message["channel"], message["ts"]))
