"""The Google Calendar state contract: the collections and the lookups the rest of the engine reads.

Records are Calendar's own resources in its field names (`summary`, `timeZone`), with times as epoch
microseconds where the API writes RFC 3339 (`updated`). A calendar-list entry is one person's view of a
calendar (`calendar.list`, id `<person's email>/<calendar id>`): its colour, whether it is selected, the
person's access role. An access-control rule (`calendar.acl`, id `<calendar id>/<rule id>`) gives a scope (a
user, a domain, the public) a role on a calendar. Each kind of record is built and changed in the module named
by what it holds: `calendars` (with the rules), `events` (with `recurrence`).
"""

from __future__ import annotations

from ..base import State, names_by_field

CALENDARS = "calendar.calendars"
LIST = "calendar.list"
EVENTS = "calendar.events"
ACL = "calendar.acl"


def record_names(state: State) -> dict[str, str]:
    """Calendars and events by id, by their summaries."""
    return names_by_field(state, {CALENDARS: "summary", EVENTS: "summary"})
