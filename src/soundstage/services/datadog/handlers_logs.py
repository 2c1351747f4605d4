"""Log search: `POST /api/v2/logs/events/search` and its GET form `/api/v2/logs/events` (which
`links.next` points to). Only logs at or before the simulated now are found."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import views_records
from .calls import Call, Search, ops, search_from_body, search_from_query, search_response
from .logs_query import Doc
from .store import LOGS


def _doc(record: Record) -> Doc:
    reserved = {"service": record["service"], "host": record["host"], "status": record["status"]}
    return Doc(record["message"], reserved, record["tags"], record["attributes"])


def _logs(call: Call, request: Search) -> dict[str, Any]:
    page, after = request.run(list(call.world[LOGS]), _doc, "timestamp")
    return search_response(call, request, [views_records.log(r) for r in page], after, "/api/v2/logs/events")


@ops("POST /api/v2/logs/events/search")
def list_logs(call: Call) -> dict[str, Any]:
    return _logs(call, search_from_body(call))


@ops("GET /api/v2/logs/events")
def list_logs_get(call: Call) -> dict[str, Any]:
    return _logs(call, search_from_query(call))
