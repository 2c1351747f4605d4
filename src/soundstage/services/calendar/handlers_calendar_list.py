"""The caller's calendar list (`calendarList.*`)."""

from __future__ import annotations

from typing import Any

from ..google import paging
from ..google.errors import GoogleError
from . import calendars
from .calls import ROLES, Call, ops
from .store import CALENDARS
from .views import calendar_list_entry


@ops("GET /calendar/v3/users/me/calendarList")
def calendar_list_list(call: Call) -> Any:
    """calendarList.list: the caller's entries, by `minAccessRole`, `showHidden`, paged (at most 250 a page)."""
    least = call.text("minAccessRole")
    if least is not None and least not in ROLES:
        raise GoogleError(400, "invalidParameter", f"Invalid value '{least}' for minAccessRole.", "minAccessRole")
    size = call.integer("maxResults", 100, 1, 250)
    hidden = call.boolean("showHidden")
    call.boolean("showDeleted")
    entries = [
        entry
        for entry in calendars.entries(call.world, call.me)
        if (hidden or not entry["hidden"]) and (least is None or ROLES.index(entry["accessRole"]) >= ROLES.index(least))
    ]
    chunk, token = paging.page(entries, "calendarList", call.text("pageToken"), size)
    items = [calendar_list_entry(entry, call.world[CALENDARS].one(entry["calendar"])) for entry in chunk]
    body: dict[str, Any] = {"kind": "calendar#calendarList", "etag": _list_etag(items)}
    if token is not None:
        body["nextPageToken"] = token
    body["items"] = items
    return body


def _list_etag(items: list[dict[str, Any]]) -> str:
    return max((item["etag"] for item in items), default='"0"', key=lambda tag: int(tag.strip('"')))


@ops("GET /calendar/v3/users/me/calendarList/{calendarId}")
def calendar_list_get(call: Call) -> Any:
    """calendarList.get: the caller's entry of one calendar."""
    entry = call.listed()
    return calendar_list_entry(entry, call.calendar(entry))
