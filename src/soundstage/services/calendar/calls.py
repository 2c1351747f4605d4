"""Google Calendar's request conventions: operations registered as `"METHOD /calendar/v3/..."` on `ops`, each
called with a `Call`; the calendar a path names (`primary` is the caller's own)."""

from __future__ import annotations

from dataclasses import dataclass

from ...world import Record
from ..base import Operations
from ..google.calls import GoogleCall
from ..google.errors import not_found
from . import calendars

ops = Operations("calendar")


@dataclass
class Call(GoogleCall):
    def calendar_id(self) -> str:
        """The calendar the path's `calendarId` names: `primary` is the caller's primary calendar."""
        given = self.params["calendarId"]
        return self.me if given == "primary" else given

    def listed(self) -> Record:
        """The caller's calendar-list entry of the path's calendar: Google's 404 for one not on the list."""
        entry = calendars.entry(self.world, self.me, self.calendar_id())
        if entry is None:
            raise not_found()
        return entry
