"""Events (`datadog.events`, keyed by the id as a string): their ids and records, made by the seed and by
`POST /api/v1/events`.

A record has the v1 Event fields `id` (a large int64, like Datadog's), `title`, `text`, `date_happened`
(epoch microseconds), `tags`, `alert_type`, `priority`, `source_type_name`, `host`, `device_name`,
`aggregation_key` and `related_event_id`.
"""

from __future__ import annotations

from typing import Any

from ...ids import IdSource

# Event ids are large int64s, like Datadog's.
EVENT_IDS = 7_000_000_000_000_000_000


def event_id(ids: IdSource) -> int:
    return EVENT_IDS + int.from_bytes(ids.digest("datadog:event")[:8], "big") % 10**18


def event(
    event_id: int,
    title: str,
    text: str,
    at: int,
    tags: list[str] | None = None,
    alert_type: str = "info",
    priority: str = "normal",
    source_type_name: str | None = None,
    host: str | None = None,
    device_name: str | None = None,
    aggregation_key: str | None = None,
    related_event_id: int | None = None,
) -> dict[str, Any]:
    return {
        "id": event_id,
        "title": title,
        "text": text,
        "date_happened": at,
        "tags": list(tags or []),
        "alert_type": alert_type,
        "priority": priority,
        "source_type_name": source_type_name,
        "host": host,
        "device_name": device_name,
        "aggregation_key": aggregation_key,
        "related_event_id": related_event_id,
    }
