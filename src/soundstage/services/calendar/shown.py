"""Which events each calendar shows, kept as the world changes (a `GroupIndex` of `calendar.events`): those on
it, and those inviting its owner (a primary calendar is its owner's address; not a private copy events.import
made), each in start order. A read of one calendar reads its own events only, however many the world holds."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from ...indexes import GroupIndex, Record


class Shown(GroupIndex):
    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        entry = (record["startAt"], record_id)
        yield record["calendar"], entry
        if record["imported"]:  # a private copy: its own calendar alone
            return
        for attendee in record["attendees"]:
            if attendee["email"] != record["calendar"]:
                yield attendee["email"], entry
