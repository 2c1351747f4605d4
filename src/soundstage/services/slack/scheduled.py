"""Scheduled messages (`slack.scheduled`, by `Q…` id): kept until simulated time reaches their `post_at`,
then posted through the world's due events, unless deleted first."""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record, World
from . import messages, store
from .store import CHANNELS, SCHEDULED
from .timestamps import now_seconds


def schedule(
    world: World,
    channel_id: str,
    user_id: str,
    post_at: int,
    text: str,
    *,
    thread_ts: str | None,
    broadcast: bool,
    extra: dict[str, Any],
) -> Record:
    """Keeps the message and has the world post it at `post_at` (epoch seconds)."""
    scheduled_id = world.ids.slack("Q")
    record = {
        "id": scheduled_id,
        "channel_id": channel_id,
        "post_at": post_at,
        "date_created": now_seconds(world),
        "text": text,
        "user": user_id,
        "thread_ts": thread_ts,
        "broadcast": broadcast,
        "extra": extra,
    }
    world[SCHEDULED].add(scheduled_id, record)
    world.schedule(post_at * US, lambda w: _post(w, scheduled_id))
    return record


def _post(world: World, scheduled_id: str) -> None:
    """Posts a scheduled message that is still there, where its author may still post."""
    record = world[SCHEDULED].get(scheduled_id)
    if record is None:
        return
    world[SCHEDULED].remove(scheduled_id)
    channel = world[CHANNELS].get(record["channel_id"])
    if channel is None or channel.get("is_archived") or not store.is_member(channel, record["user"]):
        return
    messages.post(
        world,
        record["channel_id"],
        record["user"],
        record["text"],
        thread_ts=record["thread_ts"],
        broadcast=record["broadcast"],
        extra=record["extra"] or None,
        composed=False,
    )


def of_user(world: World, user_id: str) -> list[Record]:
    """A user's scheduled messages still to be posted, soonest first."""
    return sorted(world[SCHEDULED].by("user", user_id), key=lambda r: (r["post_at"], r["id"]))


def cancel(world: World, scheduled_id: str) -> None:
    world[SCHEDULED].remove(scheduled_id)
