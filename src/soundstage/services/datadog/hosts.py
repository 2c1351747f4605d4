"""Hosts (`datadog.hosts`, keyed by host name).

A record has the v1 Host fields `name`, `id` (int), `aliases`, `apps`, `tags_by_source` ({source: tags}),
`up`, `is_muted`, `mute_timeout` (epoch seconds or None: muted until unmuted), `mute_message`, `platform`,
and `last_reported` (epoch microseconds for a host that stopped reporting; None for a host that is up, which
reports every minute, so its `last_reported_time` follows the simulated clock).
"""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record


def new_host(name: str, host_id: int, **fields: Any) -> dict[str, Any]:
    return {
        "name": name,
        "id": host_id,
        "aliases": fields.get("aliases", []),
        "apps": fields.get("apps", []),
        "tags_by_source": fields.get("tags_by_source", {}),
        "up": fields.get("up", True),
        "last_reported": fields.get("last_reported"),
        "is_muted": fields.get("is_muted", False),
        "mute_timeout": fields.get("mute_timeout"),
        "mute_message": fields.get("mute_message"),
        "platform": fields.get("platform", "linux"),
    }


def muted(record: Record, now: int) -> bool:
    """Muted now: a mute without an end, or one whose end (epoch seconds) is still ahead."""
    timeout = record["mute_timeout"]
    return bool(record["is_muted"]) and (timeout is None or timeout * US > now)


def last_reported(record: Record, now: int) -> int:
    """When the host last reported, epoch seconds: a host that is up reported at the last whole minute."""
    if record["last_reported"] is not None:
        return record["last_reported"] // US
    return now // (60 * US) * 60


def tags(record: Record) -> list[str]:
    return [tag for source in record["tags_by_source"].values() for tag in source]
