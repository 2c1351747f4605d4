"""Channel bookmarks: the `slack.bookmarks` records and their order in a channel (by `rank`)."""

from __future__ import annotations

from typing import Any

from ...world import Record, World
from .store import BOOKMARKS


def rank_at(position: int) -> str:
    """The `rank` of a channel's bookmark at `position` (0 first): a, b... z, aa, bb..."""
    return chr(ord("a") + position % 26) * (1 + position // 26)


def in_channel(world: World, channel_id: str) -> list[Record]:
    return sorted(world[BOOKMARKS].by("channel_id", channel_id), key=lambda b: b["rank"])


def record(
    bookmark_id: str,
    channel_id: str,
    title: str,
    link: str,
    emoji: str | None,
    by: str,
    team_id: str,
    created: int,
    rank: str,
) -> dict[str, Any]:
    return {
        "id": bookmark_id,
        "channel_id": channel_id,
        "title": title,
        "link": link,
        "emoji": emoji,
        "icon_url": None,
        "type": "link",
        "entity_id": None,
        "date_created": created,
        "date_updated": 0,
        "rank": rank,
        "last_updated_by_user_id": by,
        "last_updated_by_team_id": team_id,
        "shortcut_id": None,
        "app_id": None,
    }
