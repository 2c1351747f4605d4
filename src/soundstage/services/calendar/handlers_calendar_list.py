"""The caller's calendar list (`calendarList.*`): its entries read, a calendar the caller may see added to it
and taken off, each entry's own settings (colour, visibility, reminders, notifications) changed."""

from __future__ import annotations

import re
from typing import Any

from ...world import Record
from ..base import Reply
from ..google import paging
from ..google.errors import GoogleError, not_found
from . import calendars, colors
from .calls import ROLES, Call, ops
from .store import CALENDARS, LIST
from .views import calendar_list_entry

RGB = re.compile(r"^#[0-9a-fA-F]{6}$")
NOTIFICATIONS = ("eventCreation", "eventChange", "eventCancellation", "eventResponse", "agenda")
MOST_REMINDERS = 5  # Calendar's most reminders an entry (or an event) keeps
MOST_MINUTES = 40320  # four weeks, the furthest ahead a reminder may be


@ops("GET /calendar/v3/users/me/calendarList")
def calendar_list_list(call: Call) -> Any:
    """calendarList.list: the caller's entries, by `minAccessRole`, `showHidden`, paged (at most 250 a page); the
    last page gives `nextSyncToken`, and `syncToken` lists the entries changed since."""
    least = call.text("minAccessRole")
    if least is not None and least not in ROLES:
        raise GoogleError(400, "invalidParameter", f"Invalid value '{least}' for minAccessRole.", "minAccessRole")
    size = call.integer("maxResults", 100, 1, 250)
    since = _since(call)
    # A sync token lists hidden and deleted entries too, as Calendar's does.
    hidden = call.boolean("showHidden") or since is not None
    deleted = call.boolean("showDeleted") or since is not None
    entries = [
        entry
        for entry in calendars.entries(call.world, call.me, deleted)
        if (hidden or not entry["hidden"])
        and (least is None or ROLES.index(entry["accessRole"]) >= ROLES.index(least))
        and (since is None or calendars.changed(call.world, entry) > since)
    ]
    chunk, token = paging.page(entries, "calendarList", call.text("pageToken"), size)
    items = [calendar_list_entry(entry, call.world[CALENDARS].one(entry["calendar"])) for entry in chunk]
    body: dict[str, Any] = {"kind": "calendar#calendarList", "etag": _list_etag(items)}
    body.update(paging.next_token(token, f"sync:{call.me}", call.world.now()))
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


def _reminders(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > MOST_REMINDERS:
        raise GoogleError(400, "invalid", "Invalid value for: defaultReminders")
    reminders = []
    for given in value:
        if (
            not isinstance(given, dict)
            or given.get("method") not in ("email", "popup")
            or not isinstance(given.get("minutes"), int)
            or isinstance(given["minutes"], bool)
            or not 0 <= given["minutes"] <= MOST_MINUTES
        ):
            raise GoogleError(400, "invalid", "Invalid value for: defaultReminders")
        reminders.append({"method": given["method"], "minutes": given["minutes"]})
    return reminders


def _notifications(value: Any) -> list[dict[str, str]]:
    if value is not None and not isinstance(value, dict):
        raise GoogleError(400, "invalid", "Invalid value for: notificationSettings")
    given = (value or {}).get("notifications") or []
    if not isinstance(given, list) or not all(
        isinstance(n, dict) and n.get("type") in NOTIFICATIONS and n.get("method") == "email" for n in given
    ):
        raise GoogleError(400, "invalid", "Invalid value for: notificationSettings")
    return [{"type": n["type"], "method": "email"} for n in given]


def _flag(body: dict[str, Any], name: str) -> bool:
    value = body.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise GoogleError(400, "invalid", f"Invalid value for: {name}")
    return value


def _settings(call: Call, whole: bool, background: str = calendars.PRIMARY_COLOR[1]) -> dict[str, Any]:
    """The entry's own fields a body gives (all of them, for `whole`: those left out are cleared; its colour
    stays). `backgroundColor` and `foregroundColor` are read only with `colorRgbFormat=true`, as Calendar reads
    them; a colour given so takes the palette's id where it has it (`background`: the entry's until then)."""
    body = call.fields
    rgb = call.boolean("colorRgbFormat")
    changes: dict[str, Any] = {}
    if body.get("colorId") is not None:
        color = body["colorId"]
        if not isinstance(color, str) or not color.isdigit() or not 1 <= int(color) <= len(colors.CALENDAR):
            raise GoogleError(400, "invalid", "Invalid value for: colorId")
        changes.update(colorId=color, backgroundColor=colors.CALENDAR[int(color) - 1], foregroundColor="#000000")
    if rgb and (body.get("backgroundColor") is not None or body.get("foregroundColor") is not None):
        for name in ("backgroundColor", "foregroundColor"):
            value = body.get(name)
            if value is not None and (not isinstance(value, str) or not RGB.match(value)):
                raise GoogleError(400, "invalid", f"Invalid value for: {name}")
        background = str(body.get("backgroundColor") or changes.get("backgroundColor") or background).lower()
        changes.update(
            backgroundColor=background,
            foregroundColor=str(body.get("foregroundColor") or "#000000").lower(),
            colorId=str(colors.CALENDAR.index(background) + 1) if background in colors.CALENDAR else None,
        )
    for name in ("hidden", "selected"):
        if whole or name in body:
            changes[name] = _flag(body, name)
    if whole or "summaryOverride" in body:
        override = body.get("summaryOverride")
        if override is not None and not isinstance(override, str):
            raise GoogleError(400, "invalid", "Invalid value for: summaryOverride")
        changes["summaryOverride"] = override or None
    if whole or "defaultReminders" in body:
        changes["defaultReminders"] = _reminders(body.get("defaultReminders") or [])
    if whole or "notificationSettings" in body:
        changes["notifications"] = _notifications(body.get("notificationSettings"))
    return changes


def _changed(call: Call, entry: Record, changes: dict[str, Any]) -> Any:
    changed = call.world[LIST].change(entry["id"], **changes, updated=call.world.now())
    return calendar_list_entry(changed, call.calendar(changed))


@ops("POST /calendar/v3/users/me/calendarList")
def calendar_list_insert(call: Call) -> Any:
    """calendarList.insert: a calendar the caller's access lets them see (by its `id`) added to their list, with
    the settings the body gives; 404 for one they may not see, 409 for one on the list already."""
    given = call.fields.get("id")
    if not isinstance(given, str) or not given:
        raise GoogleError(400, "required", "Missing id.")
    calendar_id = given.lower() if "@" in given else given
    calendar = calendars.calendar(call.world, calendar_id)
    role = calendars.role_of(call.world, calendar_id, call.me) if calendar is not None else None
    if calendar is None or role is None:
        raise not_found()
    if calendars.entry(call.world, call.me, calendar_id) is not None:
        raise GoogleError(409, "duplicate", "The requested identifier already exists.")
    changes = _settings(call, whole=False)
    entry = calendars.subscribe(call.world, call.me, calendar, role)
    return _changed(call, entry, changes) if changes else calendar_list_entry(entry, calendar)


@ops("PATCH /calendar/v3/users/me/calendarList/{calendarId}")
def calendar_list_patch(call: Call) -> Any:
    """calendarList.patch: the entry's settings the body gives."""
    entry = call.listed()
    return _changed(call, entry, _settings(call, whole=False, background=entry["backgroundColor"]))


@ops("PUT /calendar/v3/users/me/calendarList/{calendarId}")
def calendar_list_update(call: Call) -> Any:
    """calendarList.update: the entry's settings as the whole body gives them."""
    entry = call.listed()
    return _changed(call, entry, _settings(call, whole=True, background=entry["backgroundColor"]))


@ops("DELETE /calendar/v3/users/me/calendarList/{calendarId}")
def calendar_list_delete(call: Call) -> Any:
    """calendarList.delete: the calendar taken off the caller's list (their access stays: it may be added back);
    their own primary calendar cannot be (403)."""
    entry = call.listed()
    if entry["primary"]:
        raise GoogleError(
            403,
            "cannotChangeOwnPrimarySubscription",
            "Cannot change your own primary subscription.",
            domain="calendar",
        )
    call.world[LIST].change(entry["id"], deleted=True, updated=call.world.now())
    return Reply(204, None)
