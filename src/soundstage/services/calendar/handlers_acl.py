"""Access control (`acl.list`): who has which role on a calendar, one rule a person on its list."""

from __future__ import annotations

from typing import Any

from ..google import paging
from ..google.errors import GoogleError
from ..google.ids import etag
from .calls import Call, ops
from .store import LIST


@ops("GET /calendar/v3/calendars/{calendarId}/acl")
def acl_list(call: Call) -> Any:
    """acl.list: the calendar's rules (`user:<address>` with its role), for its owners alone."""
    entry = call.listed("reader")
    if entry["accessRole"] != "owner":
        raise GoogleError(403, "forbidden", "Forbidden")
    size = call.integer("maxResults", 100, 1, 250)
    call.boolean("showDeleted")
    entries = sorted(call.world[LIST].by("calendar", entry["calendar"]), key=lambda e: (e["person"], e["id"]))
    chunk, token = paging.page(entries, f"acl:{entry['calendar']}", call.text("pageToken"), size)
    items = [
        {
            "kind": "calendar#aclRule",
            "etag": etag(e["updated"]),
            "id": f"user:{e['person']}",
            "scope": {"type": "user", "value": e["person"]},
            "role": e["accessRole"],
        }
        for e in chunk
    ]
    body: dict[str, Any] = {"kind": "calendar#acl", "etag": etag(max((e["updated"] for e in entries), default=0))}
    if token is not None:
        body["nextPageToken"] = token
    body["items"] = items
    return body
