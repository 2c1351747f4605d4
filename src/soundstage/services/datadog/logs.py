"""Logs (`datadog.logs`, keyed by the log id): their ids and records, as the seed writes them (from the
section's `logs` and from `generate:`).

A record has `id` (Datadog's opaque log id), `timestamp` (epoch microseconds, to the millisecond),
`message`, `service`, `host`, `status`, `tags` and `attributes` (free-form, searched as `@name:value`).
"""

from __future__ import annotations

import base64
from typing import Any

from ...ids import IdSource


def log_id(ids: IdSource, timestamp: int) -> str:
    """Datadog's opaque log id: base64 of a version byte, the time in milliseconds and random bytes."""
    raw = b"\x01\x00\x00\x01" + (timestamp // 1000).to_bytes(8, "big") + ids.digest("datadog:log")[:20]
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def log(
    ids: IdSource,
    timestamp: int,
    message: str,
    service: str | None,
    host: str | None,
    status: str,
    tags: list[str],
    attributes: dict[str, Any],
) -> dict[str, Any]:
    # Datadog keeps log times to the millisecond.
    timestamp -= timestamp % 1000
    return {
        "id": log_id(ids, timestamp),
        "timestamp": timestamp,
        "message": message,
        "service": service,
        "host": host,
        "status": status,
        "tags": tags,
        "attributes": attributes,
    }
