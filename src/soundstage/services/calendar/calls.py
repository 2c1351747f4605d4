"""Google Calendar's request conventions: operations registered as `"METHOD /calendar/v3/..."` on `ops`, each
called with a `Call`; the calendar a path names (`primary` is the caller's own) and the caller's access to it,
the zone an answer is in."""

from __future__ import annotations

from dataclasses import dataclass

from ...world import Record
from ..base import Operations
from ..google.calls import GoogleCall
from ..google.errors import GoogleError, not_found
from . import calendars
from .calendars import ROLES
from .store import CALENDARS
from .zones import is_zone

ops = Operations("calendar")
__all__ = ["ROLES", "Call", "ops"]


@dataclass
class Call(GoogleCall):
    def calendar_id(self) -> str:
        """The calendar the path's `calendarId` names: `primary` is the caller's primary calendar."""
        given = self.params["calendarId"]
        return self.me if given == "primary" else given.lower() if "@" in given else given

    def listed(self, least: str = "freeBusyReader") -> Record:
        """The caller's calendar-list entry of the path's calendar, which must give at least the role `least`:
        Google's 404 for a calendar not on the list or one the caller may not read, 403 for one it may not write."""
        entry = calendars.entry(self.world, self.me, self.calendar_id())
        if entry is None or (least != "freeBusyReader" and entry["accessRole"] == "freeBusyReader"):
            raise not_found()
        if ROLES.index(entry["accessRole"]) < ROLES.index(least):
            raise GoogleError(403, "requiredAccessLevel", f"You need to have {least} access to this calendar.")
        return entry

    def calendar(self, entry: Record) -> Record:
        return self.world[CALENDARS].one(entry["calendar"])

    def zone(self, calendar: Record) -> str:
        """The zone an answer is in: the request's `timeZone`, else the calendar's."""
        given = self.text("timeZone")
        if given is None:
            return str(calendar["timeZone"])
        if not is_zone(given):
            raise GoogleError(400, "invalid", "Invalid time zone definition.", "timeZone")
        return given

    def send_updates(self) -> None:
        """`sendUpdates` (whom Google emails of the change): checked; no mail leaves a world."""
        value = self.text("sendUpdates")
        if value is not None and value not in ("all", "externalOnly", "none"):
            raise GoogleError(400, "invalidParameter", f"Invalid value '{value}' for sendUpdates.", "sendUpdates")
