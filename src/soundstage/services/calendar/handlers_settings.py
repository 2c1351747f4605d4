"""The caller's user settings (`settings.*`): Calendar's defaults for every account, but the time zone, which is
their primary calendar's."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..google import paging
from ..google.errors import not_found
from ..google.ids import etag
from .calls import Call, ops
from .store import CALENDARS

# Calendar's settings of an account that never changed them, by id: each value a string, as the API gives it.
DEFAULTS = {
    "autoAddHangouts": "false",
    "dateFieldOrder": "MDY",
    "defaultEventLength": "60",
    "format24HourTime": "false",
    "hideInvitations": "false",
    "hideWeekends": "false",
    "locale": "en",
    "remindOnRespondedEventsOnly": "false",
    "showDeclinedEvents": "true",
    "timezone": "",
    "useKeyboardShortcuts": "true",
    "weekStart": "0",
}


def _settings(call: Call) -> tuple[Record, list[dict[str, Any]]]:
    """The caller's primary calendar (whose zone and last change the settings follow) and their settings."""
    primary = call.world[CALENDARS].one(call.me)
    tag = etag(primary["updated"])
    items = [
        {"kind": "calendar#setting", "etag": tag, "id": name, "value": primary["timeZone"] if name == "timezone" else v}
        for name, v in DEFAULTS.items()
    ]
    return primary, items


@ops("GET /calendar/v3/users/me/settings")
def settings_list(call: Call) -> Any:
    """settings.list: every setting, paged; the last page gives `nextSyncToken`, and `syncToken` lists them again
    once the primary calendar they follow changed since."""
    size = call.integer("maxResults", 100, 1, 250)
    given = call.text("syncToken")
    since = paging.synced(f"settings:{call.me}", given) if given is not None else None
    primary, items = _settings(call)
    if since is not None and primary["updated"] <= since:
        items = []
    chunk, token = paging.page(items, "settings", call.text("pageToken"), size)
    body: dict[str, Any] = {"kind": "calendar#settings", "etag": etag(primary["updated"])}
    body.update(paging.next_token(token, f"settings:{call.me}", call.world.now()))
    body["items"] = list(chunk)
    return body


@ops("GET /calendar/v3/users/me/settings/{setting}")
def settings_get(call: Call) -> Any:
    """settings.get: one setting by its id (`timezone`, `locale`, `format24HourTime`...); 404 for another."""
    _, items = _settings(call)
    found = next((item for item in items if item["id"] == call.params["setting"]), None)
    if found is None:
        raise not_found()
    return found
