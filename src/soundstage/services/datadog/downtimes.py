"""Downtimes (`datadog.downtimes`, by UUID): which monitors and groups they silence, and when.

A record has the v2 attributes (`scope`, `monitor_identifier` `{monitor_id: int}` or `{monitor_tags: [...]}`,
`message`, `mute_first_recovery_notification`, `notify_end_states`, `notify_end_types`,
`display_timezone`), `schedule` `{start, end}` (epoch microseconds, `end` None when open-ended),
`created`/`modified`/`canceled` (epoch microseconds), `created_by` and `updated_by` (user ids or None) and
`legacy_id` (the integer id of the v1 API: v1 and v2 are two views of one downtime). `status` is not stored:
it follows from the simulated time (scheduled, active, ended) unless the downtime was canceled
(`store.downtime_status`).

A downtime matches a monitor by id or by tags (every `monitor_tags` tag on the monitor); its scope
(`*`, or tags AND-ed with `AND`/commas, `key:(a OR b)`, `-tag` to exclude) picks the monitor's groups.
Datadog keeps evaluating a muted monitor (its `overall_state` still moves) and only holds back the
notifications, so muting shows only in `matching_downtimes`, search's `muted` and the checks.
"""

from __future__ import annotations

import re
from typing import Any

from ...ids import IdSource
from ...world import Collection, Record
from .queries import QueryError, parse_monitor_query
from .store import downtime_matches, downtime_status

_TERM = re.compile(r"(-|!)?([^\s:(),]+):(?:\(([^)]*)\)|([^\s(),]+))")


def parse_scope(scope: str) -> list[tuple[bool, str, tuple[str, ...]]]:
    """`env:prod AND host:(a OR b)` to [(excluded, key, values)]; `*` is []. ValueError when unreadable."""
    text = scope.strip()
    if text == "*":
        return []
    terms = []
    rest = re.sub(r"\s+AND\s+|\s*,\s*", " ", text).strip()
    while rest:
        match = _TERM.match(rest)
        if not match:
            raise ValueError(f"invalid scope {scope!r}")
        negated, key, choices, value = match.groups()
        values = tuple(v.strip() for v in re.split(r"\s+OR\s+", choices)) if choices is not None else (value,)
        if not all(values):
            raise ValueError(f"invalid scope {scope!r}")
        terms.append((bool(negated), key, values))
        rest = rest[match.end() :].strip()
    return terms


def scope_covers(scope: str, tags: list[str]) -> bool:
    """Whether a group with `tags` is inside the scope."""
    pairs = {tuple(t.split(":", 1)) for t in tags if ":" in t}
    for negated, key, values in parse_scope(scope):
        inside = any((key, v) in pairs for v in values)
        if inside == negated:
            return False
    return True


def for_monitor(
    downtimes: Collection, monitor: Record, now: int, states: tuple[str, ...] = ("active",)
) -> list[Record]:
    """The downtimes in `states` matching the monitor, oldest first."""
    return [d for d in downtimes if downtime_matches(d, monitor) and downtime_status(d, now) in states]


def muted(downtimes: Collection, monitor: Record, now: int) -> bool:
    return bool(for_monitor(downtimes, monitor, now))


def covering(active: list[Record], monitor: Record, group: str) -> list[Record]:
    """Of the active downtimes matching `monitor`, those whose scope covers `group` (`*`: the monitor has no
    groups): the group's tags with the tags the monitor's query scopes by."""
    try:
        base_tags = list(parse_monitor_query(monitor["query"]).metric.scope)
    except QueryError:
        base_tags = []
    tags = [*base_tags, *([] if group == "*" else group.split(","))]
    return [d for d in active if scope_covers(d["scope"], tags)]


def next_legacy_id(ids: IdSource) -> int:
    """The next v1 id of a downtime (`ids`: the world's or a build's id source): ten digits, as Datadog's."""
    return ids.next("datadog.downtime_ids") + 4_000_000_000


def new_downtime(record_id: str, legacy_id: int, at: int, created_by: str | None, **attributes: Any) -> dict[str, Any]:
    """A downtime record; `attributes` are the v2 attributes already checked (schedule in µs)."""
    return {
        "id": record_id,
        "legacy_id": legacy_id,
        "scope": attributes["scope"],
        "monitor_identifier": attributes["monitor_identifier"],
        "schedule": attributes.get("schedule") or {"start": at, "end": None},
        "message": attributes.get("message"),
        "mute_first_recovery_notification": attributes.get("mute_first_recovery_notification", False),
        "notify_end_states": attributes.get("notify_end_states", ["alert", "no data", "warn"]),
        "notify_end_types": attributes.get("notify_end_types", ["expired"]),
        "display_timezone": attributes.get("display_timezone", "UTC"),
        "created": at,
        "modified": at,
        "canceled": None,
        "created_by": created_by,
        "updated_by": None,
    }


def v1_scope(scope: str) -> list[str]:
    """The v1 `scope` list of a downtime: its AND-ed terms (v1 writes its list AND-ed, `v2_scope`)."""
    return re.split(r"\s+AND\s+", scope.strip())


def v2_scope(scopes: list[str]) -> str:
    return " AND ".join(s.strip() for s in scopes)
