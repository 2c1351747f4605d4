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
    """calendarList.list: the caller's entries, by `minAccessRole`, `showHidden`, paged (at most 250 a page); the
    last page gives `nextSyncToken`, and `syncToken` lists the entries changed since."""
    least = call.text("minAccessRole")
    if least is not None and least not in ROLES:
        raise GoogleError(400, "invalidParameter", f"Invalid value '{least}' for minAccessRole.", "minAccessRole")
    size = call.integer("maxResults", 100, 1, 250)
    hidden = call.boolean("showHidden")
    call.boolean("showDeleted")
    since = _since(call)
    entries = [
        entry
        for entry in calendars.entries(call.world, call.me)
        if (hidden or not entry["hidden"])
        and (least is None or ROLES.index(entry["accessRole"]) >= ROLES.index(least))
        and (since is None or entry["updated"] > since)
    ]
    chunk, token = paging.page(entries, "calendarList", call.text("pageToken"), size)
    items = [calendar_list_entry(entry, call.world[CALENDARS].one(entry["calendar"])) for entry in chunk]
    body: dict[str, Any] = {"kind": "calendar#calendarList", "etag": _list_etag(items)}
    if token is not None:
        body["nextPageToken"] = token
    else:
        body["nextSyncToken"] = paging.token(f"sync:{call.me}", call.world.now())
    body["items"] = items
    return body


def _since(call: Call) -> int | None:
    """The moment a `syncToken` stands for; `minAccessRole` may not go with it (400), and a token it never gave
    is 410 `fullSyncRequired`."""
    given = call.text("syncToken")
    if given is None:
        return None
    if call.text("minAccessRole") is not None:
        raise GoogleError(400, "invalid", "Sync token cannot be used with minAccessRole.", "minAccessRole")
    return paging.synced(f"sync:{call.me}", given)


def _list_etag(items: list[dict[str, Any]]) -> str:
    return max((item["etag"] for item in items), default='"0"', key=lambda tag: int(tag.strip('"')))


@ops("GET /calendar/v3/users/me/calendarList/{calendarId}")
def calendar_list_get(call: Call) -> Any:
    """calendarList.get: the caller's entry of one calendar."""
    entry = call.listed()
    return calendar_list_entry(entry, call.calendar(entry))
