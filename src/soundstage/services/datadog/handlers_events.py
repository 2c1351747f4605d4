"""Events: the v1 event stream (`GET /api/v1/events`, `POST /api/v1/events`) and the v2 event search
(`POST /api/v2/events/search`, with its GET form `/api/v2/events` that `links.next` points to).

The v1 stream lists events that happened in [start, end] (and by the simulated now), newest first, 1000
a page; events sharing an `aggregation_key` are shown as one aggregate (the newest, with its `children`)
unless `unaggregated` or `exclude_aggregate` is set.
"""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record
from ..base import Reply
from . import events, views_records
from .calls import (
    Call,
    Search,
    invalid,
    is_epoch_seconds,
    is_int64,
    ops,
    search_from_body,
    search_from_query,
    search_response,
    string_field,
)
from .errors import bad_request
from .logs_query import Doc
from .store import EVENTS

PAGE = 1000
ALERT_TYPES = ("error", "warning", "info", "success", "user_update", "recommendation", "snapshot")
PRIORITIES = ("normal", "low")
OLDEST_EVENT = 18 * 3600 * US  # the spec: "Limited to events up to 18 hours in the past"


@ops("GET /api/v1/events")
def list_events(call: Call) -> dict[str, Any]:
    start, end = call.integer("start"), call.integer("end")
    if start is None or end is None:
        raise bad_request(f"Missing required parameter '{'start' if start is None else 'end'}' (epoch seconds)")
    priority = call.text("priority")
    if priority is not None and priority not in PRIORITIES:
        raise invalid("priority")
    page = call.integer("page", 0, minimum=0)
    sources, tags = [s.lower() for s in call.csv("sources")], [t.lower() for t in call.csv("tags")]
    unaggregated = call.boolean("unaggregated") or call.boolean("exclude_aggregate")
    until = min(end * US + US - 1, call.now())
    found = [
        r
        for r in call.world[EVENTS]
        if start * US <= r["date_happened"] <= until
        and (priority is None or r["priority"] == priority)
        and (not sources or (r["source_type_name"] or "").lower() in sources)
        and _has_tags(r, tags)
    ]
    found.sort(key=lambda r: (r["date_happened"], r["id"]), reverse=True)
    shown = [views_records.event(r) for r in (found if unaggregated else _aggregate(found))]
    if not unaggregated:
        _mark_aggregates(shown, found)
    return {"events": shown[page * PAGE : (page + 1) * PAGE], "status": "ok"}


def _has_tags(record: Record, tags: list[str]) -> bool:
    if not tags:
        return True
    have = {t.lower() for t in record["tags"]}
    return all(t in have for t in tags)


def _aggregate(events: list[Record]) -> list[Record]:
    """The newest event of each aggregation key (events come newest first), and every event without one."""
    seen: set[str] = set()
    kept = []
    for event in events:
        key = event["aggregation_key"]
        if key is None or key not in seen:
            kept.append(event)
            if key is not None:
                seen.add(key)
    return kept


def _mark_aggregates(shown: list[dict[str, Any]], events: list[Record]) -> None:
    groups: dict[str, list[Record]] = {}
    for event in events:
        if event["aggregation_key"] is not None:
            groups.setdefault(event["aggregation_key"], []).append(event)
    for view in shown:
        members = groups.get(view.get("aggregation_key") or "", [])
        if len(members) > 1:
            view["is_aggregate"] = True
            view["children"] = [
                {"id": m["id"], "date_happened": m["date_happened"] // US, "alert_type": m["alert_type"]}
                for m in members
            ]


@ops("POST /api/v1/events")
def create_event(call: Call) -> Reply:
    fields = call.fields
    title = string_field(fields, "title", limit=100)
    text = string_field(fields, "text", limit=4000)
    if not title:
        raise bad_request("Event title is required")
    if text is None:
        raise bad_request("Event text is required")
    alert_type = fields.get("alert_type", "info")
    if alert_type not in ALERT_TYPES:
        raise bad_request(f"Invalid 'alert_type': expected one of {', '.join(ALERT_TYPES)}, found {alert_type!r}")
    priority = fields.get("priority") or "normal"
    if priority not in PRIORITIES:
        raise bad_request(f"Invalid 'priority': expected normal or low, found {priority!r}")
    tags = fields.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise bad_request("Invalid 'tags': expected a list of strings")
    happened = fields.get("date_happened")
    if happened is not None and not is_epoch_seconds(happened):
        raise bad_request("Invalid 'date_happened': expected epoch seconds")
    if happened is not None and happened * US < call.now() - OLDEST_EVENT:
        raise bad_request("Event too far in the past")
    related = fields.get("related_event_id")
    if related is not None and not is_int64(related):
        raise bad_request("Invalid 'related_event_id': expected an integer")
    record = events.event(
        events.event_id(call.world.ids),
        title,
        text,
        happened * US if happened is not None else call.now(),
        tags=tags,
        alert_type=alert_type,
        priority=priority,
        source_type_name=string_field(fields, "source_type_name"),
        host=string_field(fields, "host"),
        device_name=string_field(fields, "device_name"),
        aggregation_key=string_field(fields, "aggregation_key", limit=100),
        related_event_id=related,
    )
    call.world[EVENTS].add(str(record["id"]), record)
    return Reply(202, {"status": "ok", "event": views_records.posted_event(record, fields.get("priority"))})


def _doc(record: Record) -> Doc:
    service = next((t.split(":", 1)[1] for t in record["tags"] if t.startswith("service:")), None)
    reserved = {
        "source": record["source_type_name"],
        "host": record["host"],
        "status": views_records.event_status(record["alert_type"]),
        "service": service,
    }
    attributes = {"title": record["title"], "priority": record["priority"], "evt": {"id": str(record["id"])}}
    return Doc(f"{record['title']}\n{record['text']}", reserved, record["tags"], attributes)


def _search(call: Call, request: Search) -> dict[str, Any]:
    page, after = request.run(list(call.world[EVENTS]), _doc, "date_happened")
    return search_response(call, request, [views_records.event_v2(r) for r in page], after, "/api/v2/events")


@ops("POST /api/v2/events/search")
def search_events(call: Call) -> dict[str, Any]:
    return _search(call, search_from_body(call))


@ops("GET /api/v2/events")
def list_events_v2(call: Call) -> dict[str, Any]:
    return _search(call, search_from_query(call))
