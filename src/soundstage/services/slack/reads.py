"""Where each member has read a conversation up to (`last_read`), moved by conversations.mark: the
`slack.reads` records, one per conversation and user (`<channel>/<user>`)."""

from __future__ import annotations

from ...world import World
from .store import READS

UNREAD = "0000000000.000000"  # Slack's `last_read` of a conversation its member has never marked


def last_read(world: World, channel_id: str, user_id: str) -> str:
    found = world[READS].get(f"{channel_id}/{user_id}")
    return found["ts"] if found is not None else UNREAD


def mark(world: World, channel_id: str, user_id: str, ts: str) -> None:
    key = f"{channel_id}/{user_id}"
    if key in world[READS]:
        world[READS].change(key, ts=ts)
    else:
        world[READS].add(key, {"channel": channel_id, "user": user_id, "ts": ts})
