"""Incidents as a listing renders them by default (no `include[]`), kept while nothing in PagerDuty changes.

An agent polling `GET /incidents` asks for the same objects again and again. Such an object is rendered from
the incident and the records it names (its alerts, first log entry, service, users, teams, escalation
policy, priority), never from the clock: so it is kept by the request's base URL (every `self` link hangs
from it), the incident's id and the tokens of every PagerDuty collection (`services.versions`), which every
write replaces. The same tokens in two worlds copied from one image mean the same records, so such worlds
share what is kept under the same base URL. A kept object is shared by the answers that show it, never
written. Bounded: emptied when full.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...world import Record
from ..versions import Kept, tokens
from .calls import Call
from .store import (
    ALERTS,
    CHANGE_EVENTS,
    ESCALATION_POLICIES,
    INCIDENTS,
    LOG_ENTRIES,
    MAINTENANCE_WINDOWS,
    NOTES,
    PRIORITIES,
    SCHEDULES,
    SERVICES,
    TEAMS,
    USERS,
)
from .views_incidents import incident

COLLECTIONS = (
    USERS,
    TEAMS,
    SERVICES,
    ESCALATION_POLICIES,
    SCHEDULES,
    PRIORITIES,
    MAINTENANCE_WINDOWS,
    INCIDENTS,
    ALERTS,
    NOTES,
    LOG_ENTRIES,
    CHANGE_EVENTS,
)
_kept: Kept[tuple[Any, ...], dict[str, Any]] = Kept(1024)


def incidents(call: Call) -> Callable[[Record], dict[str, Any]]:
    """`views_incidents.incident(call, record)` for the records of one answer, kept."""
    contents = (call.request.base_url, tokens(call.world, COLLECTIONS))

    def view(record: Record) -> dict[str, Any]:
        key = (record["id"], contents)
        found = _kept.get(key)
        return _kept.keep(key, incident(call, record)) if found is None else found

    return view
